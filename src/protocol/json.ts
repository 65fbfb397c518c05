// JSON as it arrives from a server or a client: an object whose fields are unknown until checked.
// The gateway's own code narrows what it reads (isJsonObject, typeof) and passes the rest on as it
// is; an any-valued record would let a field be used as anything without a check.

export type JsonObject = { [key: string]: unknown };

export function isJsonObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The value at `keys` under `v`, through objects only: undefined where a step is missing or not an object. */
export function valueAt(v: unknown, ...keys: string[]): unknown {
  for (const key of keys) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as JsonObject)[key];
  }
  return v;
}
