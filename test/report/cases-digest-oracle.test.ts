// report.json's cases_xxh64 against an independent XXH64: the Python xxhash package (pinned in
// test/python/requirements.txt, in the suite's virtualenv) over the bytes of the cases.jsonl that
// real `mari` child processes wrote beside it: a document eval (hashed as its lines are written),
// a merge of document shards (the same), a pair eval (the file read back once written), and an
// evidence run's cases.jsonl and located.jsonl (report.json's cases_xxh64 and located_xxh64).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writtenCasesDigest } from "../../src/report/cases-digest.js";
import { SYNC_CHILD } from "../support/children.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { realToolsRequired, venvPython } from "../support/python.js";

const tmp = tempDir("mari-xxh64-oracle-");
afterAll(() => tmp.cleanup());
const q = ["--quiet", "--progress", "none", "--report", "json"];

/** Python's xxhash.xxh64 hexdigest of each file's bytes. */
function pythonXxh64(paths: string[]): string[] {
  const script = "import sys, xxhash\nfor p in sys.argv[1:]:\n    print(xxhash.xxh64(open(p, 'rb').read()).hexdigest())";
  const r = spawnSync(venvPython(), ["-c", script, ...paths], { ...SYNC_CHILD, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`python xxhash failed: ${r.stderr}`);
  return r.stdout.trim().split("\n");
}

/** The digest a report directory's report.json records, and Python's of the cases.jsonl beside it. */
function recordedAndPython(dir: string): { recorded: unknown; python: string } {
  const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
  return { recorded: report.cases_xxh64, python: pythonXxh64([join(dir, "cases.jsonl")])[0]! };
}

describe.runIf(realToolsRequired())("cases_xxh64 is the XXH64 of Python's xxhash", () => {
  it("agrees with the published vectors, and with the digest of a file read back, leading zeros included", async () => {
    const files = ["", "a", "line 572\n"].map((text, i) => {
      const path = join(tmp.dir, `vector-${i}`);
      writeFileSync(path, text);
      return path;
    });
    const python = pythonXxh64(files);
    expect(python.slice(0, 2)).toEqual(["ef46db3751d8e999", "d24ec4f1a98c6e5b"]);
    expect(python[2]).toMatch(/^00/);
    expect(await Promise.all(files.map(writtenCasesDigest))).toEqual(python);
  });

  it("of a document eval's cases.jsonl", async () => {
    const slice = join(tmp.dir, "slice.jsonl");
    writeFileSync(slice, readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8").split("\n").slice(0, 30).join("\n") + "\n");
    const out = join(tmp.dir, "eval");
    const r = await runMari(["eval", slice, "--out", out, "--workers", "2", ...q]);
    expect(r.code, r.stderr).toBe(0);
    const { recorded, python } = recordedAndPython(out);
    expect(recorded).toBe(python);

    // And of the merge of its two shards, written from their cases.
    const shards = [0, 1].map((i) => join(tmp.dir, `shard-${i}`));
    for (const [i, dir] of shards.entries()) {
      const s = await runMari(["eval", slice, "--shard", `${i}/2`, "--out", dir, "--workers", "1", ...q]);
      expect(s.code, s.stderr).toBe(0);
      const shard = recordedAndPython(dir);
      expect(shard.recorded).toBe(shard.python);
    }
    const merged = join(tmp.dir, "merged");
    const m = await runMari(["merge", ...shards.map((d) => join(d, "report.json")), "--out", merged, "--quiet", "--report", "json"]);
    expect(m.code, m.stderr).toBe(0);
    const digest = recordedAndPython(merged);
    expect(digest.recorded).toBe(digest.python);
  });

  it("of a pair eval's cases.jsonl", async () => {
    const out = join(tmp.dir, "pairs");
    const r = await runMari(["eval", join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl"), "--out", out, ...q]);
    // Exit 1: the task's default gates fail on this corpus; the files are written all the same.
    expect(r.code, r.stderr).toBe(1);
    const { recorded, python } = recordedAndPython(out);
    expect(recorded).toBe(python);
  });

  it("of an evidence run's cases.jsonl and located.jsonl", async () => {
    const example = join(ROOT, "datasets/evidence-example");
    const out = join(tmp.dir, "evidence");
    const files = ["docs", "facts", "located", "materials"].map((name) => join(example, `${name}.jsonl`));
    const r = await runMari(["evidence", files[0]!, "--facts", files[1]!, "--located", files[2]!, "--materials", files[3]!, "--out", out, ...q]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    const python = pythonXxh64([join(out, "cases.jsonl"), join(out, "located.jsonl")]);
    expect([report.cases_xxh64, report.located_xxh64]).toEqual(python);
  });
});
