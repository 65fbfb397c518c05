// Reading a user's secrets for `switchboard users connect`: on a terminal, one prompt per secret
// (its description) with nothing echoed; otherwise (a script, a test, a password manager's pipe)
// stdin as `NAME=value` lines. Either way every secret must come, non-empty, and no other name:
// a typo would otherwise store a credential that never fills the server's env or headers.

export interface SecretInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

export interface SecretSpec {
  name: string;
  description?: string;
}

/** One value typed on a terminal, not echoed; Ctrl-C or Ctrl-D on an empty line gives up. */
function readHidden(input: SecretInput, prompt: string, err: (text: string) => void): Promise<string> {
  err(prompt);
  input.setRawMode!(true);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const end = (outcome: () => void) => {
      input.off('data', onData);
      input.setRawMode!(false);
      input.pause();
      err('\n');
      outcome();
    };
    const onData = (chunk: string | Buffer) => {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n') return end(() => resolve(value));
        if (ch === '\u0003' || (ch === '\u0004' && value === '')) return end(() => reject(new Error('interrupted')));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    input.on('data', onData);
  });
}

async function readAll(input: SecretInput): Promise<string> {
  let text = '';
  for await (const chunk of input) text += String(chunk);
  return text;
}

/** `NAME=value` lines (blank lines skipped); an unknown, repeated or malformed line is an error naming the line, never the value. */
export function parseSecretLines(text: string, specs: readonly SecretSpec[]): Record<string, string> {
  const known = new Set(specs.map((s) => s.name));
  const values: Record<string, string> = {};
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') continue;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`stdin line ${i + 1} is not NAME=value`);
    const name = line.slice(0, eq).trim();
    if (!known.has(name)) throw new Error(`stdin line ${i + 1} names "${name}", which this server does not take (it takes ${[...known].join(', ')})`);
    if (name in values) throw new Error(`stdin gives ${name} twice`);
    values[name] = line.slice(eq + 1);
  }
  return values;
}

/** Every secret of `specs`, each non-empty; rejects (naming names only) otherwise. */
export async function readSecrets(specs: readonly SecretSpec[], input: SecretInput, err: (text: string) => void): Promise<Record<string, string>> {
  let values: Record<string, string>;
  if (input.isTTY === true && typeof input.setRawMode === 'function') {
    values = {};
    for (const spec of specs) values[spec.name] = await readHidden(input, `  ${spec.name}${spec.description ? ` (${spec.description})` : ''}: `, err);
  } else {
    values = parseSecretLines(await readAll(input), specs);
  }
  const missing = specs.filter((s) => values[s.name] === undefined || values[s.name] === '').map((s) => s.name);
  if (missing.length > 0) throw new Error(`no value for ${missing.join(', ')}${input.isTTY === true ? '' : ' (give each as a NAME=value line on stdin)'}`);
  return values;
}
