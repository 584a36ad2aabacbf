// AssemblyScript, compiled by scripts/build-wasm.mjs into src/tasks/document/range-write-wasm.ts
// (the module's bytes, checked to be current by test/wasm-modules.test.ts).
//
// The run lines of a range of cases.jsonl (src/tasks/document/range-write.ts): every byte of them
// comes from JavaScript already rendered, as fragments this module copies (the case lines, the run
// keys' JSON, the judgment-and-reason parts, the coverage endings per numerator), except the line
// numbers and evidence IDs, which are non-negative 31-bit integers written here in decimal. So the
// bytes are those of range.ts's writer (test/document-eval/range-write.test.ts compares them).

import { COMMA, copyFragment, writeUint } from "./fragments";

/**
 * Writes a range's lines at `out`: case j's line (fragment j of `caseLines`), then its R run
 * lines in run order; returns the end. Cell t = j · R + r: its kept line's number `lines[t]`
 * (0: none), judgment `judgments[t]` and reason `reasons[t]` (the judgment fragment
 * judgmentTable[judgment · reasonCount + reason]), its evidence IDs ids[idFrom[t] … idTo[t]), and
 * its coverage's numerator `numerators[t]`, which picks the ending from case j's table
 * (tailTables[j]). Run r's key is fragment r of `runKeys`. `fixed`: `{"run":` then `,"line":`.
 */
export function writeRange(
  out: usize,
  caseCount: i32,
  runCount: i32,
  caseLines: usize,
  runKeys: usize,
  fixed: usize,
  judgmentTable: usize,
  reasonCount: i32,
  tailTables: usize,
  lines: usize,
  judgments: usize,
  reasons: usize,
  numerators: usize,
  idFrom: usize,
  idTo: usize,
  ids: usize,
): usize {
  for (let j = 0; j < caseCount; j++) {
    out = copyFragment(caseLines, j, out);
    const tails = <usize>load<i32>(tailTables + (<usize>j << 2));
    for (let r = 0; r < runCount; r++) {
      const t = <usize>(j * runCount + r);
      out = copyFragment(fixed, 0, out);
      out = copyFragment(runKeys, r, out);
      const line = load<i32>(lines + (t << 2));
      if (line != 0) {
        out = copyFragment(fixed, 1, out);
        out = writeUint(out, <u32>line);
      }
      out = copyFragment(judgmentTable, <i32>load<u8>(judgments + t) * reasonCount + <i32>load<u8>(reasons + t), out);
      const from = load<i32>(idFrom + (t << 2));
      const to = load<i32>(idTo + (t << 2));
      for (let e = from; e < to; e++) {
        if (e > from) store<u8>(out++, COMMA);
        out = writeUint(out, <u32>load<i32>(ids + (<usize>e << 2)));
      }
      out = copyFragment(tails, load<i32>(numerators + (t << 2)), out);
    }
  }
  return out;
}

/** Where the memory free for the caller begins (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}
