// An evidence report records the digest of each per-case file written beside it (cases_xxh64 of
// cases.jsonl, located_xxh64 of located.jsonl; src/report/cases-digest.ts), and its readers check
// them: `mari merge` each shard's files, `mari diff` the cases.jsonl it reads. A file changed since
// is refused with its name and the field; a report from before the fields (schema 1.1.0) is read
// unchecked. Every run is a `mari` child process on the example data. The digests against Python's
// xxhash: test/report/cases-digest-oracle.test.ts.
import { appendFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { xxh64Hex } from "../support/cases.js";
import { expectInputError } from "../hostile/helpers.js";

const tmp = tempDir("mari-evidence-digest-");
afterAll(() => tmp.cleanup());

const EXAMPLE = join(ROOT, "datasets/evidence-example");
const FACTS_AND_LOCATED = [
  join(EXAMPLE, "docs.jsonl"),
  "--facts",
  join(EXAMPLE, "facts.jsonl"),
  "--located",
  join(EXAMPLE, "located.jsonl"),
  "--materials",
  join(EXAMPLE, "materials.jsonl"),
];
const q = ["--quiet", "--progress", "none", "--report", "json"];
const reportOf = (dir: string) => JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
const SHARDS = [0, 1].map((i) => join(tmp.dir, `shard-${i}`));
let n = 0;

async function evidence(out: string, ...args: string[]): Promise<void> {
  const r = await runMari(["evidence", ...args, "--out", out, ...q]);
  expect(r.code, r.stderr).toBe(0);
}

/** `mari merge` of the shard reports in `dirs` into a new directory. */
async function merge(dirs: readonly string[]) {
  const out = join(tmp.dir, `merged-${n++}`);
  return { out, result: await runMari(["merge", ...dirs.map((d) => join(d, "report.json")), "--out", out, ...q]) };
}

/** A copy of shard `i`'s directory. */
function copyOfShard(i: number): string {
  const copy = join(tmp.dir, `copy-${n++}`);
  cpSync(SHARDS[i]!, copy, { recursive: true });
  return copy;
}

beforeAll(async () => {
  for (const [i, dir] of SHARDS.entries()) await evidence(dir, ...FACTS_AND_LOCATED, "--shard", `${i}/2`);
});

describe("an evidence report's digests of its per-case files", () => {
  it("are recorded for each file written: both at schema 1.4.0, cases.jsonl's alone at 1.3.0", async () => {
    const both = join(tmp.dir, "both");
    await evidence(both, ...FACTS_AND_LOCATED);
    const report = reportOf(both);
    expect(report.schema_version).toBe("1.4.0");
    expect(report.cases_xxh64).toBe(xxh64Hex(readFileSync(join(both, "cases.jsonl"))));
    expect(report.located_xxh64).toBe(xxh64Hex(readFileSync(join(both, "located.jsonl"))));

    const facts = join(tmp.dir, "facts-only");
    await evidence(facts, join(EXAMPLE, "docs.jsonl"), "--facts", join(EXAMPLE, "facts.jsonl"));
    expect(reportOf(facts)).toMatchObject({ schema_version: "1.3.0", cases_xxh64: xxh64Hex(readFileSync(join(facts, "cases.jsonl"))) });
    expect(reportOf(facts)).not.toHaveProperty("located_xxh64");

    // The merge of the shards records the digests of the files it wrote: the single run's files, so the single run's digests.
    const { out, result } = await merge(SHARDS);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(out, "located.jsonl"), "utf8")).toBe(readFileSync(join(both, "located.jsonl"), "utf8"));
    expect(reportOf(out)).toMatchObject({ schema_version: "1.4.0", cases_xxh64: report.cases_xxh64, located_xxh64: report.located_xxh64 });
  });

  it.each([
    ["located.jsonl", "located_xxh64"],
    ["cases.jsonl", "cases_xxh64"],
  ])("merge refuses a shard whose %s changed since its report (%s): exit 2, naming both files", async (name, field) => {
    const changed = copyOfShard(1);
    appendFileSync(join(changed, name), readFileSync(join(changed, name), "utf8").split("\n")[0] + "\n");
    const { out, result } = await merge([SHARDS[0]!, changed]);
    const escaped = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expectInputError(
      result,
      new RegExp(
        `^mari: ${escaped(join(changed, name))}: does not match ${escaped(join(changed, "report.json"))} \\(its ${field} differs\\): the run was interrupted`,
        "m",
      ),
    );
    expect(() => readFileSync(join(out, "report.json"))).toThrow();
  });

  it("a shard report written before the digests (schema 1.1.0, neither field) merges as before", async () => {
    const older = copyOfShard(0);
    const report = reportOf(older);
    delete report.cases_xxh64;
    delete report.located_xxh64;
    report.schema_version = "1.1.0";
    writeFileSync(join(older, "report.json"), JSON.stringify(report, null, 2));
    const { out, result } = await merge([older, SHARDS[1]!]);
    expect(result.code, result.stderr).toBe(0);
    expect(reportOf(out).located_xxh64).toBe(xxh64Hex(readFileSync(join(out, "located.jsonl"))));
    const single = await merge(SHARDS);
    expect(readFileSync(join(out, "located.jsonl"), "utf8")).toBe(readFileSync(join(single.out, "located.jsonl"), "utf8"));
  });

  it("mari diff refuses an evidence report whose cases.jsonl changed since: exit 2", async () => {
    const old = join(tmp.dir, "diff-old");
    await evidence(old, join(EXAMPLE, "docs.jsonl"), "--facts", join(EXAMPLE, "facts.jsonl"));
    const now = join(tmp.dir, "diff-new");
    cpSync(old, now, { recursive: true });
    const diff = () => runMari(["diff", old, now, "--out", join(tmp.dir, `diff-${n++}`), "--quiet", "--progress", "none"]);
    const same = await diff();
    expect(same.code, same.stderr).toBe(0);
    const cases = join(old, "cases.jsonl");
    const text = readFileSync(cases, "utf8");
    expect(text).toContain('"accepted":true');
    writeFileSync(cases, text.replace('"accepted":true', '"accepted":false'));
    expectInputError(await diff(), /diff-old\/cases\.jsonl: does not match .*diff-old\/report\.json \(its cases_xxh64 differs\)/);
  });
});
