// How a document eval's cases.jsonl bytes reach the writer from range.ts's ranges: ranges with
// small bytes are gathered into larger writes, large ones written as they are, and the file is the
// same lines in slice order × run order either way (in process, a table of ranges of both kinds;
// the WebAssembly pass, which writes in buffers of its own, is held to these bytes by
// range-pass.test.ts).
import { afterAll, describe, expect, it } from "vitest";
import { readDocumentSlice } from "../../src/io/slice.js";
import { createChunkPool } from "../../src/pool/pool.js";
import { aggregateDocumentEval } from "../../src/tasks/document/aggregate.js";
import { DOCUMENT_TASK_MODULE } from "../../src/tasks/document/task-module.js";
import { RANGE_CASES, type DocumentTaskPayload, type DocumentTaskResult } from "../../src/tasks/document/range.js";
import { RunTable } from "../../src/tasks/document/run-table.js";
import { scoreCase, type ScoreOptions, type ScoreState } from "../../src/tasks/document/score.js";
import { tempDir } from "../support/cli.js";
import { writeJsonl } from "./helpers.js";

const tmp = tempDir("mari-cases-writes-");
afterAll(() => tmp.cleanup());

const OPTIONS: ScoreOptions = { lenientIds: false };
const RUNS = 60;

describe("cases.jsonl writes", () => {
  it("gathers small ranges into blocks, writes large ones whole, and keeps every line in place", async () => {
    // Four ranges of 8 cases × 60 runs: the third one's run lines cite 100 sentences each (≈ 0.2 MB),
    // the others' cite one (≈ 44 KB a range, under the 64 KB below which ranges are gathered).
    const rows = Array.from({ length: 4 * RANGE_CASES }, (_, i) => {
      const wide = i >= 2 * RANGE_CASES && i < 3 * RANGE_CASES;
      return { id: `c${i}`, sentences: Array.from({ length: wide ? 120 : 3 }, (_, s) => `Case ${i} line ${s}.`), label: true, gold_sentence_ids: [1] };
    });
    const slice = await readDocumentSlice(writeJsonl(tmp.dir, "slice.jsonl", rows), {});
    const table = new RunTable(slice.cases.length);
    let line = 0;
    for (let r = 0; r < RUNS; r++) {
      const run = table.ensureRun(String(r));
      for (const c of slice.cases) {
        const ids = c.sentences.length > 3 ? Array.from({ length: 100 }, (_, k) => 1 + ((k + r) % 120)) : [1 + (r % 3)];
        table.put(run, c.index, ++line, scoreCase(c, { case_id: c.id, run: r, judgment: true, evidence_sentence_ids: ids }, OPTIONS));
      }
    }
    const pool = await createChunkPool<ScoreState, DocumentTaskPayload, DocumentTaskResult>({
      workers: 1,
      taskModule: DOCUMENT_TASK_MODULE,
      initData: null,
      state: { slice, options: OPTIONS },
    });
    const writes: Uint8Array[] = [];
    await aggregateDocumentEval(
      slice.cases,
      table,
      { ...OPTIONS, seed: 1, bootstrap: 0, flippedCap: 5, layout: "dense", rangePass: false },
      async (bytes) => void writes.push(bytes.slice()),
      pool,
    );
    // The first two ranges in one write, before the large one, written as it is; then the last.
    expect(writes.length).toBe(3);
    expect(writes[0]!.length).toBeGreaterThan(64 << 10);
    expect(writes[0]!.length).toBeLessThan(128 << 10);
    expect(writes[1]!.length).toBeGreaterThan(128 << 10);
    expect(writes[2]!.length).toBeLessThan(64 << 10);
    const lines = Buffer.concat(writes).toString("utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.length).toBe(slice.cases.length * (1 + RUNS));
    let at = 0;
    for (const c of slice.cases) {
      expect(JSON.parse(lines[at++]!).case_id).toBe(c.id);
      for (let r = 0; r < RUNS; r++) {
        const row = JSON.parse(lines[at++]!);
        expect([row.run, row.evidence_sentence_ids]).toEqual([String(r), table.evidenceOf(r, c.index)]);
      }
    }
  });
});
