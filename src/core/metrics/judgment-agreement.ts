// SetCons's judgment agreement over run pairs in WebAssembly (its source
// wasm/judgment-agreement.ts, its bytes judgment-agreement-wasm.ts): runs packed 64 cases to a
// word from their byte columns, 16 at a time, and one popcount a word and pair. The JavaScript it
// replaces (bitsets of 32 cases a word, and subset sums of packed rows for runs sharing their
// cases) took about 55 ms of the 1M-line bench's main thread, with V8 compiling its loops on other
// threads besides. The mean is the pairwise loop's to the bit: the same fractions, added in the
// same order (test/document-eval/setcons.test.ts).
import { instantiateSized, WASM_OWN_BYTES } from "../wasm.js";
import { JUDGMENT_AGREEMENT_WASM } from "./judgment-agreement-wasm.js";
import type { JudgmentColumns } from "./run-agreement.js";

interface JudgmentAgreementExports {
  heapBase(): number;
  setLayout(
    runs: number,
    cases: number,
    present: number,
    judgment: number,
    any: number,
    pos: number,
    counts: number,
    classes: number,
    hashes: number,
    firsts: number,
  ): void;
  packRuns(first: number, count: number): void;
  addPairsOf(run: number): void;
  mean(): number;
  pairsUsed(): number;
}

/** Bytes of one byte column copied per batch of runs, at most (a batch holds at least one run). */
const BATCH_BYTES = 1 << 20;

/** Mean over run pairs (r < s) of the agreement fraction over cases present in both, over pairs with such a case. */
export function pairwiseAgreement(c: JudgmentColumns): { mean: number; pairsUsed: number } {
  const { runs: R, cases: n } = c;
  if (R < 2 || n === 0) return { mean: 0, pairsUsed: 0 };
  const words = Math.ceil(n / 64);
  const batch = Math.max(1, Math.min(R, Math.floor(BATCH_BYTES / n)));
  // The u64 columns first (aligned), then the i32 ones, then the byte columns, each read 16 bytes
  // at a time up to 15 bytes past its end.
  const anyAt = WASM_OWN_BYTES;
  const posAt = anyAt + 8 * R * words;
  const hashesAt = posAt + 8 * R * words;
  const countsAt = hashesAt + 8 * R;
  const classesAt = countsAt + 4 * R;
  const firstsAt = classesAt + 4 * R;
  const presentAt = firstsAt + 4 * R;
  const judgmentAt = presentAt + batch * n + 16;
  const end = judgmentAt + batch * n + 16;
  const { exports, buffer } = instantiateSized<JudgmentAgreementExports>(JUDGMENT_AGREEMENT_WASM, "judgment-agreement", end - WASM_OWN_BYTES);
  exports.setLayout(R, n, presentAt, judgmentAt, anyAt, posAt, countsAt, classesAt, hashesAt, firstsAt);
  const present = new Uint8Array(buffer, presentAt, batch * n);
  const judgment = new Uint8Array(buffer, judgmentAt, batch * n);
  for (let r0 = 0; r0 < R; r0 += batch) {
    const r1 = Math.min(R, r0 + batch);
    present.set(c.present.subarray(r0 * n, r1 * n));
    judgment.set(c.judgment.subarray(r0 * n, r1 * n));
    exports.packRuns(r0, r1 - r0);
  }
  for (let r = 0; r + 1 < R; r++) exports.addPairsOf(r);
  return { mean: exports.mean(), pairsUsed: exports.pairsUsed() };
}
