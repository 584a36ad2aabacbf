// AssemblyScript shared by the modules of wasm/ that write cases.jsonl bytes (range-write.ts,
// range-pass.ts): fragments copied from a table, and decimal integers.

// A fragment table: two i32 per entry, its bytes' start (in memory) and length.
@inline export function copyFragment(table: usize, entry: i32, out: usize): usize {
  const at = table + (<usize>entry << 3);
  const start = <usize>load<i32>(at);
  const length = <usize>load<i32>(at + 4);
  memory.copy(out, start, length);
  return out + length;
}

/** Bytes past a fragment's end that copyFragmentWide may read and write. */
export const WIDE_SLACK: usize = 8;

/**
 * copyFragment eight bytes at a time: it writes up to WIDE_SLACK − 1 bytes past the fragment's
 * end (and reads as far past its source), which the caller leaves room for and writes over next.
 * memory.copy is a call per fragment: most of a line's time at five or six short fragments a line.
 */
@inline export function copyFragmentWide(table: usize, entry: i32, out: usize): usize {
  const at = table + (<usize>entry << 3);
  const start = <usize>load<i32>(at);
  const length = <usize>load<i32>(at + 4);
  for (let k: usize = 0; k < length; k += 8) store<u64>(out + k, load<u64>(start + k));
  return out + length;
}

/** The length of fragment `entry` of `table`. */
@inline export function fragmentLength(table: usize, entry: i32): usize {
  return <usize>load<i32>(table + (<usize>entry << 3) + 4);
}

/** Digits of a non-negative 31-bit integer. */
@inline export function digitCount(value: u32): u32 {
  if (value < 100000) return value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : value < 10000 ? 4 : 5;
  return value < 1000000 ? 6 : value < 10000000 ? 7 : value < 100000000 ? 8 : value < 1000000000 ? 9 : 10;
}

/** Writes a non-negative 31-bit integer in decimal at `out`: the end. */
@inline export function writeUint(out: usize, value: u32): usize {
  const end = out + <usize>digitCount(value);
  let at = end;
  do {
    const q = value / 10;
    store<u8>(--at, <u8>(0x30 + value - q * 10));
    value = q;
  } while (value != 0);
  return end;
}

/** The comma between evidence IDs. */
export const COMMA: u8 = 0x2c;

/** Bytes a decimal 31-bit integer and its comma take at most. */
export const UINT_BYTES: usize = 11;
