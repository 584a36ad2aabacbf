// AssemblyScript, compiled by scripts/build-wasm.mjs into src/io/line-ends-wasm.ts (the module's
// bytes, checked to be current by test/wasm-modules.test.ts).
//
// Where a block's lines end (src/io/line-ends.ts): the offset of every newline byte, found 16
// bytes at a time. The line readers asked Buffer.indexOf for each newline in turn, a call into
// Node's C++ per line.

const NEWLINE: i8 = 0x0a;

/**
 * Writes the offset (from `at`) of each newline among the `length` bytes at `at` to the i32 list
 * at `ends`, which has room for `room` of them: how many there are, or -1 when they do not fit.
 */
export function newlines(at: usize, length: i32, ends: usize, room: i32): i32 {
  const newline = i8x16.splat(NEWLINE);
  let count = 0;
  let i = 0;
  while (i + 16 <= length) {
    let bits = i8x16.bitmask(i8x16.eq(v128.load(at + <usize>i), newline));
    while (bits != 0) {
      if (count == room) return -1;
      store<i32>(ends + (<usize>count << 2), i + <i32>ctz(bits));
      count++;
      bits &= bits - 1;
    }
    i += 16;
  }
  for (; i < length; i++) {
    if (load<i8>(at + <usize>i) != NEWLINE) continue;
    if (count == room) return -1;
    store<i32>(ends + (<usize>count << 2), i);
    count++;
  }
  return count;
}

/** Where the memory free for the caller begins (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}
