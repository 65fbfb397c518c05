// WWW-Authenticate values the gateway sends (RFC 6750 §3, RFC 9728 §5.1, MCP authorization):
// always the PRM URL; `error` only when a token was presented; `scope` on 403 insufficient_scope
// and on the bare 401, so clients know what to ask for. Values are quoted-string escaped.

export interface BearerParams {
  resourceMetadata: string;
  error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request';
  description?: string;
  scope?: readonly string[];
}

function quote(value: string): string {
  // quoted-string: escape \ and ", and drop control characters rather than send them.
  return `"${value.replace(/[\x00-\x1f\x7f]/g, '').replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export function bearerChallengeHeader(p: BearerParams): string {
  const parts = [`resource_metadata=${quote(p.resourceMetadata)}`];
  if (p.error) parts.push(`error=${quote(p.error)}`);
  if (p.description) parts.push(`error_description=${quote(p.description)}`);
  if (p.scope && p.scope.length > 0) parts.push(`scope=${quote(p.scope.join(' '))}`);
  return `Bearer ${parts.join(', ')}`;
}
