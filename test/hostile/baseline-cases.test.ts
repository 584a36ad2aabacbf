// Silent loss: a baseline's cases.jsonl is checked like any input (a repeated (case, run)
// is refused with its line; blank and malformed lines are counted with their lines); a pair-task
// or future-schema baseline is refused; report.json records the XXH64 of its cases.jsonl (an older
// report its SHA-256) and --baseline and merge refuse a pair that does not match (a run killed
// between the two renames).
import { appendFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { asOlderReport, withoutCasesDigest } from "../support/cases.js";
import { evalShards } from "../support/shards.js";
import { DOC_SLICE, expectInputError, firstLines, PAIRS, write } from "./helpers.js";

const tmp = tempDir("mari-baseline-cases-");
afterAll(() => tmp.cleanup());
const slice = write(tmp.dir, "slice.jsonl", `${firstLines(DOC_SLICE, 8).join("\n")}\n`);
const q = ["--quiet", "--progress", "none", "--workers", "1", "--report", "json"];
const base = join(tmp.dir, "base");
let n = 0;

/** A copy of the baseline directory with its cases.jsonl and report.json changed. */
function variant(editCases: (text: string) => string, editReport: (r: any) => void = () => {}, rehash = true): string {
  const dir = join(tmp.dir, `variant-${n++}`);
  cpSync(base, dir, { recursive: true });
  writeFileSync(join(dir, "cases.jsonl"), editCases(readFileSync(join(dir, "cases.jsonl"), "utf8")));
  const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
  if (rehash) withoutCasesDigest(report); // an edited file: only the line checks apply
  editReport(report);
  writeFileSync(join(dir, "report.json"), JSON.stringify(report));
  return dir;
}
const evalWith = (baseline: string) => runMari(["eval", slice, "--baseline", baseline, "--out", join(tmp.dir, `o-${n++}`), ...q]);

beforeAll(async () => {
  // The baseline is an input here: written in this process.
  await runTask({ task: "documents", slicePath: slice, formats: ["json"] }, base);
});

describe("a baseline's cases.jsonl and report", () => {
  it("report.json records the XXH64 of its cases.jsonl, in a schema 1.3.0 report, and no SHA-256 of it", () => {
    // Checked against an independent XXH64 in test/report/cases-digest-oracle.test.ts.
    const report = JSON.parse(readFileSync(join(base, "report.json"), "utf8"));
    expect(report.cases_xxh64).toMatch(/^[0-9a-f]{16}$/);
    expect(report.schema_version).toBe("1.3.0");
    expect(report).not.toHaveProperty("cases_sha256");
  });

  it("a repeated (case, run) line: exit 2 with both lines", async () => {
    // Compact layout: the last case's first run line again, at the end (under the same case line).
    let at = 0;
    let end = 0;
    const dir = variant((text) => {
      const lines = text.trimEnd().split("\n");
      const last = lines.findLastIndex((l) => l.startsWith('{"case_id"'));
      at = last + 2;
      end = lines.length + 1;
      return `${[...lines, lines[last + 1]].join("\n")}\n`;
    });
    expectInputError(await evalWith(dir), new RegExp(`cases\\.jsonl:${end}: case ".+" run "0" is already on line ${at}`));
  });

  it("blank and malformed lines are counted with their line numbers in the warning", async () => {
    const dir = variant((text) => text.replace("\n", "\n\n{oops\n"));
    const r = await evalWith(dir);
    expect(r.code, r.stderr).toBe(0);
    const warning = JSON.parse(readFileSync(join(tmp.dir, `o-${n - 1}`, "report.json"), "utf8")).baseline.warning as string;
    expect(warning).toMatch(/2 baseline cases\.jsonl lines were not compared \(.*cases\.jsonl:2: blank line; .*cases\.jsonl:3: malformed JSON/);
  });

  it("schema_version 99.0.0 is refused", async () => {
    expectInputError(
      await evalWith(
        variant(
          (t) => t,
          (r) => void (r.schema_version = "99.0.0"),
        ),
      ),
      /--baseline has schema_version 99\.0\.0; this mari reads 1\.x reports/,
    );
  });

  it("a pair-task baseline for a document eval is refused", async () => {
    const pairsOut = join(tmp.dir, "pairs-base");
    await runTask({ task: "pairs", pairs: PAIRS, formats: ["json"] }, pairsOut);
    expectInputError(await evalWith(pairsOut), /--baseline is a pairs report; a document eval compares only with a documents report/);
  });

  // A line added to cases.jsonl after the run (the report's digest left as it was).
  const addLine = (dir: string) =>
    appendFileSync(join(dir, "cases.jsonl"), readFileSync(join(dir, "cases.jsonl"), "utf8").split("\n")[0]!.replace('"run":"0"', '"run":"9"') + "\n");
  const unchanged = () =>
    variant(
      (t) => t,
      () => {},
      false,
    );

  it("a cases.jsonl that no longer matches its report.json (cases_xxh64): exit 2", async () => {
    const dir = unchanged();
    const r = await evalWith(dir);
    expect(r.code, r.stderr).toBe(0);
    addLine(dir);
    expectInputError(await evalWith(dir), /cases\.jsonl: does not match .*report\.json \(its cases_xxh64 differs\)/);
  });

  it("an older report's cases_sha256 is still checked: the matching file is read, a changed one is exit 2", async () => {
    const dir = asOlderReport(unchanged());
    const r = await evalWith(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(tmp.dir, `o-${n - 1}`, "report.json"), "utf8")).baseline.matched_cases).toBe(8);
    addLine(dir);
    expectInputError(await evalWith(dir), /cases\.jsonl: does not match .*report\.json \(its cases_sha256 differs\)/);
  });
});

describe("merge checks each shard's cases.jsonl against its report", () => {
  it.each([
    ["documents", "cases_xxh64", DOC_SLICE],
    ["pairs", "cases_xxh64", PAIRS],
    ["documents", "cases_sha256", DOC_SLICE],
    ["pairs", "cases_sha256", PAIRS],
  ])("%s: a changed cases.jsonl is exit 2 (the shard's report records %s)", async (name, field, input) => {
    const [s0, s1] = await evalShards(tmp.dir, `hash-${name}-${field}`, input);
    const merge = (out: string) => runMari(["merge", join(s0, "report.json"), join(s1, "report.json"), "--out", join(tmp.dir, out), "--quiet"]);
    if (field === "cases_sha256") {
      // Shards an older build wrote merge as before, into a report with this build's digest.
      asOlderReport(s0);
      asOlderReport(s1);
      const r = await merge(`m-ok-${name}`);
      // Exit 1 for pairs: the task's default gates fail on this corpus; the files are written all the same.
      expect(r.code, r.stderr).toBe(name === "pairs" ? 1 : 0);
      expect(JSON.parse(readFileSync(join(tmp.dir, `m-ok-${name}`, "report.json"), "utf8")).cases_xxh64).toMatch(/^[0-9a-f]{16}$/);
    }
    const cases = join(s1, "cases.jsonl");
    writeFileSync(cases, readFileSync(cases, "utf8").split("\n").slice(0, -2).join("\n") + "\n");
    expectInputError(await merge(`m-${name}-${field}`), new RegExp(`cases\\.jsonl: does not match .*report\\.json \\(its ${field} differs\\)`));
  });
});
