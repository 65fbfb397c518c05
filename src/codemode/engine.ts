// The JavaScript engine of code mode: QuickJS compiled to WebAssembly (quickjs-emscripten, its
// release "sync" variant), loaded on first use only. Each run gets its own WebAssembly instance
// with its own linear memory, capped at the run's memory limit: the prebuilt engine's own limit
// (setMemoryLimit) bounds single allocations only, not their total, so the cap is the real bound.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';

// This project's lib has no DOM and @types/node 20 declares no WebAssembly: the part used here.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const VARIANT = '@jitl/quickjs-wasmfile-release-sync';
const PAGE = 64 * 1024;
/** The engine declares 16 MiB of initial memory (stack, static data, first heap). */
const INITIAL_PAGES = 256;

interface Loaded {
  core: typeof import('quickjs-emscripten-core');
  variant: QuickJSSyncVariant;
  compiled: object;
}

let loading: Promise<Loaded> | undefined;

/** Compiles the engine once per process (~10-30 ms); later calls share the compiled module. */
function load(): Promise<Loaded> {
  if (loading) return loading;
  const pending = (async (): Promise<Loaded> => {
    const [core, variantModule] = await Promise.all([import('quickjs-emscripten-core'), import('@jitl/quickjs-wasmfile-release-sync')]);
    // Compiled here once, then instantiated per run: the variant's own loader would read and
    // compile the file for every instance.
    const wasmPath = createRequire(import.meta.url).resolve(`${VARIANT}/wasm`);
    const compiled = await compileEagerly(await readFile(wasmPath));
    // The package's ESM entry exports the variant as default; through CommonJS interop it is one level down.
    const exported = variantModule.default as unknown as QuickJSSyncVariant | { default: QuickJSSyncVariant };
    const variant = 'importFFI' in exported ? exported : exported.default;
    return { core, variant, compiled };
  })();
  loading = pending;
  pending.catch(() => {
    loading = undefined;
  });
  return pending;
}

export interface EngineInstance {
  module: QuickJSWASMModule;
  /** The instance's linear memory: its size is the run's memory high-water mark. */
  memory: WasmMemory;
}

/**
 * A fresh engine instance whose whole linear memory may not grow past `memoryBytes`. Nothing is
 * shared with other runs, and everything is freed with the instance (no dispose needed for
 * safety; a trap inside one instance poisons that instance only).
 */
export async function newEngineInstance(memoryBytes: number): Promise<EngineInstance> {
  const { core, variant, compiled } = await load();
  const maximum = Math.max(INITIAL_PAGES + 1, Math.ceil(memoryBytes / PAGE));
  const memory = new wasm.Memory({ initial: INITIAL_PAGES, maximum });
  const options = { wasmModule: compiled, wasmMemory: memory, emscriptenModule: { print: noPrint } };
  // print: stdout is the protocol in stdio mode; the engine never writes there.
  const module = await core.newQuickJSWASMModuleFromVariant(core.newVariant(variant, options as Parameters<typeof core.newVariant>[1]));
  return { module, memory };
}

function noPrint(): void {}

/** Whoever started node chose its WebAssembly compilation: then it is left as chosen. */
const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('wasm-lazy-compilation'));

/**
 * V8 compiles WebAssembly lazily by default: each function on its first call, on the calling
 * thread. The engine's first runs in a process then spent 60-200 ms compiling inside their slices
 * (over sliceMs on a loaded machine, and the event loop stalled meanwhile). Compiled eagerly, the
 * whole module is compiled by compile() on V8's background threads (the loop stalled < 10 ms).
 */
async function compileEagerly(bytes: Uint8Array): Promise<object> {
  if (chosen) return wasm.compile(bytes);
  setFlagsFromString('--no-wasm-lazy-compilation');
  try {
    return await wasm.compile(bytes);
  } finally {
    setFlagsFromString('--wasm-lazy-compilation');
  }
}

/** Loads and compiles the engine ahead of the first run (e.g. when code mode is configured). */
export async function warmEngine(): Promise<void> {
  await load();
}
