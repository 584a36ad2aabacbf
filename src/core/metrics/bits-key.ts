// A Map key for a row of bits (a run's judgments over cases, a case's over runs): equal for equal
// rows only. Up to 53 bits it is the number they spell (exact in a float64; no string per row,
// which at a million runs was a second of the bootstrap), else 16 bits per UTF-16 code unit.

/** The key of `count` bits, bit k being `bit(k)` ∈ {0, 1}. */
export function bitsKey(count: number, bit: (k: number) => number): number | string {
  if (count <= 53) {
    let key = 0;
    for (let k = 0, scale = 1; k < count; k++, scale *= 2) if (bit(k)) key += scale;
    return key;
  }
  const units = new Uint16Array(Math.ceil(count / 16));
  for (let k = 0; k < count; k++) if (bit(k)) units[k >> 4]! |= 1 << (k & 15);
  return unitsKey(units, 0, units.length);
}

/**
 * bitsKey of the low bits of each of `rows` rows of `count` bytes (row r is bytes[r · count …
 * (r + 1) · count)), without a call per bit. One call for all rows, each long row's bits packed by
 * a loop with nothing after it: V8 compiled the loop of a call per row on the fly and then left
 * that code after it, once per row.
 */
export function lowBitsKeys(bytes: Uint8Array, count: number, rows: number): (number | string)[] {
  const keys: (number | string)[] = [];
  if (count <= 53) {
    for (let r = 0; r < rows; r++) keys.push(bitsKey(count, (k) => bytes[r * count + k]! & 1));
    return keys;
  }
  const width = Math.ceil(count / 16);
  const units = new Uint16Array(width);
  for (let r = 0; r < rows; r++) {
    units.fill(0);
    packLowBits(bytes, r * count, count, units);
    keys.push(unitsKey(units, 0, width));
  }
  return keys;
}

/** ORs the low bits of bytes[from … from + count) into `units`, 16 to a unit. */
function packLowBits(bytes: Uint8Array, from: number, count: number, units: Uint16Array): void {
  for (let k = 0; k < count; k++) units[k >> 4]! |= (bytes[from + k]! & 1) << (k & 15);
}

/** The key of a row of bits held as 16-bit units, units[from … to): one UTF-16 code unit each (equal for equal rows only). */
export function unitsKey(units: Uint16Array, from: number, to: number): string {
  let key = "";
  // apply takes the typed array as it is; a spread walked it through the iterator protocol.
  for (let u = from; u < to; u += 4096) key += String.fromCharCode.apply(null, units.subarray(u, Math.min(to, u + 4096)) as unknown as number[]);
  return key;
}
