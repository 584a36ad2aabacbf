// Instantiating mari's WebAssembly modules (their sources in wasm/, their bytes in the
// *-wasm.ts files scripts/build-wasm.mjs writes), one instance per thread.

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
}
const WASM = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The exports of the module whose bytes are `base64`, compiled and instantiated now. */
export function instantiateWasm<Exports>(base64: string, name: string): Exports {
  const compiled = new WASM.Module(Buffer.from(base64, "base64"));
  return new WASM.Instance(compiled, {
    env: {
      // The modules have no assertions (compiled with --noAssert); an abort would be a bug.
      abort: () => {
        throw new Error(`${name}: the WebAssembly module aborted`);
      },
    },
  }).exports as Exports;
}
