import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runPairEval } from "../../src/tasks/pairs/run.js";
import { mergePairReports, runPairMerge } from "../../src/tasks/pairs/merge.js";
import { ROOT, tempDir } from "../support/cli.js";
import type { Report } from "../../src/report/types.js";

const CORPUS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

async function run(pairs: string, out: string, shard?: { index: number; count: number }): Promise<Report> {
  await runPairEval({ pairs, out, formats: ["json"], ...(shard ? { shard } : {}) });
  return JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
}

// The digest is of the written file; it and the schema version it raises are recorded as the files are written.
const comparable = (r: Report) => ({ ...r, system: null, elapsed_seconds: 0, shard: undefined, cases_xxh64: undefined, schema_version: undefined });

describe("merging pair shard reports", () => {
  it("gives exactly the unsharded report, whatever the argument order", async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const whole = await run(CORPUS, join(t.dir, "whole"));
    const shards = [];
    for (let index = 0; index < 3; index++) shards.push(await run(CORPUS, join(t.dir, `s${index}`), { index, count: 3 }));
    expect(shards.map((s) => (s.pairs as { usable: number }).usable).reduce((a, b) => a + b)).toBe(161);
    expect(shards.every((s) => s.dataset.slice_hash === whole.dataset.slice_hash && s.dataset.cases === 161)).toBe(true);
    const context = { system: whole.system, elapsedSeconds: 0 };
    const merged = JSON.parse(JSON.stringify(mergePairReports(shards, context)));
    expect(comparable(merged)).toEqual(comparable(whole));
    const reversed = JSON.parse(JSON.stringify(mergePairReports([...shards].reverse(), context)));
    expect(comparable(reversed)).toEqual(comparable(whole));
  });

  it("counts every rejected record in exactly one shard", async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const pairs = join(t.dir, "pairs.jsonl");
    const text = readFileSync(CORPUS, "utf8") + 'not json\n{"id":"pref-milk-r","new":"a","old":"b"}\n{"id":"zz","new":1,"old":"b"}\n';
    writeFileSync(pairs, text);
    const whole = await run(pairs, join(t.dir, "whole"));
    const shards = [];
    for (let index = 0; index < 4; index++) shards.push(await run(pairs, join(t.dir, `s${index}`), { index, count: 4 }));
    const merged = mergePairReports(shards, { system: whole.system, elapsedSeconds: 0 });
    expect(merged.rejections).toEqual({ malformed_json: 1, duplicate_id: 1, bad_new: 1 });
    expect(merged.rejections).toEqual(whole.rejections);
    expect(merged.pairs).toEqual(whole.pairs);
    expect(merged.metrics).toEqual(whole.metrics);
  });

  it("keeps the unsharded run's examples: the first of the file, in its order, cut at 50", async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    // Every other gold label unrecognised (80 of them: more than the 50 a report keeps), every
    // seventh record rejected, spread over every shard: each shard's lists are in its own order.
    const lines = readFileSync(CORPUS, "utf8").trim().split("\n");
    const text = lines
      .map((line, k) => {
        const pair = JSON.parse(line);
        if (k % 7 === 3) return JSON.stringify({ ...pair, new: 5 });
        return JSON.stringify(k % 2 === 1 ? { ...pair, gold: `weird ${k}` } : pair);
      })
      .join("\n");
    const pairs = join(t.dir, "pairs.jsonl");
    writeFileSync(pairs, `${text}\n`);
    const whole = await run(pairs, join(t.dir, "whole"));
    const shards = [];
    for (let index = 0; index < 3; index++) shards.push(await run(pairs, join(t.dir, `s${index}`), { index, count: 3 }));
    const merged = JSON.parse(JSON.stringify(mergePairReports(shards, { system: whole.system, elapsedSeconds: 0 })));
    const gold = (r: Report) => (r.pairs as { unrecognised_gold_examples: string[] }).unrecognised_gold_examples;
    expect(gold(whole)).toHaveLength(50);
    expect(gold(whole)[0]).toBe(`${pairs}:2: gold "weird 1" is not distinct, restatement or update`);
    expect(gold(whole)[49]).toMatch(/:(\d+): gold "weird \d+"/);
    expect(whole.rejection_examples.map((e) => e.where)).toEqual(lines.flatMap((_, k) => (k % 7 === 3 ? [`${pairs}:${k + 1}`] : [])));
    expect(gold(merged)).toEqual(gold(whole));
    expect(merged.rejection_examples).toEqual(whole.rejection_examples);
    expect(comparable(merged)).toEqual(comparable(whole));
  });

  it("refuses reports of different corpora or an incomplete split", async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const a = await run(CORPUS, join(t.dir, "a"), { index: 0, count: 2 });
    const b = await run(CORPUS, join(t.dir, "b"), { index: 1, count: 2 });
    const context = { system: a.system, elapsedSeconds: 0 };
    expect(() => mergePairReports([a], context)).toThrow(/expected the 2 shard report/);
    expect(() => mergePairReports([a, a], context)).toThrow(/shard index appears twice/);
    const other = { ...b, dataset: { ...b.dataset, slice_hash: "0".repeat(64) } };
    expect(() => mergePairReports([a, other], context)).toThrow(/differ in corpus/);
  });

  it("refuses a --slice that is not the corpus the shards scored (was: an empty merged cases.jsonl, exit 1)", async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    await run(CORPUS, join(t.dir, "a"), { index: 0, count: 2 });
    await run(CORPUS, join(t.dir, "b"), { index: 1, count: 2 });
    const reportPaths = [join(t.dir, "a", "report.json"), join(t.dir, "b", "report.json")];
    const merge = (pairsPath: string, out: string) => runPairMerge({ reportPaths, outDir: join(t.dir, out), pairsPath, formats: ["json"] });
    const documents = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
    await expect(merge(documents, "m1")).rejects.toThrow(`${documents}: this is not a pair corpus`);
    // One pair short: the same ids minus one, so every corpus pair still finds its line.
    const shorter = join(t.dir, "shorter.jsonl");
    writeFileSync(shorter, readFileSync(CORPUS, "utf8").trim().split("\n").slice(1).join("\n") + "\n");
    await expect(merge(shorter, "m2")).rejects.toThrow("merge: not the pair corpus the shards scored");
    await merge(CORPUS, "m3");
    expect(
      readFileSync(join(t.dir, "m3", "cases.jsonl"), "utf8")
        .trim()
        .split("\n"),
    ).toHaveLength(161);
  });
});
