// AssemblyScript, compiled by scripts/build-wasm.mjs into src/core/metrics/bootstrap-sums-wasm.ts
// (the module's bytes, checked to be current by test/wasm-modules.test.ts).
//
// The bootstrap's resamples once their multinomial counts are drawn (src/core/metrics/bootstrap-sums.ts):
// each distinct run's tp and fp, the weighted sums of its "judged positive" indicators over the
// drawn gold-positive and gold-negative signature groups, then Σ runWeights[u] · macro-F1 over the
// runs in order, divided by the run count. Each group's indicators are one row of i32 lanes, each
// lane holding `perLane` counters of `bits` bits: a counter sums at most n < 2^bits draws, so
// adding w · row never carries from one counter into the next, and the integer sums are exact in
// any order. At 891 cases and 1,123 runs the rows take 1.3 MB (the float64 rows of subset sums
// took 10 MB, read from memory at every resample). The F1 arithmetic is binary.ts's macroF1,
// operation for operation, so every value has the bits of bootstrap.ts's unpacked loop
// (test/core/metrics/bootstrap-sums.test.ts).
//
// JavaScript calls setLayout, fills the codes column and calls packRows; then per resample copies
// the drawn counts and groups into their columns and calls resample.

let groups: i32 = 0;
let runs: i32 = 0;
let cases: f64 = 0;
let runTotal: f64 = 0;
let bits: i32 = 0;
let perLane: i32 = 0;
/** Bytes of a row (a multiple of 16). */
let rowBytes: i32 = 0;
/** u8 per (distinct run, group), run-major: outcome codes (bit 0: judged positive). */
let codes: usize = 0;
/** u8 per group: gold label. */
let labels: usize = 0;
/** f64 per distinct run: how many runs it stands for. */
let runWeights: usize = 0;
/** Rows of i32 lanes per group; the two accumulators (one row each). */
let rows: usize = 0;
let accPositive: usize = 0;
let accNegative: usize = 0;
/** f64 per group: the resample's counts (valid at the drawn groups); i32: the drawn groups. */
let counts: usize = 0;
let drawn: usize = 0;
/** f64 per resample: the values. */
let values: usize = 0;
/** i32 pairs per group: a resample's drawn rows and counts. */
let list: usize = 0;

export function setLayout(
  groupCount: i32,
  runCount: i32,
  caseCount: f64,
  totalRuns: f64,
  counterBits: i32,
  rowLaneBytes: i32,
  codeColumn: usize,
  labelColumn: usize,
  weightColumn: usize,
  rowColumn: usize,
  accColumn: usize,
  countColumn: usize,
  drawnColumn: usize,
  valueColumn: usize,
  listColumn: usize,
): void {
  groups = groupCount;
  runs = runCount;
  cases = caseCount;
  runTotal = totalRuns;
  bits = counterBits;
  perLane = 32 / counterBits;
  rowBytes = rowLaneBytes;
  codes = codeColumn;
  labels = labelColumn;
  runWeights = weightColumn;
  rows = rowColumn;
  accPositive = accColumn;
  accNegative = accColumn + rowLaneBytes;
  counts = countColumn;
  drawn = drawnColumn;
  values = valueColumn;
  list = listColumn;
}

/** Packs the codes' judged-positive bits into the rows (zero on entry: a fresh memory). */
export function packRows(): void {
  for (let u = 0; u < runs; u++) {
    const lane = <usize>(u / perLane) << 2;
    const shift = bits * (u % perLane);
    const from = codes + <usize>u * groups;
    for (let g = 0; g < groups; g++) {
      const at = rows + <usize>g * rowBytes + lane;
      store<u32>(at, load<u32>(at) | ((<u32>load<u8>(from + g) & 1) << shift));
    }
  }
}

/** binary.ts's f1. */
@inline function f1(precision: f64, recall: f64): f64 {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

/** binary.ts's macroF1 (its max(1, ·) of non-negative integers, which no NaN or −0 reaches). */
@inline function macroF1(tp: f64, fp: f64, fn: f64, tn: f64): f64 {
  const posF1 = f1(tp / max<f64>(1, tp + fp), tp / max<f64>(1, tp + fn));
  const negF1 = f1(tn / max<f64>(1, tn + fn), tn / max<f64>(1, tn + fp));
  return (posF1 + negF1) / 2;
}

/** acc += Σ w · row over the (row, w) pairs from `from` to `to`, four rows per pass over acc (its loads and stores are a cost). */
@inline function addRows(acc: usize, from: usize, to: usize): void {
  let at = from;
  for (; at + 32 <= to; at += 32) {
    const r0 = <usize>load<i32>(at);
    const r1 = <usize>load<i32>(at, 8);
    const r2 = <usize>load<i32>(at, 16);
    const r3 = <usize>load<i32>(at, 24);
    const w0 = i32x4.splat(load<i32>(at, 4));
    const w1 = i32x4.splat(load<i32>(at, 12));
    const w2 = i32x4.splat(load<i32>(at, 20));
    const w3 = i32x4.splat(load<i32>(at, 28));
    for (let q: usize = 0; q < <usize>rowBytes; q += 16) {
      const a = i32x4.add(i32x4.mul(v128.load(r0 + q), w0), i32x4.mul(v128.load(r1 + q), w1));
      const b = i32x4.add(i32x4.mul(v128.load(r2 + q), w2), i32x4.mul(v128.load(r3 + q), w3));
      v128.store(acc + q, i32x4.add(v128.load(acc + q), i32x4.add(a, b)));
    }
  }
  for (; at < to; at += 8) {
    const row = <usize>load<i32>(at);
    const w = i32x4.splat(load<i32>(at, 4));
    for (let q: usize = 0; q < <usize>rowBytes; q += 16) v128.store(acc + q, i32x4.add(v128.load(acc + q), i32x4.mul(v128.load(row + q), w)));
  }
}

/** Resample `index`'s value from the `distinct` drawn groups listed in the columns. */
export function resample(distinct: i32, index: i32): void {
  for (let q: usize = 0; q < <usize>rowBytes; q += 16) {
    v128.store(accPositive + q, i32x4.splat(0));
    v128.store(accNegative + q, i32x4.splat(0));
  }
  // The drawn groups' rows and counts, gold positives from the front of the list, negatives from its back.
  let positives: i32 = 0;
  let front: usize = list;
  let back: usize = list + (<usize>groups << 3);
  for (let k = 0; k < distinct; k++) {
    const g = load<i32>(drawn + (<usize>k << 2));
    // A count is at most n < 2^31.
    const w = <i32>load<f64>(counts + (<usize>g << 3));
    const row = <i32>(rows + <usize>g * rowBytes);
    if (load<u8>(labels + g) != 0) {
      positives += w;
      store<i32>(front, row);
      store<i32>(front, w, 4);
      front += 8;
    } else {
      back -= 8;
      store<i32>(back, row);
      store<i32>(back, w, 4);
    }
  }
  addRows(accPositive, list, front);
  addRows(accNegative, back, list + (<usize>groups << 3));
  const p = <f64>positives;
  const mask: u32 = (1 << bits) - 1;
  let total: f64 = 0;
  for (let u = 0, lane = 0; u < runs; lane++) {
    const x = load<u32>(accPositive + (<usize>lane << 2));
    const y = load<u32>(accNegative + (<usize>lane << 2));
    for (let j = 0, last = min(runs, u + perLane); u < last; u++, j += bits) {
      const tp = <f64>((x >>> j) & mask);
      const fp = <f64>((y >>> j) & mask);
      total += load<f64>(runWeights + (<usize>u << 3)) * macroF1(tp, fp, p - tp, cases - p - fp);
    }
  }
  store<f64>(values + (<usize>index << 3), total / runTotal);
}

/** Where the module's own data ends (the caller's columns start at WASM_OWN_BYTES). */
export function heapBase(): usize {
  return __heap_base;
}
