// TypeScript accepted: types are stripped with sucrase (loaded on first use only), which keeps
// every line where it was, so an error's line in the output is its line in the script.
// Only called when the script does not parse as JavaScript: plain JavaScript never goes through it.

type Transform = typeof import('sucrase')['transform'];

let loading: Promise<{ transform: Transform }> | undefined;

function load(): Promise<{ transform: Transform }> {
  if (loading) return loading;
  // sucrase is CommonJS: Node finds its named exports, a bundler's interop may give only default.
  const pending = import('sucrase').then((m) => ({ transform: m.transform ?? (m as unknown as { default: { transform: Transform } }).default.transform }));
  loading = pending;
  pending.catch(() => {
    loading = undefined;
  });
  return pending;
}

export type Stripped = { ok: true; code: string } | { ok: false; message: string; line?: number };

/** The script without its types (enums and namespaces become plain JavaScript, as tsc does). */
export async function stripTypes(code: string): Promise<Stripped> {
  const { transform } = await load();
  try {
    // disableESTransforms: the engine speaks ES2023; only the types go.
    return { ok: true, code: transform(code, { transforms: ['typescript'], disableESTransforms: true }).code };
  } catch (err) {
    const e = err as { message?: string; loc?: { line?: number } };
    return { ok: false, message: String(e.message ?? err), line: e.loc?.line };
  }
}
