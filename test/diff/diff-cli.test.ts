// `mari diff OLD NEW` on real reports: the changed cases, the same paired comparison as
// `eval --baseline`, --max-drop gates with eval's exit codes, and refusals with exit 2.
import { readFileSync, writeFileSync } from "node:fs";
import { documentCaseRecords } from "../support/cases.js";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { classifierConfigFromFlags } from "../../src/index.js";
import { readJsonl, type JsonLine } from "../support/jsonl.js";
import { oracleMacroF1 } from "../core/metrics/bootstrap-oracle.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
type Line = JsonLine;
const jsonl = readJsonl;

const { dir, cleanup } = tempDir("mari-diff-");
const out = (name: string) => join(dir, name);

beforeAll(async () => {
  // The reports are diff's inputs: the evaluations run in this process.
  await runTask({ task: "documents", slicePath: SLICE }, out("old"));
  // NEW answers the opposite of OLD on the first 20 cases (with evidence when it says yes).
  const lexical = jsonl(join(out("old"), "lexical.predictions.jsonl"));
  const flipped = lexical.map((l, i) => (i < 20 ? { ...l, judgment: !l["judgment"], evidence_sentence_ids: l["judgment"] ? [] : [1] } : l));
  writeFileSync(out("new.jsonl"), flipped.map((l) => JSON.stringify(l)).join("\n") + "\n");
  await runTask({ task: "documents", slicePath: SLICE, dumpPath: out("new.jsonl") }, out("new"));
  await runTask({ task: "documents", slicePath: SLICE, dumpPath: out("new.jsonl"), baselinePath: out("old") }, out("with-baseline"));
});

afterAll(cleanup);

describe("mari diff", () => {
  it("lists the regressed and fixed cases and matches eval --baseline's comparison", async () => {
    const r = await runMari(["diff", out("old"), join(out("new"), "report.json"), "--out", out("d"), "--progress", "none"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const old = new Map((await documentCaseRecords(join(out("old"), "cases.jsonl"))).map((l) => [l["case_id"], l]));
    const now = await documentCaseRecords(join(out("new"), "cases.jsonl"));
    const regressed = now.filter((l) => old.get(l["case_id"])!["judgment_correct"] && !l["judgment_correct"]).map((l) => l["case_id"]);
    const fixed = now.filter((l) => !old.get(l["case_id"])!["judgment_correct"] && l["judgment_correct"]).map((l) => l["case_id"]);
    expect(regressed.length).toBeGreaterThan(0);
    expect(fixed.length).toBeGreaterThan(0);
    const diff = JSON.parse(readFileSync(join(out("d"), "diff.json"), "utf8"));
    expect(diff.regressed.map((c: Line) => c["case_id"])).toEqual(regressed);
    expect(diff.fixed.map((c: Line) => c["case_id"])).toEqual(fixed);
    expect(diff.regressed[0].old).toMatch(/^t[pn]$/);
    expect(diff.regressed[0].new).toMatch(/^f[pn]$/);
    // One implementation: the same deltas, intervals and McNemar as eval --baseline.
    const baseline = JSON.parse(readFileSync(join(out("with-baseline"), "report.json"), "utf8")).baseline;
    expect(diff.comparison.metrics).toEqual(baseline.metrics);
    expect(diff.comparison.mcnemar).toEqual(baseline.mcnemar);
    expect(r.stdout).toContain(`regressed (${regressed.length}):`);
    expect(r.stdout).toContain(`  ${regressed[0]}: `);
    const md = readFileSync(join(out("d"), "diff.md"), "utf8");
    expect(md).toContain(`## Regressed: ${regressed.length}`);
    for (const id of regressed) expect(md).toContain(`| ${id} |`);
    expect(readFileSync(join(out("d"), "diff.html"), "utf8")).toContain('id="mari-explorer-data"');
  });

  it("applies --max-drop gates with eval's exit codes", async () => {
    // The expected drop from the two runs' cases, not from diff.json: one run a side, so the
    // paired macro-F1 is each side's plain macro-F1.
    const macroF1Of = async (name: string) => {
      const counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
      for (const l of await documentCaseRecords(join(out(name), "cases.jsonl"))) {
        const key = l["label"] ? (l["judgment"] ? "tp" : "fn") : l["judgment"] ? "fp" : "tn";
        counts[key]++;
      }
      return oracleMacroF1(counts.tp, counts.fp, counts.fn, counts.tn);
    };
    const drop = (await macroF1Of("old")) - (await macroF1Of("new"));
    expect(drop).toBeGreaterThan(1e-6);
    const failing = await runMari(["diff", out("old"), out("new"), "--out", out("g1"), "--max-drop", "macro_f1=0", "--quiet"]);
    const diff = JSON.parse(readFileSync(join(out("g1"), "diff.json"), "utf8"));
    expect(failing.code).toBe(1);
    expect(diff.gates[0].passed).toBe(false);
    expect(diff.gates[0].value).toBeCloseTo(drop, 12);
    const justEnough = await runMari(["diff", out("old"), out("new"), "--out", out("g3"), "--max-drop", `macro_f1=${drop + 1e-9}`, "--quiet"]);
    expect(justEnough.code).toBe(0);
    const passing = await runMari(["diff", out("old"), out("new"), "--out", out("g2"), "--max-drop", "macro_f1=1", "--quiet"]);
    expect(passing.code).toBe(0);
    expect((await runMari(["diff", out("old"), out("new"), "--max-drop", "macro_f1"])).code).toBe(2);
  });

  it("pairs: another classifier setting's verdicts, case by case", async () => {
    const pairs = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
    await runTask({ task: "pairs", pairs }, out("p-old"));
    await runTask({ task: "pairs", pairs, classifierConfig: classifierConfigFromFlags(["overlapFloor=0.6"]) }, out("p-new"));
    const r = await runMari(["diff", out("p-old"), out("p-new"), "--out", out("p-diff"), "--quiet"]);
    expect(r.code).toBe(0);
    const old = new Map(jsonl(join(out("p-old"), "cases.jsonl")).map((l) => [l["id"], l]));
    const now = jsonl(join(out("p-new"), "cases.jsonl"));
    const right = (l: Line) => l["gold"] === l["class"];
    const diff = JSON.parse(readFileSync(join(out("p-diff"), "diff.json"), "utf8"));
    expect(diff.regressed.map((c: Line) => c["case_id"])).toEqual(now.filter((l) => right(old.get(l["id"])!) && !right(l)).map((l) => l["id"]));
    expect(diff.fixed.map((c: Line) => c["case_id"])).toEqual(now.filter((l) => !right(old.get(l["id"])!) && right(l)).map((l) => l["id"]));
    expect(diff.regressed.length + diff.fixed.length).toBeGreaterThan(0);
    expect(Object.keys(diff.comparison.metrics)).toContain("revision_cost");
  });

  it("refuses different slices (exit 2, saying so) unless --allow-different-slice, and different tasks", async () => {
    const lines = readFileSync(SLICE, "utf8").split("\n").filter(Boolean);
    writeFileSync(out("part.jsonl"), lines.slice(0, 100).join("\n") + "\n");
    await runTask({ task: "documents", slicePath: out("part.jsonl") }, out("part"));
    const refused = await runMari(["diff", out("old"), out("part"), "--out", out("x")]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("different slices");
    expect(refused.stderr).toContain("--allow-different-slice compares the 100 case ids they share");
    const allowed = await runMari(["diff", out("old"), out("part"), "--out", out("y"), "--allow-different-slice"]);
    expect(allowed.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out("y"), "diff.json"), "utf8")).shared_cases).toBe(100);
    expect(allowed.stdout).toContain("different slices: 100 shared case ids");
    // The pairs corpus fails its default gates but still writes its report.
    await runTask({ task: "pairs", pairs: join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl") }, out("pairs"));
    const tasks = await runMari(["diff", out("old"), out("pairs"), "--out", out("z")]);
    expect(tasks.code).toBe(2);
    expect(tasks.stderr).toMatch(/different tasks: OLD .* is a documents report, NEW .* is a pairs report/);
    const missing = await runMari(["diff", out("old"), out("nowhere")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("diff NEW");
  });
});
