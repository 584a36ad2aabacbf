// Through the CLI: a file that is not a prediction dump is exit 2 saying what was
// expected and what it holds (no summary of zeros first); a dump that is mostly format-invalid is
// still scored by the reference rules but every rendering says so; a document slice given to
// sweep or classify is "not a pair corpus", once.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const tmp = tempDir("mari-dump-shape-");
afterAll(() => tmp.cleanup());
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const QUIET = ["--progress", "none", "--bootstrap", "20"];
let ids: string[] = [];

beforeAll(() => {
  ids = readFileSync(SLICE, "utf8")
    .trim()
    .split("\n")
    .map((l) => (JSON.parse(l) as { id: string }).id);
});

const write = (name: string, text: string) => {
  const path = join(tmp.dir, name);
  writeFileSync(path, text);
  return path;
};
const evalDump = (dump: string, out = "out") => runMari(["eval", SLICE, "--predictions", dump, "--out", join(tmp.dir, out), ...QUIET]);

describe("a file that is not a prediction dump", () => {
  it("the slice given as the dump: exit 2, 'did you swap the arguments?'", async () => {
    const r = await evalDump(SLICE);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not a prediction dump: no line has a "judgment", "prediction", "completion" field');
    expect(r.stderr).toContain('its first line (line 1) holds an object with keys "id", "text", "label"');
    expect(r.stderr).toContain("did you swap the arguments?");
    expect(r.stdout).toBe("");
  });

  it("a dump that writes `label` instead of `judgment`: exit 2 naming the keys it has", async () => {
    const r = await evalDump(write("label.jsonl", ids.map((id) => JSON.stringify({ case_id: id, label: true })).join("\n") + "\n"));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('holds an object with keys "case_id", "label"');
    expect(r.stderr).not.toContain("swap");
  });

  it("a JSON array or one JSON object: 'expected JSONL, one prediction per line', no summary first", async () => {
    const rows = ids.map((id) => ({ case_id: id, judgment: false }));
    const array = await evalDump(write("array.json", JSON.stringify(rows, null, 2)));
    expect(array.code).toBe(2);
    expect(array.stderr).toMatch(/array\.json:1: expected JSONL, one prediction per line .*a JSON array/);
    expect(array.stdout).toBe("");
    const object = await evalDump(write("object.json", JSON.stringify(rows[0], null, 2)));
    expect(object.code).toBe(2);
    expect(object.stderr).toMatch(/object\.json:1: expected JSONL, one prediction per line .*a single JSON object/);
    expect(object.stdout).toBe("");
    // A JSON array written on one line is one too, and so is a file of such lines.
    const oneLine = await evalDump(write("one-line.json", `${JSON.stringify(rows)}\n${JSON.stringify(rows)}\n`));
    expect(oneLine.code).toBe(2);
    expect(oneLine.stderr).toMatch(/one-line\.json:1: expected JSONL, one prediction per line .*a JSON array/);
  });

  it("a JSONL dump whose first line is an array (a header of column names): that line is counted, the rest scored", async () => {
    const rows = ids.map((id) => JSON.stringify({ case_id: id, judgment: false, evidence_sentence_ids: [], reasoning: "" }));
    const r = await evalDump(write("header.jsonl", `["case_id", "judgment", "evidence_sentence_ids", "reasoning"]\n${rows.join("\n")}\n`), "header");
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(tmp.dir, "header", "report.json"), "utf8"));
    expect(report.rejections.not_an_object).toBe(1);
    expect(report.rejection_examples).toContainEqual(expect.objectContaining({ where: expect.stringMatching(/header\.jsonl:1$/), reason: "not_an_object" }));
    expect(report.predictions.lines).toBe(ids.length + 1);
    expect(report.metrics.cases).toBe(ids.length);
  });
});

describe("a dump whose predictions are mostly format-invalid", () => {
  it("is scored by the reference rules, and summary, report.md and report.html say so prominently", async () => {
    // Positive judgments without evidence are format-invalid (positive_without_evidence).
    const dump = write(
      "invalid.jsonl",
      ids.map((id, i) => JSON.stringify({ case_id: id, judgment: i % 4 !== 0, evidence_sentence_ids: [] })).join("\n") + "\n",
    );
    const r = await evalDump(dump, "invalid");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/WARNING: 120 of 160 predictions \(75\.0%\) are format-invalid/);
    const md = readFileSync(join(tmp.dir, "invalid", "report.md"), "utf8");
    expect(md.split("\n").slice(0, 4).join("\n")).toContain("> **WARNING:** 120 of 160 predictions (75.0%) are format-invalid");
    const html = readFileSync(join(tmp.dir, "invalid", "report.html"), "utf8");
    expect(html).toMatch(/<p class="banner warning"><strong>WARNING:<\/strong> 120 of 160 predictions/);
    const report = JSON.parse(readFileSync(join(tmp.dir, "invalid", "report.json"), "utf8"));
    expect(report.metrics.format_valid_rate).toBe(0.25);
    expect(report.warnings).toHaveLength(1);
    // Half or fewer invalid: no warning.
    const some = write("some.jsonl", ids.map((id, i) => JSON.stringify({ case_id: id, judgment: i % 2 === 0, evidence_sentence_ids: [] })).join("\n") + "\n");
    expect((await evalDump(some, "some")).stdout).not.toContain("WARNING");
  });
});

describe("a document slice given to sweep or classify", () => {
  it.each([["sweep"], ["classify"]])("%s says 'this is not a pair corpus' once", async (command) => {
    const r = await runMari([command, SLICE, ...(command === "sweep" ? ["--out", join(tmp.dir, "sweep"), "--progress", "none", "--workers", "1"] : [])]);
    expect(r.code).toBe(2);
    expect(r.stderr.match(/this is not a pair corpus/g)).toHaveLength(1);
    expect(r.stderr).not.toContain("bad_new");
    expect(r.stderr).toContain("looks like a document slice");
  });
});
