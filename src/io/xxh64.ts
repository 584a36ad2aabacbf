// XXH64 (seed 0) of bytes fed in order, for the checks that pair files mari writes (a report and
// its cases.jsonl, a compiled slice's header and body): no security boundary, so a fast hash does.
// The xxhash-wasm package compiles a small WebAssembly module, loaded on first use, once per process.
import type { XXHashAPI } from "xxhash-wasm";

let api: Promise<XXHashAPI> | undefined;

/** The package, ready: await it once, then `xxh64With` hashes synchronously. */
export function xxh64Api(): Promise<XXHashAPI> {
  api ??= import("xxhash-wasm").then((m) => m.default());
  return api;
}

export interface Xxh64 {
  update(bytes: Uint8Array): void;
  /** 16 lowercase hex digits. */
  digest(): string;
}

/**
 * Bytes given to the package at once: it copies them, after its state, into its WebAssembly
 * memory (one page of 64 KiB), which would grow to the largest piece. Growing detaches the memory's
 * old ArrayBuffer, and V8 then throws away every optimized function of the process that reads a
 * typed array and checks each typed array access for a detached buffer from then on
 * (src/core/wasm.ts). Pieces that fit the page leave it as it is.
 */
const PIECE_BYTES = 1 << 15;

/** A hashing with the package loaded. */
export function xxh64With(loaded: XXHashAPI): Xxh64 {
  const state = loaded.create64(0n);
  return {
    update(bytes) {
      for (let at = 0; at < bytes.length; at += PIECE_BYTES) state.update(bytes.subarray(at, at + PIECE_BYTES));
    },
    digest: () => state.digest().toString(16).padStart(16, "0"),
  };
}

/** A hashing, the package loaded first. */
export async function xxh64Hasher(): Promise<Xxh64> {
  return xxh64With(await xxh64Api());
}
