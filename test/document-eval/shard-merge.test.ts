// --shard I/N and `mari merge` through the built CLI (run `npm run build` first): the merged report
// equals the single-run report (apart from system and timing), cases.jsonl byte for byte.
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { TINY_DUMP, TINY_SLICE, writeJsonl } from "./helpers.js";
import { validateReport } from "../../src/report/schema.js";

const tmp = tempDir("mari-shard-");
afterAll(() => tmp.cleanup());
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");

function shuffledDump(): string {
  const cases = readFileSync(SLICE, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  let seed = 42;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const rows: unknown[] = [];
  for (const run of ["a", "b", 7]) {
    for (const c of cases) {
      const r = rand();
      if (r < 0.05) continue;
      const judgment = r < 0.7 ? c.label : !c.label;
      rows.push({
        case_id: c.id,
        run,
        judgment,
        evidence_sentence_ids: judgment ? [1 + Math.floor(rand() * 4)] : [],
        reasoning: `[${1 + Math.floor(rand() * 30)}]`,
      });
    }
  }
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  rows.splice(10, 0, "garbage");
  rows.splice(50, 0, { case_id: "orphan-1", judgment: true });
  rows.splice(70, 0, { case_id: "orphan-2" });
  rows.splice(90, 0, rows[5]);
  rows.splice(120, 0, "   ");
  return writeJsonl(tmp.dir, "shuffled.jsonl", rows);
}

const strip = (dir: string) => {
  const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
  delete report.elapsed_seconds;
  delete report.system;
  return JSON.stringify(report, null, 1);
};

describe("shards and merge", () => {
  it("merge of 3 shards equals the single run", async () => {
    const dump = shuffledDump();
    const base = ["eval", SLICE, "--predictions", dump, "--quiet", "--progress", "none", "--bootstrap", "200"];
    expect((await runMari([...base, "--out", join(tmp.dir, "single")])).code).toBe(0);
    let scored = 0;
    for (let i = 0; i < 3; i++) {
      const r = await runMari([...base, "--out", join(tmp.dir, `shard-${i}`), "--shard", `${i}/3`, "--workers", String(1 + (i % 2))]);
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(tmp.dir, `shard-${i}`, "report.json"), "utf8"));
      expect(report.shard).toMatchObject({ index: i, count: 3 });
      scored += report.dataset.cases;
    }
    expect(scored).toBe(160);
    const merged = await runMari(["merge", ...[2, 0, 1].map((i) => join(tmp.dir, `shard-${i}`, "report.json")), "--out", join(tmp.dir, "merged"), "--quiet"]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(readFileSync(join(tmp.dir, "merged", "cases.jsonl"), "utf8")).toBe(readFileSync(join(tmp.dir, "single", "cases.jsonl"), "utf8"));
    for (const dir of ["merged", "shard-0"]) expect(validateReport(JSON.parse(readFileSync(join(tmp.dir, dir, "report.json"), "utf8")))).toEqual([]);
    const single = strip(join(tmp.dir, "single"));
    expect(strip(join(tmp.dir, "merged"))).toBe(single);
    const parsed = JSON.parse(single);
    expect(parsed.orphans).toMatchObject({ count: 2, examples: ["orphan-1", "orphan-2"] });
    expect(parsed.rejections).toMatchObject({ malformed_json: 1, blank_line: 1, duplicate_prediction: 1 });
  });

  it("refuses incomplete or mismatched shard sets", async () => {
    const missing = await runMari(["merge", join(tmp.dir, "shard-0", "report.json"), "--out", join(tmp.dir, "bad"), "--quiet"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("shard(s) 1/3, 2/3 missing");
    const notShard = await runMari(["merge", join(tmp.dir, "single", "report.json"), "--out", join(tmp.dir, "bad2"), "--quiet"]);
    expect(notShard.code).toBe(2);
    expect(notShard.stderr).toContain("not a shard report");
  });

  it("refuses a shard whose cases.jsonl is truncated or emptied (cases would silently become missing)", async () => {
    const shard1 = join(tmp.dir, "shard-1", "cases.jsonl");
    const original = readFileSync(shard1, "utf8");
    const reports = [0, 1, 2].map((i) => join(tmp.dir, `shard-${i}`, "report.json"));
    try {
      const lines = original.trimEnd().split("\n");
      writeFileSync(shard1, lines.slice(0, lines.length - 3).join("\n") + "\n");
      const truncated = await runMari(["merge", ...reports, "--out", join(tmp.dir, "bad3"), "--quiet"]);
      expect(truncated.code).toBe(2);
      // The report's cases digest catches it first (the row count still guards reports without one).
      expect(truncated.stderr).toContain(`${shard1}: does not match`);
      writeFileSync(shard1, "");
      expect((await runMari(["merge", ...reports, "--out", join(tmp.dir, "bad4"), "--quiet"])).code).toBe(2);
      // Another shard's file in its place: rows of cases that belong elsewhere.
      writeFileSync(shard1, readFileSync(join(tmp.dir, "shard-2", "cases.jsonl")));
      const swapped = await runMari(["merge", ...reports, "--out", join(tmp.dir, "bad5"), "--quiet"]);
      expect(swapped.code).toBe(2);
      expect(swapped.stderr).toContain(`${shard1}: does not match`);
    } finally {
      writeFileSync(shard1, original);
    }
  });

  it("more shards than cases: empty shards exit 0 and merge", async () => {
    const slice = writeJsonl(tmp.dir, "tiny.jsonl", TINY_SLICE);
    const dump = writeJsonl(tmp.dir, "tiny-dump.jsonl", TINY_DUMP);
    const base = ["eval", slice, "--predictions", dump, "--quiet", "--progress", "none"];
    expect((await runMari([...base, "--out", join(tmp.dir, "tiny-single")])).code).toBe(0);
    const reports: string[] = [];
    let empty = 0;
    for (let i = 0; i < 6; i++) {
      const r = await runMari([...base, "--out", join(tmp.dir, `tiny-${i}`), "--shard", `${i}/6`]);
      expect(r.code, r.stderr).toBe(0);
      if (r.stderr.includes("holds no case")) empty++;
      reports.push(join(tmp.dir, `tiny-${i}`, "report.json"));
    }
    expect(empty).toBeGreaterThan(0);
    expect((await runMari(["merge", ...reports, "--out", join(tmp.dir, "tiny-merged"), "--quiet"])).code).toBe(0);
    expect(strip(join(tmp.dir, "tiny-merged"))).toBe(strip(join(tmp.dir, "tiny-single")));
  });
});
