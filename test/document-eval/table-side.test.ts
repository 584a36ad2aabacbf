// An eval's own side of a `--baseline` comparison made from its run table (tableSide) must be the
// side readDocumentSide reads from the cases.jsonl the eval wrote, field for field: on real evals
// (runDocumentEval) of random dumps with present and absent runs (dense and sparse files), every
// reason code, duplicate and out-of-range evidence, run keys as integers, strings, escapes and
// non-ASCII, repeated lines, lines for no case, a shard and a limit; and a slice with unlabelled
// cases and extra fields.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readDocumentSide } from "../../src/gates/side-reader.js";
import { readDocumentSlice } from "../../src/io/slice.js";
import { RunTable } from "../../src/tasks/document/run-table.js";
import { runDocumentEval } from "../../src/tasks/document/score-dump.js";
import { tableSide } from "../../src/tasks/document/table-side.js";
import { tempDir } from "../support/cli.js";
import { lcg } from "../support/lcg.js";
import { TINY_DUMP, TINY_SLICE, writeJsonl } from "./helpers.js";

const tmp = tempDir("mari-table-side-");
afterAll(() => tmp.cleanup());

const ROOT = join(import.meta.dirname, "../..");

/** A random dump over the slice's cases: `share` percent of (case, run) cells with a line. */
function randomDump(ids: readonly string[], runs: number, share: number, seed: number): string[] {
  const rand = lcg(seed);
  const runKey = (r: number): unknown => [r, String(r), `run-${r}`, `r\\"${r}`, `é${r}`][r % 5];
  const lines: string[] = [];
  for (let r = 0; r < runs; r++) {
    for (const id of ids) {
      if (rand(100) >= share) continue;
      const judgment = rand(2) === 1;
      const evidence = judgment ? Array.from({ length: rand(4) }, () => rand(9)) : rand(6) === 0 ? [1] : [];
      const line: Record<string, unknown> = { case_id: id, run: runKey(r), judgment: rand(15) === 0 ? "maybe" : judgment, evidence_sentence_ids: evidence };
      if (rand(3) === 0) line["reasoning"] = `[${1 + rand(6)}] and [${1 + rand(3)}]`;
      lines.push(JSON.stringify(line));
      if (rand(20) === 0) lines.push(JSON.stringify(line));
    }
  }
  lines.push("{not json", JSON.stringify({ case_id: "no-such-case", run: 0, judgment: false }));
  return lines;
}

/** Whether a document cases.jsonl is in the sparse layout (its first line lists the runs). */
function isSparse(casesPath: string): boolean {
  const first = readFileSync(casesPath, "utf8").split("\n", 1)[0]!;
  return !("case_id" in (JSON.parse(first) as object));
}

async function sidesAgree(
  slicePath: string,
  dumpLines: string[],
  name: string,
  sparse: boolean,
  extra: { shard?: { index: number; count: number }; limit?: number; workers?: number; chunkLines?: number } = {},
): Promise<void> {
  const slice = await readDocumentSlice(slicePath);
  const dumpPath = join(tmp.dir, `${name}.jsonl`);
  writeJsonl(tmp.dir, `${name}.jsonl`, dumpLines);
  const result = await runDocumentEval({
    slicePath,
    slice,
    dumpPath,
    outDir: join(tmp.dir, name),
    workers: 1,
    seed: 0,
    bootstrap: 20,
    lenientIds: false,
    ...extra,
  });
  try {
    expect(isSparse(result.casesPath)).toBe(sparse);
    const fromTable = tableSide(result.table, result.cases);
    const fromFile = await readDocumentSide(result.casesPath);
    expect(fromTable).toBeDefined();
    expect(fromFile.skippedLines).toBe(0);
    expect(fromTable).toEqual(fromFile.side);
    expect(fromTable!.size).toBeGreaterThan(0);
  } finally {
    await result.casesFile.abort();
  }
}

describe("an eval's side from its run table", () => {
  const contradoc = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
  const ids = (readFileSync(contradoc, "utf8").trim().split("\n") as string[]).map((l) => (JSON.parse(l) as { id: string }).id);

  it("is the side its dense cases.jsonl reads as", async () => {
    await sidesAgree(contradoc, randomDump(ids, 7, 90, 1), "dense", false);
  });

  it("is the side its sparse cases.jsonl reads as", async () => {
    await sidesAgree(contradoc, randomDump(ids, 9, 20, 2), "sparse", true);
  });

  it("is the side of a shard's and a limit's cases.jsonl", async () => {
    await sidesAgree(contradoc, randomDump(ids, 5, 70, 3), "shard", false, { shard: { index: 1, count: 3 } });
    await sidesAgree(contradoc, randomDump(ids, 5, 70, 4), "limit", false, { limit: 40 });
  });

  it("is the side of a GRPO-shaped dump (each case's samples together, raw completions) scored on two threads", async () => {
    const rand = lcg(5);
    const lines: string[] = [];
    for (const id of ids) {
      for (let sample = 0; sample < 6; sample++) {
        if (rand(10) === 0) continue;
        const yes = rand(2) === 1;
        const evidence = yes ? `[${1 + rand(5)}, ${1 + rand(5)}]` : "[]";
        const completion = `<think>\nSentence [${1 + rand(5)}] and [${1 + rand(5)}].\n</think>\n<answer>\nJudgment: ${yes ? "yes" : "no"}\nEvidence: ${evidence}\n</answer>`;
        lines.push(JSON.stringify({ case_id: id, run: sample, completion: rand(25) === 0 ? "no answer" : completion }));
      }
    }
    await sidesAgree(contradoc, lines, "grpo", false, { workers: 2, chunkLines: 97 });
  });

  it("is the side of a slice with unlabelled cases and extra fields", async () => {
    const slicePath = writeJsonl(tmp.dir, "tiny-slice.jsonl", TINY_SLICE);
    await sidesAgree(
      slicePath,
      TINY_DUMP.map((l) => JSON.stringify(l)),
      "tiny",
      false,
    );
  });

  it("is not made when an entry has what the file's reader refuses (the caller reads the file)", async () => {
    const slice = await readDocumentSlice(contradoc);
    const cases = slice.cases.slice(0, 2);
    const made = (line: number, coverage: number) => {
      const table = new RunTable(slice.cases.length);
      const run = table.ensureRun("0");
      for (const c of cases) table.putColumns(run, c.index, c === cases[1] ? line : 1, 1, 0, c === cases[1] ? coverage : 0.5, 1, 0, [1], 0, 1);
      return tableSide(table, cases);
    };
    expect(made(1, 0.5)).toBeDefined();
    expect(made(0, 0.5)).toBeUndefined();
    expect(made(1, Number.NaN)).toBeUndefined();
    expect(made(1, Number.POSITIVE_INFINITY)).toBeUndefined();
  });
});
