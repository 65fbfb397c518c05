// Which client capability each request to a client needs (sampling, elicitation and its modes,
// roots): a client that did not declare one never receives such a request. Pure.

import { type JsonObject, valueAt } from './json.js';

/** Why this client cannot take this request (the capability it lacks), or undefined if it can. */
export function missingCapability(capabilities: JsonObject, method: string, params: JsonObject | undefined): string | undefined {
  switch (method) {
    case 'sampling/createMessage':
      if (!capabilities.sampling) return 'sampling';
      if (params?.tools && !valueAt(capabilities.sampling, 'tools')) return 'sampling.tools';
      return undefined;
    case 'elicitation/create': {
      const e = capabilities.elicitation;
      if (!e) return 'elicitation';
      const mode = params?.mode ?? 'form';
      // An empty elicitation capability means form mode only (2025-11-25).
      const form = valueAt(e, 'form');
      const url = valueAt(e, 'url');
      const declaresModes = form !== undefined || url !== undefined;
      if (mode === 'url' && !url) return 'elicitation.url';
      if (mode === 'form' && declaresModes && !form) return 'elicitation.form';
      return undefined;
    }
    case 'roots/list':
      return capabilities.roots ? undefined : 'roots';
    default:
      return method;
  }
}

/** The capability named by missingCapability, as a ClientCapabilities object (for -32021's data). */
export function capabilityObject(missing: string): JsonObject {
  const [top, sub] = missing.split('.') as [string, string | undefined];
  return { [top]: sub === undefined ? {} : { [sub]: {} } };
}
