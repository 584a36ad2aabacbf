// Sparse evals (fewer than half the (case, run) cells have a kept line) take the sparse path of the
// aggregation and the sparse cases.jsonl layout. In process: one run table aggregated both ways
// must give the same numbers to the last bit (every absent cell still counts as a missing
// prediction), cases.jsonl files whose records read back identical, and the same case explorer
// whether it reads the table, the dense file or the sparse one.
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readDocumentSlice, type DocumentSlice } from "../../src/io/slice.js";
import { createChunkPool } from "../../src/pool/pool.js";
import { aggregateDocumentEval, type Aggregate } from "../../src/tasks/document/aggregate.js";
import { buildDocumentExplorer } from "../../src/tasks/document/explorer.js";
import { DOCUMENT_TASK_MODULE } from "../../src/tasks/document/task-module.js";
import type { DocumentTaskPayload, DocumentTaskResult } from "../../src/tasks/document/range.js";
import { RunTable } from "../../src/tasks/document/run-table.js";
import { scoreCase, type ScoreOptions, type ScoreState } from "../../src/tasks/document/score.js";
import { isSparse } from "../../src/tasks/document/sparse.js";
import { tempDir } from "../support/cli.js";
import { documentCaseRecords } from "../support/cases.js";
import { writeJsonl } from "./helpers.js";
import { lcg } from "../support/lcg.js";

const tmp = tempDir("mari-sparse-");
afterAll(() => tmp.cleanup());

const OPTIONS: ScoreOptions = { lenientIds: false };

/** Positives and negatives, with and without facets, several contra_types on some. */
async function slice(cases: number): Promise<DocumentSlice> {
  const rand = lcg(5);
  const rows = Array.from({ length: cases }, (_, i) => {
    const sentences = Array.from({ length: 4 + rand(5) }, (_, s) => `Case ${i} sentence ${s}.`);
    const label = i % 3 !== 0;
    return {
      id: `c${i}`,
      sentences,
      label,
      ...(label ? { gold_sentence_ids: [1 + rand(sentences.length)] } : {}),
      ...(i % 4 !== 0 ? { scope: i % 2 ? "local" : "global", doc_type: i % 5 ? "news" : "story" } : {}),
      ...(i % 7 === 1 ? { contra_type: ["negation", "numeric"] } : {}),
    };
  });
  return readDocumentSlice(writeJsonl(tmp.dir, `slice-${cases}.jsonl`, rows), {});
}

/** A table of `runs` runs where each (case, run) has a kept line with probability `share`: valid answers with fractional coverage, and format-invalid ones. */
function table(s: DocumentSlice, runs: number, share: number, seed: number): RunTable {
  const rand = lcg(seed);
  const t = new RunTable(s.cases.length);
  let line = 0;
  for (let r = 0; r < runs; r++) {
    const run = t.ensureRun(String(r));
    for (const c of s.cases) {
      line++;
      if (rand(1000) >= share * 1000) continue;
      const n = c.sentences.length;
      const judgment = rand(10) < 7 ? c.label : !c.label;
      const record =
        rand(12) === 0
          ? { case_id: c.id, run: r, judgment: "maybe" }
          : {
              case_id: c.id,
              run: r,
              judgment,
              evidence_sentence_ids: judgment ? [1 + rand(n)] : [],
              reasoning: `See [${1 + rand(n)}]${rand(2) ? ` and [1]-[${1 + rand(n)}]` : ""}.`,
            };
      t.put(run, c.index, line, scoreCase(c, record, OPTIONS));
    }
  }
  return t;
}

async function aggregate(s: DocumentSlice, t: RunTable, layout: "dense" | "sparse", file: string): Promise<Aggregate> {
  const pool = await createChunkPool<ScoreState, DocumentTaskPayload, DocumentTaskResult>({
    workers: 1,
    taskModule: DOCUMENT_TASK_MODULE,
    initData: null,
    state: { slice: s, options: OPTIONS },
  });
  const parts: Uint8Array[] = [];
  const result = await aggregateDocumentEval(
    s.cases,
    t,
    { ...OPTIONS, seed: 3, bootstrap: 50, flippedCap: 50, layout },
    async (bytes) => void parts.push(bytes.slice()),
    pool,
  );
  writeFileSync(file, Buffer.concat(parts));
  return result;
}

/** Where `b` differs from `a`: numbers compared with Object.is (bit for bit, −0 and NaN included). */
function numberDifferences(a: unknown, b: unknown, path = "$", out: string[] = []): string[] {
  if (a instanceof Map) return numberDifferences(Object.fromEntries(a), b instanceof Map ? Object.fromEntries(b) : b, path, out);
  if (typeof a !== "object" || a === null) {
    if (!Object.is(a, b)) out.push(`${path}: ${String(a)} vs ${String(b)}`);
    return out;
  }
  if (typeof b !== "object" || b === null || Object.keys(a).join() !== Object.keys(b).join()) {
    out.push(`${path}: keys differ`);
    return out;
  }
  for (const key of Object.keys(a)) numberDifferences((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`, out);
  return out;
}

describe("sparse aggregation", () => {
  // 40 runs: ranges of 8 cases; 4,100 runs: ranges of 7 cases; 33,000 runs: ranges of one case in two run blocks.
  it.each([
    [40, 20, 0.3],
    [40, 20, 0.9],
    [4100, 9, 0.03],
    [33_000, 2, 0.002],
  ])("%i runs × %i cases, %f of the cells kept: the same report numbers, cases.jsonl records and explorer as the dense path", async (runs, cases, share) => {
    const s = await slice(cases);
    const t = table(s, runs, share, runs);
    expect(isSparse(s.cases, t, OPTIONS)).toBe(share < 0.5);
    const denseFile = join(tmp.dir, `dense-${runs}-${share}.jsonl`);
    const sparseFile = join(tmp.dir, `sparse-${runs}-${share}.jsonl`);
    const dense = await aggregate(s, t, "dense", denseFile);
    const sparse = await aggregate(s, t, "sparse", sparseFile);
    expect(numberDifferences(dense, sparse)).toEqual([]);
    expect(dense.reasons.get("missing_prediction")).toBeGreaterThan(0);

    const sparseText = readFileSync(sparseFile, "utf8");
    expect(sparseText.startsWith(`{"runs":[${Array.from({ length: runs }, (_, r) => `"${r}"`).join(",")}]}\n`)).toBe(true);
    // Run lines for kept lines only: the runs line, a case line per case, a run line per kept line.
    expect(sparseText.split("\n").length - 1).toBe(1 + cases + t.entries);
    const records = await documentCaseRecords(denseFile);
    expect(records.length).toBe(runs * cases);
    expect(JSON.stringify(await documentCaseRecords(sparseFile)) === JSON.stringify(records)).toBe(true);

    const explorer = (outcomes: Parameters<typeof buildDocumentExplorer>[0]["outcomes"]) =>
      buildDocumentExplorer({ outcomes, slice: s, dumpPath: null, runs: t.keys, seed: 3, caseCap: 8 });
    const fromTable = await explorer({ cases: s.cases, table: t });
    expect(fromTable.shown).toBeGreaterThan(0);
    expect(JSON.stringify(await explorer(denseFile))).toBe(JSON.stringify(fromTable));
    expect(JSON.stringify(await explorer(sparseFile))).toBe(JSON.stringify(fromTable));
  });
});

describe("run keys in cases.jsonl", () => {
  // Run keys are written as pre-encoded bytes: plain ASCII ones byte by byte, others through
  // JSON.stringify. Every kind must read back as the key it was.
  it("writes every run key as JSON.stringify renders it, on both layouts", async () => {
    const s = await slice(3);
    const keys = ["0", "plain run", 'say "hi"', "back\\slash", "é-accent", "emoji 🙂", "ctrl\u0001", "del\u007f", "", " 4", "\u2028"];
    const t = new RunTable(s.cases.length);
    keys.forEach((key, r) => {
      t.ensureRun(key);
      const c = s.cases[r % s.cases.length]!;
      t.put(r, c.index, r + 1, scoreCase(c, { case_id: c.id, run: key, judgment: c.label, evidence_sentence_ids: c.label ? [1] : [] }, OPTIONS));
    });
    for (const layout of ["dense", "sparse"] as const) {
      const file = join(tmp.dir, `keys-${layout}.jsonl`);
      await aggregate(s, t, layout, file);
      const text = readFileSync(file, "utf8");
      for (const key of keys) expect(text.includes(`{"run":${JSON.stringify(key)},`)).toBe(true);
      const runsRead = new Set((await documentCaseRecords(file)).map((record) => (record as { run: string }).run));
      expect([...runsRead].sort()).toEqual([...keys].sort());
    }
  });
});
