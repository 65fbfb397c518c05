// The inbound OAuth surface the HTTP endpoint wires: the authenticator, the PRM document and its
// paths, profile matching by claims, and the 403 for per-operation scopes.

export { createOAuthAuthenticator, insufficientScope, type AuthenticatorDeps } from './authenticator.js';
export { protectedResourceMetadata, prmPaths, resourceMetadataUrl, type ProtectedResourceMetadata } from './prm.js';
export { matchProfile, profileMatches, scopesOf, type ClaimProfile, type ProfileMatch } from './profiles.js';
export { bearerChallengeHeader } from './challenge.js';
export { combineAuthenticators, type Identified, type StaticAuthenticator } from './combined.js';
export type { InboundAuthConfig, AuthResult, Claims, InboundAuthenticator } from './types.js';
