// `--sentences punkt` through the CLI: the slice numbered as nltk does, the rule in report.json and
// in the slice hash, predict and eval agreeing, and merge taking the shards' rule.
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { writeJsonl } from "./helpers.js";

const tmp = tempDir("mari-sentences-");
afterAll(() => tmp.cleanup());

// "p.m." ends a sentence for mari's rule, not for Punkt: the gold id of the second case differs.
const SLICE = writeJsonl(tmp.dir, "slice.jsonl", [
  { id: "a", text: "We met at 4 p.m. on Friday. Then we left. It was Monday.", label: true, evidence: "It was Monday.", contra_type: ["Temporal", "Factual"] },
  { id: "b", text: "Mrs. Frisby is a mouse. She lives in a field.", label: false },
  { id: "c", text: "The plant opened in 2001. It closed in 1999.", label: true, evidence: "It closed in 1999.", contra_type: "Factual" },
]);
const q = ["--progress", "none", "--quiet", "--workers", "1"];
const report = (dir: string) => JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
const caseLines = (dir: string) =>
  readFileSync(join(dir, "cases.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.includes('"case_index"'))
    .map((l) => JSON.parse(l));

describe("mari eval --sentences punkt", () => {
  it("numbers with Punkt, records the rule and hashes it; the default keeps mari's numbering", async () => {
    const dump = join(tmp.dir, "dump.jsonl");
    const predict = await runMari(["predict", SLICE, "--judge", "lexical", "--sentences", "punkt", "--out", dump]);
    expect(predict.code, predict.stderr).toBe(0);
    const punkt = await runMari(["eval", SLICE, "--predictions", dump, "--sentences", "punkt", "--out", join(tmp.dir, "punkt"), ...q]);
    expect(punkt.code, punkt.stderr).toBe(0);
    const mari = await runMari(["eval", SLICE, "--predictions", dump, "--out", join(tmp.dir, "mari"), ...q]);
    expect(mari.code, mari.stderr).toBe(0);
    const [p, m] = [report(join(tmp.dir, "punkt")), report(join(tmp.dir, "mari"))];
    expect(p.dataset.sentences).toBe("punkt");
    expect(p.system.config.sentences).toBe("punkt");
    expect(m.dataset).not.toHaveProperty("sentences");
    expect(m.system.config).not.toHaveProperty("sentences");
    expect(p.dataset.slice_hash).not.toBe(m.dataset.slice_hash);
    expect(p.dataset.multi_type_cases).toBe(1);
    expect(caseLines(join(tmp.dir, "punkt")).map((c) => [c.case_id, c.sentence_count, c.gold_sentence_ids, c.contra_type])).toEqual([
      ["a", 3, [3], ["Temporal", "Factual"]],
      ["b", 2, [], undefined],
      ["c", 2, [2], "Factual"],
    ]);
    expect(caseLines(join(tmp.dir, "mari")).map((c) => [c.sentence_count, c.gold_sentence_ids])).toEqual([
      [4, [4]],
      [3, []],
      [2, [2]],
    ]);
    // A case with two types is counted under both; report.md says so.
    expect(Object.keys(p.breakdowns.contra_type).sort()).toEqual(["Factual", "Temporal"]);
    expect(p.breakdowns.contra_type.Factual.cases).toBe(2);
    expect(readFileSync(join(tmp.dir, "punkt", "report.md"), "utf8")).toContain("1 case has several contra_types: each counts under every one of its types");
  });

  it("merge numbers as the shards did", async () => {
    const dump = join(tmp.dir, "dump.jsonl");
    for (const i of [0, 1]) {
      // The shards are inputs here: run in this process.
      await runTask({ task: "documents", slicePath: SLICE, dumpPath: dump, sentences: "punkt" }, join(tmp.dir, `s${i}`), [], { index: i, count: 2 });
    }
    const merged = await runMari(["merge", join(tmp.dir, "s0/report.json"), join(tmp.dir, "s1/report.json"), "--out", join(tmp.dir, "merged"), "--quiet"]);
    expect(merged.code, merged.stderr).toBe(0);
    const whole = report(join(tmp.dir, "punkt"));
    const m = report(join(tmp.dir, "merged"));
    expect(m.dataset).toMatchObject({ sentences: "punkt", slice_hash: whole.dataset.slice_hash });
    expect(m.metrics).toEqual(whole.metrics);
  });

  it("a dump whose prompts were numbered with Punkt (DUMP.meta.json) warns when scored with mari's rule", async () => {
    const dump = writeJsonl(tmp.dir, "meta-dump.jsonl", [{ case_id: "a", judgment: true, evidence_sentence_ids: [3] }]);
    writeFileSync(`${dump}.meta.json`, JSON.stringify({ judge: "openai", source: "live", sentences: "punkt" }));
    const warned = await runMari(["eval", SLICE, "--predictions", dump, "--out", join(tmp.dir, "meta-mari"), ...q]);
    expect(warned.code, warned.stderr).toBe(0);
    const expected = `the dump's prompts numbered sentences with --sentences punkt (${dump}.meta.json), this eval with mari`;
    expect(warned.stderr).toContain(expected);
    expect(report(join(tmp.dir, "meta-mari")).warnings.join("\n")).toContain(expected);
    const agreed = await runMari(["eval", SLICE, "--predictions", dump, "--sentences", "punkt", "--out", join(tmp.dir, "meta-punkt"), ...q]);
    expect(agreed.code, agreed.stderr).toBe(0);
    expect(agreed.stderr).not.toContain("prompts numbered");
    expect((report(join(tmp.dir, "meta-punkt")).warnings ?? []).join("\n")).not.toContain("prompts numbered");
  });

  it("mari.config.json documents.sentences sets the rule; the flag wins", async () => {
    const dump = join(tmp.dir, "dump.jsonl");
    const config = join(tmp.dir, "punkt.config.json");
    writeFileSync(config, JSON.stringify({ documents: { sentences: "punkt" } }));
    const fromConfig = await runMari(["eval", SLICE, "--predictions", dump, "--config", config, "--out", join(tmp.dir, "cfg"), ...q]);
    expect(fromConfig.code, fromConfig.stderr).toBe(0);
    expect(report(join(tmp.dir, "cfg")).dataset.slice_hash).toBe(report(join(tmp.dir, "punkt")).dataset.slice_hash);
    const flagWins = await runMari(["eval", SLICE, "--predictions", dump, "--config", config, "--sentences", "mari", "--out", join(tmp.dir, "cfg-mari"), ...q]);
    expect(flagWins.code, flagWins.stderr).toBe(0);
    expect(report(join(tmp.dir, "cfg-mari")).dataset.slice_hash).toBe(report(join(tmp.dir, "mari")).dataset.slice_hash);
  });

  it("an unknown rule is a usage error, and a pair corpus refuses the flag", async () => {
    const bad = await runMari(["eval", SLICE, "--sentences", "nltk", "--out", join(tmp.dir, "bad"), ...q]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--sentences.*nltk.*(mari|punkt)/s);
    const pairs = writeJsonl(tmp.dir, "pairs.jsonl", [{ id: "1", new: "a", old: "b", gold: "keep" }]);
    const refused = await runMari(["eval", pairs, "--sentences", "punkt", "--out", join(tmp.dir, "pairs-out"), ...q]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--sentences only apply to document slices");
  });
});
