// `roots` (top level and per client profile): the folders the gateway names when a server asks
// roots/list and no client can answer for itself (router/server-request-relay.ts). Each entry is a
// file: URI or a path (relative to the config file's folder); normalize makes them file: URIs.

import { basename, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

export const rootsSchema = z
  .array(
    z
      .string()
      .min(1)
      .refine((v) => !SCHEME.test(v) || /^file:\/\//i.test(v), { error: 'must be a file:// URI or a path (roots are folders)' }),
  )
  .meta({
    description:
      'Folders (file:// URIs, or paths relative to this file) given to a server that asks roots/list when no client can answer: at start-up, outside any client request, or for a client that declared no roots.',
  });

/** A root as MCP sends it: a file URI and a name (the folder's). */
export interface Root {
  uri: string;
  name: string;
}

/** The entries as roots: paths resolved against the config's folder, every one a file: URI. */
export function toRoots(entries: readonly string[], baseDir: string): Root[] {
  return entries.map((entry) => {
    const uri = SCHEME.test(entry) ? entry : pathToFileURL(resolve(baseDir, entry)).href;
    let name: string;
    try {
      name = basename(fileURLToPath(uri)) || uri;
    } catch {
      name = uri;
    }
    return { uri, name };
  });
}
