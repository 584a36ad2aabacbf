// The bootstrap's resample values in WebAssembly (its source wasm/bootstrap-sums.ts, its bytes
// bootstrap-sums-wasm.ts): per resample, the drawn signature groups' "judged positive" rows added
// times their counts as 32-bit lanes of packed counters, and the macro-F1s summed over the
// distinct runs as bootstrap.ts's unpacked loop sums them. The JavaScript it replaces added
// float64 subset sums of a 10 MB table per resample, about a tenth of a second of the 1M-line
// bench's main thread. The values are the unpacked loop's to the bit
// (test/core/metrics/bootstrap-sums.test.ts).
import { instantiateSized, WASM_OWN_BYTES } from "../wasm.js";
import { BOOTSTRAP_SUMS_WASM } from "./bootstrap-sums-wasm.js";
import { MultinomialDraws } from "./multinomial-draws.js";

interface BootstrapSumsExports {
  heapBase(): number;
  setLayout(
    groups: number,
    runs: number,
    cases: number,
    totalRuns: number,
    bits: number,
    rowBytes: number,
    codes: number,
    labels: number,
    runWeights: number,
    rows: number,
    acc: number,
    counts: number,
    drawn: number,
    values: number,
    list: number,
  ): void;
  packRows(): void;
  resample(distinct: number, index: number): void;
}

/**
 * Runs with the same outcome on every case have the same macro-F1 in every resample: they are
 * kept once, as a distinct run u with `runWeights[u]` copies (in order of their first run). Cases
 * are then grouped by outcome signature (gold label and every distinct run's outcome): group g has
 * `sizes[g]` cases, gold label `labels[g]` and outcome codes `codes[u · groups + g]`. Groups are
 * numbered in order of their first case, so the table depends only on the outcomes.
 */
export interface SignatureTable {
  groups: number;
  sizes: Float64Array;
  labels: Uint8Array;
  /** Distinct runs. */
  runs: number;
  runWeights: Float64Array;
  codes: Uint8Array;
}

/** Counter bits the 32-bit lanes allow: a counter holds up to n, so n < 2^31 (beyond it, bootstrap.ts's unpacked loop). */
export const MOST_COUNTER_BITS = 31;

/**
 * The values of resamples b = from … to − 1 of the table's n cases and R runs, with counters of
 * `bits` bits (2^bits > n, bits ≤ MOST_COUNTER_BITS).
 */
export function bootstrapSumsValues(table: SignatureTable, n: number, R: number, bits: number, seed: number, from: number, to: number): Float64Array {
  const { groups: G, runs: U } = table;
  const perLane = Math.floor(32 / bits);
  const rowBytes = 16 * Math.ceil(Math.ceil(U / perLane) / 4);
  // The 16-byte aligned rows and accumulators first, then the f64 columns, then i32 and u8 ones.
  const rowsAt = WASM_OWN_BYTES;
  const accAt = rowsAt + G * rowBytes;
  const countsAt = accAt + 2 * rowBytes;
  const weightsAt = countsAt + 8 * G;
  const valuesAt = weightsAt + 8 * U;
  const listAt = valuesAt + 8 * (to - from);
  const drawnAt = listAt + 8 * G;
  const labelsAt = drawnAt + 4 * G;
  const codesAt = labelsAt + G;
  const end = codesAt + U * G;
  const { exports, buffer } = instantiateSized<BootstrapSumsExports>(BOOTSTRAP_SUMS_WASM, "bootstrap-sums", end - WASM_OWN_BYTES);
  exports.setLayout(G, U, n, R, bits, rowBytes, codesAt, labelsAt, weightsAt, rowsAt, accAt, countsAt, drawnAt, valuesAt, listAt);
  new Uint8Array(buffer, codesAt, U * G).set(table.codes);
  new Uint8Array(buffer, labelsAt, G).set(table.labels);
  new Float64Array(buffer, weightsAt, U).set(table.runWeights);
  exports.packRows();
  const draws = new MultinomialDraws(table.sizes);
  const counts = new Float64Array(buffer, countsAt, G);
  const drawn = new Int32Array(buffer, drawnAt, G);
  // One call per resample: V8 swaps in the optimized code of a wasm function on a later call.
  for (let b = from; b < to; b++) {
    const distinct = draws.draw(seed, b, n);
    counts.set(draws.counts);
    drawn.set(draws.drawn.subarray(0, distinct));
    exports.resample(distinct, b - from);
  }
  return new Float64Array(buffer, valuesAt, to - from).slice();
}
