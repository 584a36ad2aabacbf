import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/io/errors.js";
import { compareWithBaseline, loadBaseline } from "../../src/gates/baseline.js";
import { outcomeFromCaseLine, readPairedSide } from "../../src/gates/side-reader.js";
import { DOCUMENT_CLASSES } from "../../src/gates/paired.js";
import { tempDir } from "../support/cli.js";
import { fixtureReport } from "../report/fixture.js";
import { xxh64Hex } from "../support/cases.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

// cases.jsonl lines in the shape the documents task writes (fields not used here trimmed).
const line = (case_id: string, run: string, label: boolean, judgment: boolean, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    case_id,
    case_index: 0,
    label,
    run,
    judgment,
    format_valid: true,
    judgment_correct: judgment === label,
    localization_hit: label ? judgment : null,
    reward_accuracy: judgment === label ? 1 : 0,
    ...extra,
  });

function baselineDir(name: string, lines: string[], report: unknown = fixtureReport()): string {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "report.json"), typeof report === "string" ? report : JSON.stringify(report));
  writeFileSync(join(root, "cases.jsonl"), lines.join("\n") + "\n");
  return root;
}

describe("baseline", () => {
  it("reads a documents cases.jsonl line into a paired outcome", () => {
    expect(outcomeFromCaseLine(JSON.parse(line("a", "0", true, false, { exact_localization: false, reference_coverage: 0.5 })))).toEqual({
      case_id: "a",
      run: "0",
      gold: "positive",
      predicted: "negative",
      values: { localization_recall: 0, exact_localization: 0, format_valid_rate: 1, reference_coverage_mean: 0.5, reward_accuracy_mean: 0 },
    });
    expect(outcomeFromCaseLine({ case_id: "p", run: 3, gold: "update", predicted: "distinct" })).toMatchObject({
      run: "3",
      gold: "update",
      predicted: "distinct",
    });
    // A pairs cases.jsonl line: id, gold, class, cost; unlabelled pairs are not compared.
    expect(outcomeFromCaseLine({ id: "q", gold: "restatement", class: "update", cost: 3, kind: null })).toEqual({
      case_id: "q",
      run: "0",
      gold: "restatement",
      predicted: "update",
      values: { revision_cost: 3 },
    });
    expect(outcomeFromCaseLine({ id: "u", gold: null, class: "update", cost: null })).toBeNull();
    expect(outcomeFromCaseLine({ case_id: 1, label: true, judgment: true })).toBeNull();
    expect(outcomeFromCaseLine({ case_id: "x", label: true })).toBeNull();
  });

  it("loads report.json (file or directory) with the cases.jsonl beside it", async () => {
    const root = baselineDir("good", [line("a", "0", true, true), "", line("b", "0", false, true), "{not json", JSON.stringify({ case_id: "c" })]);
    const fromDir = await loadBaseline(root);
    const fromFile = await loadBaseline(join(root, "report.json"));
    expect(fromDir.path).toBe(join(root, "report.json"));
    expect(fromFile.side).toEqual(fromDir.side);
    const units = (b: typeof fromDir) => b.side.cases.list.map((id, c) => [id, ...b.side.pairs[b.side.slots[c]![0]! - 1]!.map((l) => b.side.labels.list[l])]);
    expect(units(fromDir)).toEqual([
      ["a", "positive", "positive"],
      ["b", "negative", "positive"],
    ]);
    // The blank line, "{not json" and the line without a run: in a documents cases.jsonl, a case line
    // of the compact layout, here without its fields.
    expect(fromDir.skippedLines).toBe(3);
    expect(fromDir.skippedExamples).toEqual([
      `${join(root, "cases.jsonl")}:2: blank line`,
      expect.stringMatching(/cases\.jsonl:4: malformed JSON/),
      `${join(root, "cases.jsonl")}:5: not a valid case line: case_index is not a non-negative integer`,
    ]);
    expect(fromDir.report.task).toBe("documents");
  });

  it.each([
    ["a missing path", (root: string) => join(root, "nope.json"), /no such file/],
    ["bad JSON", (root: string) => (writeFileSync(join(root, "report.json"), "{"), root), /not valid JSON/],
    [
      "not a report",
      (root: string) => (writeFileSync(join(root, "report.json"), JSON.stringify({ task: "documents" })), root),
      /not a valid mari report: schema_version/,
    ],
    ["no cases.jsonl", (root: string) => (writeFileSync(join(root, "cases.jsonl"), ""), root), /no usable per-case line/],
  ])("rejects %s as an input error", async (name, prepare, message) => {
    const root = baselineDir(name.replace(/ /g, "-"), [line("a", "0", true, true)]);
    const load = loadBaseline(prepare(root));
    await expect(load).rejects.toThrow(InputError);
    await expect(loadBaseline(prepare(root))).rejects.toThrow(message);
  });

  it("needs the per-case file", async () => {
    const root = join(dir, "lonely");
    mkdirSync(root);
    writeFileSync(join(root, "report.json"), JSON.stringify(fixtureReport()));
    await expect(loadBaseline(root)).rejects.toThrow(/cases\.jsonl are missing/);
  });

  it("a directory where cases.jsonl should be is an input error naming it", async () => {
    const root = join(dir, "cases-dir");
    mkdirSync(join(root, "cases.jsonl"), { recursive: true });
    writeFileSync(join(root, "report.json"), JSON.stringify(fixtureReport()));
    const load = loadBaseline(root);
    await expect(load).rejects.toThrow(InputError);
    await expect(loadBaseline(root)).rejects.toThrow(`${join(root, "cases.jsonl")} are not a file`);
  });

  it("compares with a baseline and warns when the slices differ", async () => {
    const root = baselineDir("compare", [line("a", "0", true, false), line("b", "0", false, false), line("c", "0", true, true)]);
    const currentPath = join(dir, "current-cases.jsonl");
    writeFileSync(currentPath, [line("a", "0", true, true), line("b", "0", false, false), line("c", "0", true, true)].join("\n"));
    const baseline = await loadBaseline(root);
    const { side: outcomes } = await readPairedSide(currentPath);
    const same = compareWithBaseline(outcomes, baseline, {
      seed: 0,
      resamples: 50,
      classes: DOCUMENT_CLASSES,
      currentSliceHash: fixtureReport().dataset.slice_hash,
    });
    expect(same.warning).toBeUndefined();
    expect(same.path).toBe(join(root, "report.json"));
    expect(same.metrics.accuracy!.difference).toBeCloseTo(1 / 3, 14);
    expect(same.metrics.localization_recall).toMatchObject({ current: 1, baseline: 0.5, difference: 0.5 });
    expect(same.mcnemar).toMatchObject({ baseline_only: 0, current_only: 1, p_value: 1 });
    const other = compareWithBaseline(outcomes, baseline, { seed: 0, resamples: 50, currentSliceHash: "f".repeat(64) });
    expect(other.warning).toMatch(/different slice/);
  });

  const caseLine = JSON.stringify({ case_id: "a", case_index: 0, label: true, gold_sentence_ids: [1], sentence_count: 3 });
  const run = (r: string) => `{"run":"${r}","line":1,"judgment":true,"evidence_sentence_ids":[1],"reference_coverage":0.5}`;
  const good = `${[caseLine, run("0"), run("1")].join("\n")}\n`;
  const repeated = `${[caseLine, run("0"), run("0")].join("\n")}\n`;
  const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
  // The digests a report records of the text it was written with: this build's, an older build's.
  const digests = {
    cases_xxh64: (text: string) => ({ cases_xxh64: xxh64Hex(text) }),
    cases_sha256: (text: string) => ({ cases_sha256: sha256(text) }),
  };
  let dirs = 0;
  const withDigest = (digest: Record<string, string>, text: string) => {
    const root = baselineDir(`digest-${dirs++}`, [], { ...fixtureReport(), ...digest });
    writeFileSync(join(root, "cases.jsonl"), text);
    return root;
  };

  it.each(Object.keys(digests) as Array<keyof typeof digests>)(
    "checks %s on the bytes it reads, a mismatch first whatever else the file has wrong",
    async (field) => {
      const recorded = digests[field];
      const mismatch = new RegExp(`cases\\.jsonl: does not match .*report\\.json \\(its ${field} differs\\)`);
      expect((await loadBaseline(withDigest(recorded(good), good))).side.size).toBe(2);
      await expect(loadBaseline(withDigest(recorded(good), good.replace('"1"', '"2"')))).rejects.toThrow(mismatch);
      // The repeated (case, run) the reading refuses is not what is reported: the file is not the run's.
      await expect(loadBaseline(withDigest(recorded(good), repeated))).rejects.toThrow(mismatch);
      await expect(loadBaseline(withDigest(recorded(repeated), repeated))).rejects.toThrow(/run "0" is already on line 2/);
    },
  );

  it("a report with both digests has both checked: either one false refuses the file, naming it", async () => {
    const changed = good.replace('"1"', '"2"');
    const both = (xxh64Of: string, sha256Of: string) => ({ cases_xxh64: xxh64Hex(xxh64Of), cases_sha256: sha256(sha256Of) });
    expect((await loadBaseline(withDigest(both(good, good), good))).side.size).toBe(2);
    await expect(loadBaseline(withDigest(both(good, changed), good))).rejects.toThrow(/\(its cases_sha256 differs\)/);
    await expect(loadBaseline(withDigest(both(changed, good), good))).rejects.toThrow(/\(its cases_xxh64 differs\)/);
    // Also when the reading fails on the file first (the file is then hashed on its own).
    await expect(loadBaseline(withDigest(both(repeated, good), repeated))).rejects.toThrow(/\(its cases_sha256 differs\)/);
  });
});
