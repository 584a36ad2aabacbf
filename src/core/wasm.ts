// Instantiating mari's WebAssembly modules (their sources in wasm/, their bytes in the
// *-wasm.ts files scripts/build-wasm.mjs writes): one instance per thread, or per use for a module
// that imports a memory sized for it (each compiled once per thread).

/** A module's memory, as the part of the WebAssembly API used here sees it. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** A shared WebAssembly memory: its buffer is a SharedArrayBuffer, which growing does not detach. */
interface SharedWasmMemory {
  readonly buffer: SharedArrayBuffer;
  grow(pages: number): number;
}

/** Bytes in a page of WebAssembly memory. */
export const WASM_PAGE_BYTES = 65536;

// Node's own global; its type is not in this project's libraries.
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
  Memory: new <Shared extends boolean = false>(descriptor: {
    initial: number;
    maximum?: number;
    shared?: Shared;
  }) => Shared extends true ? SharedWasmMemory : WasmMemory;
}
const WASM = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** A new WebAssembly memory of `pages` pages, for a module that imports its memory. */
export function wasmMemory(pages: number): WasmMemory {
  return new WASM.Memory({ initial: pages, maximum: pages });
}

/** What a module imports beside `abort`: its memory, when it imports one, and JavaScript functions by name. */
export interface WasmImports {
  memory?: WasmMemory;
  functions?: Record<string, (...args: number[]) => number>;
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
  functions?: WasmImports["functions"],
): SizedWasm<Exports> {
  const memory = wasmMemory(Math.ceil((WASM_OWN_BYTES + bytes) / WASM_PAGE_BYTES));
  const exports = instantiateWasm<Exports>(base64, name, functions === undefined ? { memory } : { memory, functions });
  if (exports.heapBase() > WASM_OWN_BYTES) throw new Error(`${name}: the module's own data outgrew its room`);
  return { exports, buffer: memory.buffer };
}

/**
 * Columns laid out one after another in a shared WebAssembly memory that grows as they are claimed:
 * a module instantiated on it (`instantiateOn`) reads them where they are, not a copy. A claim never
 * moves (a column that grows is claimed again and copied), and the first WASM_OWN_BYTES are left
 * for the module's own data. Shared, because V8 counts the bytes of a memory that is not shared,
 * like an ArrayBuffer's, as external memory, and a run that has allocated enough of it since the
 * last full garbage collection starts another; columns that live as long as their run free nothing
 * in it (`node --trace-gc --trace-gc-verbose`: "external memory pressure").
 */
export class WasmArena {
  readonly #memory: SharedWasmMemory;
  /** The memory's buffers so far (a new one after each growth; the older stay valid). */
  readonly #buffers = new WeakSet<object>();
  readonly #mostBytes: number;
  #end = WASM_OWN_BYTES;

  private constructor(memory: SharedWasmMemory, mostBytes: number) {
    this.#memory = memory;
    this.#mostBytes = mostBytes;
    this.#buffers.add(memory.buffer);
  }

  /** An arena that can hold up to `mostBytes` in all (its address space reserved now, its pages made when claimed); undefined when it cannot be had. */
  static create(mostBytes: number): WasmArena | undefined {
    try {
      return new WasmArena(new WASM.Memory({ initial: 1, maximum: Math.ceil(mostBytes / WASM_PAGE_BYTES), shared: true }), mostBytes);
    } catch {
      return undefined;
    }
  }

  /** Where the next claim starts. */
  get end(): number {
    return this.#end;
  }

  /** The memory's buffer as it is now (every claim made so far within it). */
  get buffer(): SharedArrayBuffer {
    return this.#memory.buffer;
  }

  /** The memory, for a module instantiated on it. */
  get memory(): WasmMemory {
    return this.#memory as unknown as WasmMemory;
  }

  /** `bytes` more at an 8-byte aligned offset, zeroed (never claimed before); undefined past the arena's most. */
  claim(bytes: number): number | undefined {
    const at = (this.#end + 7) & ~7;
    const end = at + bytes;
    if (end > this.#mostBytes) return undefined;
    const have = this.#memory.buffer.byteLength;
    if (end > have) {
      try {
        this.#memory.grow(Math.ceil((end - have) / WASM_PAGE_BYTES));
      } catch {
        return undefined;
      }
      this.#buffers.add(this.#memory.buffer);
    }
    this.#end = end;
    return at;
  }

  /** Whether `view` lies in this arena's memory. */
  holds(view: ArrayBufferView): boolean {
    return this.#buffers.has(view.buffer);
  }
}

/**
 * The module whose bytes are `base64` (it imports a shared memory and exports `heapBase`) on the
 * arena's memory. Throws when the module's own data outgrew its room.
 */
export function instantiateOn<Exports extends { heapBase(): number }>(base64: string, name: string, arena: WasmArena): Exports {
  const exports = instantiateWasm<Exports>(base64, name, { memory: arena.memory });
  if (exports.heapBase() > WASM_OWN_BYTES) throw new Error(`${name}: the module's own data outgrew its room`);
  return exports;
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
