// `mari merge --slice PATH`: the shards' reports record where the slice was; when it has moved,
// --slice names it, and it must be the same slice (by content), for documents and for pairs.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { evalShards } from "../support/shards.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));
// What may differ between a merged and a single run: provenance, timing and the slice's location.
// (and, for documents, of the lexical judge's dump, which each run writes inside its own --out).
const comparable = (report: Record<string, any>) => ({
  ...report,
  system: null,
  elapsed_seconds: null,
  dataset: { ...report.dataset, path: null },
  ...(report.predictions ? { predictions: { ...report.predictions, path: null } } : {}),
});

async function shardsThenMove(
  kind: string,
  source: string,
): Promise<{ moved: string; reports: string[]; whole: { code: number; report: unknown; cases: string } }> {
  // The first 40 records are enough for two shards and keep the four runs short.
  const original = join(dir, `${kind}-slice${source.slice(source.lastIndexOf("."))}`);
  writeFileSync(original, readFileSync(source, "utf8").split("\n").slice(0, 40).join("\n") + "\n");
  const reports = (await evalShards(dir, `${kind}-shard`, original)).map((out) => join(out, "report.json"));
  const wholeOut = join(dir, `${kind}-whole`);
  const whole = await runMari(["eval", original, "--out", wholeOut, "--quiet", "--report", "json"]);
  expect([0, 1], whole.stderr).toContain(whole.code);
  const moved = join(dir, `${kind}-moved${source.slice(source.lastIndexOf("."))}`);
  renameSync(original, moved);
  return {
    moved,
    reports,
    whole: { code: whole.code, report: comparable(readJson(join(wholeOut, "report.json"))), cases: readFileSync(join(wholeOut, "cases.jsonl"), "utf8") },
  };
}

describe("mari merge --slice", () => {
  for (const [kind, source] of [
    ["documents", join(ROOT, "datasets/contradoc/contradoc-160.jsonl")],
    ["pairs", join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl")],
  ] as const) {
    it(`${kind}: a moved slice is an input error without --slice and merges like a single run with it`, async () => {
      const { moved, reports, whole } = await shardsThenMove(kind, source);
      const lost = await runMari(["merge", ...reports, "--out", join(dir, `${kind}-lost`), "--quiet"]);
      expect(lost.code, lost.stderr).toBe(2);
      expect(lost.stderr).toContain(`${kind}-slice`);

      const out = join(dir, `${kind}-merged`);
      const merged = await runMari(["merge", ...reports, "--slice", moved, "--out", out, "--quiet", "--report", "json"]);
      expect(merged.code, merged.stderr).toBe(whole.code);
      expect(comparable(readJson(join(out, "report.json")))).toEqual(whole.report);
      expect(readFileSync(join(out, "cases.jsonl"), "utf8")).toBe(whole.cases);

      // A --slice with other content is refused, not merged against.
      const other = join(dir, `${kind}-other${moved.slice(moved.lastIndexOf("."))}`);
      writeFileSync(other, readFileSync(moved, "utf8").trim().split("\n").slice(1).join("\n") + "\n");
      const wrong = await runMari(["merge", ...reports, "--slice", other, "--out", join(dir, `${kind}-wrong`), "--quiet"]);
      expect(wrong.code, wrong.stderr).toBe(2);
      expect(wrong.stderr).toContain(other);
    });
  }
});
