// Instantiating mari's WebAssembly modules (their sources in wasm/, their bytes in the
// *-wasm.ts files scripts/build-wasm.mjs writes): one instance per thread, or per use for a module
// that imports a memory sized for it (each compiled once per thread).

/** A module's memory, as the part of the WebAssembly API used here sees it. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** Bytes in a page of WebAssembly memory. */
export const WASM_PAGE_BYTES = 65536;

// Node's own global; its type is not in this project's libraries.
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
  Memory: new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
}
const WASM = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/**
 * A new WebAssembly memory of `pages` pages, for a module that imports its memory; `shared` for a
 * module that declares it shared (scripts/build-wasm.mjs, SHARED_MEMORY_OPTIONS).
 */
export function wasmMemory(pages: number, shared = false): WasmMemory {
  return new WASM.Memory({ initial: pages, maximum: pages, shared });
}

/** What a module imports beside `abort`: its memory, when it imports one, and JavaScript functions by name. */
export interface WasmImports {
  memory?: WasmMemory;
  functions?: Record<string, (...args: number[]) => number>;
}

/**
 * How instantiateSized makes a module's memory: `shared` for a module compiled to import a shared
 * one. V8 counts the bytes of a memory that is not shared, like an ArrayBuffer's, as external
 * memory, and a run that has allocated enough of it since the last full garbage collection starts
 * another; a shared memory's bytes it does not count. A memory that lives until its run ends frees
 * nothing in such a collection.
 */
export interface SizedOptions {
  functions?: WasmImports["functions"];
  shared?: boolean;
}

/** Bytes kept at the start of a memory a module imports for its own data: the caller's columns come after. */
export const WASM_OWN_BYTES = 1 << 16;

/** A module instantiated with a memory of its own (instantiateSized), the caller's bytes from WASM_OWN_BYTES on. */
export interface SizedWasm<Exports> {
  exports: Exports;
  buffer: ArrayBuffer;
}

/**
 * The module whose bytes are `base64` (it imports its memory and exports `heapBase`), with a
 * memory of WASM_OWN_BYTES and `bytes` more, which never grows: growing would detach the buffer,
 * and a detached buffer makes V8 check every typed array access of the process. Throws when the
 * memory cannot be had, or when the module's own data outgrew its room.
 */
export function instantiateSized<Exports extends { heapBase(): number }>(
  base64: string,
  name: string,
  bytes: number,
  { functions, shared = false }: SizedOptions = {},
): SizedWasm<Exports> {
  const memory = wasmMemory(Math.ceil((WASM_OWN_BYTES + bytes) / WASM_PAGE_BYTES), shared);
  const exports = instantiateWasm<Exports>(base64, name, functions === undefined ? { memory } : { memory, functions });
  if (exports.heapBase() > WASM_OWN_BYTES) throw new Error(`${name}: the module's own data outgrew its room`);
  return { exports, buffer: memory.buffer };
}

/** Each module compiled on this thread, by its bytes in base64. */
const compiledModules = new Map<string, object>();

/** The exports of the module whose bytes are `base64`, instantiated now with `imports` (compiled at its first use on this thread). */
export function instantiateWasm<Exports>(base64: string, name: string, imports: WasmImports = {}): Exports {
  let compiled = compiledModules.get(base64);
  if (compiled === undefined) compiledModules.set(base64, (compiled = new WASM.Module(Buffer.from(base64, "base64"))));
  return new WASM.Instance(compiled, {
    env: {
      ...imports.functions,
      ...(imports.memory === undefined ? {} : { memory: imports.memory }),
      // The modules have no assertions (compiled with --noAssert); an abort would be a bug.
      abort: () => {
        throw new Error(`${name}: the WebAssembly module aborted`);
      },
    },
  }).exports as Exports;
}
