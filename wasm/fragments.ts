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
