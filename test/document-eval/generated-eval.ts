// A generated slice and run table, aggregated in process: the fixtures of the tests
// that hold two paths of the document aggregation (dense and sparse, the WebAssembly pass and
// range.ts's ranges) to the same numbers and bytes.
import type { WasmArena } from "../../src/core/wasm.js";
import { readDocumentSlice, type DocumentSlice } from "../../src/io/slice.js";
import { createChunkPool } from "../../src/pool/pool.js";
import { aggregateDocumentEval, type Aggregate, type AggregateOptions } from "../../src/tasks/document/aggregate.js";
import type { DocumentTaskPayload, DocumentTaskResult } from "../../src/tasks/document/range.js";
import { RunTable } from "../../src/tasks/document/run-table.js";
import { scoreCase, scoreInit, type ScoreOptions, type ScoreState } from "../../src/tasks/document/score.js";
import { DOCUMENT_TASK_MODULE } from "../../src/tasks/document/task-module.js";
import { lcg } from "../support/lcg.js";
import { writeJsonl } from "./helpers.js";

export const OPTIONS: ScoreOptions = { lenientIds: false };

/** `cases` cases of 1–12 sentences: positives and negatives, facets on some, two contra_types on others, a field on others, ids that need escapes. */
export async function generatedSlice(dir: string, cases: number, seed: number): Promise<DocumentSlice> {
  const rand = lcg(seed);
  const rows = Array.from({ length: cases }, (_, i) => {
    const sentences = Array.from({ length: 1 + rand(12) }, (_, s) => `Case ${i} sentence ${s}.`);
    const label = rand(3) !== 0;
    return {
      id: i % 5 === 2 ? `c"${i}\u00e9` : `c${i}`,
      sentences,
      label,
      ...(label ? { gold_sentence_ids: [1 + rand(sentences.length)] } : {}),
      ...(i % 4 !== 0 ? { scope: i % 2 ? "local" : "global", doc_type: i % 5 ? "news" : "story" } : {}),
      ...(i % 7 === 1 ? { contra_type: ["negation", "numeric"] } : {}),
      ...(i % 9 === 3 ? { note: "kept" } : {}),
    };
  });
  return readDocumentSlice(writeJsonl(dir, `slice-${cases}-${seed}.jsonl`, rows), {});
}

/**
 * `runs` runs (keys `runKey(r)`), each (case, run) kept with probability `share`: right, wrong,
 * format-invalid and reference-less answers, with fractional coverages; the columns in `arena` when
 * given (as an eval's dump pass makes them).
 */
export function generatedRunTable(
  s: DocumentSlice,
  runs: number,
  share: number,
  seed: number,
  runKey: (r: number) => string = String,
  arena?: WasmArena,
): RunTable {
  const rand = lcg(seed);
  const t = new RunTable(s.cases.length, arena);
  let line = 0;
  for (let r = 0; r < runs; r++) {
    const run = t.ensureRun(runKey(r));
    for (const c of s.cases) {
      line++;
      if (rand(1000) >= share * 1000) continue;
      const n = c.sentences.length;
      const judgment = rand(10) < 7 ? c.label : !c.label;
      const evidence = judgment ? Array.from({ length: rand(4) }, () => 1 + rand(n)) : [];
      const record =
        rand(15) === 0
          ? { case_id: c.id, run: r, judgment: "maybe" }
          : {
              case_id: c.id,
              run: r,
              judgment,
              evidence_sentence_ids: [...new Set(evidence)],
              reasoning: rand(6) === 0 ? "No reference." : `See [${1 + rand(n)}]${rand(2) ? ` and [1]-[${1 + rand(n)}]` : ""}.`,
            };
      t.put(run, c.index, line, scoreCase(c, record, OPTIONS));
    }
  }
  return t;
}

/**
 * The eval aggregated in process (`options` over seed 3, 40 resamples), on this thread or with
 * `workers` − 1 worker threads: its aggregate and cases.jsonl's bytes.
 */
export async function aggregateInProcess(
  s: DocumentSlice,
  t: RunTable,
  options: Pick<AggregateOptions, "layout" | "rangePass">,
  workers = 1,
): Promise<{ result: Aggregate; bytes: Buffer }> {
  const pool = await createChunkPool<ScoreState, DocumentTaskPayload, DocumentTaskResult>({
    workers,
    taskModule: DOCUMENT_TASK_MODULE,
    initData: workers > 1 ? scoreInit(s, OPTIONS) : null,
    state: { slice: s, options: OPTIONS },
    shareThread: true,
  });
  const parts: Uint8Array[] = [];
  try {
    const result = await aggregateDocumentEval(
      s.cases,
      t,
      { ...OPTIONS, seed: 3, bootstrap: 40, flippedCap: 50, ...options },
      async (bytes) => void parts.push(bytes.slice()),
      pool,
    );
    return { result, bytes: Buffer.concat(parts) };
  } finally {
    await pool.close();
  }
}
