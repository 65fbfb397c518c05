// Reading an HTTP answer's body with a bound, for the CLI's downloads (registry answers, mcpb
// bundles): counted as the bytes arrive, not trusted from Content-Length, and the rest of the
// stream cancelled once past it, so a huge or endless answer fails instead of filling memory.

export class BodyTooLarge extends Error {
  constructor(readonly max: number) {
    super(`larger than ${max} bytes`);
  }
}

/** The body's bytes; BodyTooLarge past `max`. Other failures of the stream are thrown as they come. */
export async function readBody(response: Response, max: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) {
      await response.body.cancel().catch(() => {});
      throw new BodyTooLarge(max);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
