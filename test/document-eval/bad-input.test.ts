// docs/hostile-input.md through the built CLI (run `npm run build` first): every bad input gives a precise
// file:line message, is counted under its reason, and unusable files exit 2.
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMari, tempDir } from "../support/cli.js";
import { TINY_SLICE, writeJsonl } from "./helpers.js";

const tmp = tempDir("mari-doc-bad-");
afterAll(() => tmp.cleanup());
const slice = writeJsonl(tmp.dir, "slice.jsonl", TINY_SLICE);
const good = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ case_id: id, judgment: id !== "B", evidence_sentence_ids: id === "B" ? [] : [id === "A" ? 1 : 2], ...extra });

let counter = 0;
async function evalDump(content: string | Buffer, extraArgs: string[] = [], slicePath = slice) {
  const name = `dump-${++counter}.jsonl`;
  const dump = join(tmp.dir, name);
  writeFileSync(dump, content);
  const out = join(tmp.dir, `out-${counter}`);
  const result = await runMari(["eval", slicePath, "--predictions", dump, "--out", out, "--progress", "none", "--quiet", ...extraArgs]);
  let report: any = null;
  try {
    report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
  } catch {
    // no report (fatal input error)
  }
  return { ...result, report, dump };
}

describe("dump lines", () => {
  it("malformed JSON: counted with file:line", async () => {
    const r = await evalDump(`${good("A")}\n{"case_id": "B",\n${good("C")}\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.report.rejections.malformed_json).toBe(1);
    expect(r.stderr).toContain(`${r.dump}:2: malformed_json`);
    expect(r.report.rejection_examples[0]).toMatchObject({ where: `${r.dump}:2`, reason: "malformed_json" });
  });

  it("BOM and CRLF are read transparently", async () => {
    const r = await evalDump(`\uFEFF${good("A")}\r\n${good("B")}\r\n${good("C")}\r\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.report.rejections).toEqual({});
    expect(r.report.metrics.accuracy).toBe(1);
  });

  it("blank lines are counted", async () => {
    const r = await evalDump(`${good("A")}\n\n   \n${good("B")}\n`);
    expect(r.report.rejections.blank_line).toBe(2);
    expect(r.report.rejection_examples.map((e: any) => e.where)).toContain(`${r.dump}:3`);
  });

  it("empty dump: zero cases scored, exit 2", async () => {
    const r = await evalDump("");
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("zero cases scored");
  });

  it("invalid UTF-8 on one line", async () => {
    const r = await evalDump(Buffer.concat([Buffer.from(`${good("A")}\n{"case_id":"B","x":"`), Buffer.from([0xff, 0xfe]), Buffer.from(`"}\n${good("C")}\n`)]));
    expect(r.code, r.stderr).toBe(0);
    expect(r.report.rejections.invalid_utf8).toBe(1);
    expect(r.stderr).toContain(`${r.dump}:2: invalid_utf8`);
  });

  it("NaN / Infinity are malformed JSON", async () => {
    const r = await evalDump(`{"case_id":"A","judgment":NaN}\n{"case_id":"B","judgment":false,"x":Infinity}\n`);
    expect(r.report.rejections.malformed_json).toBe(2);
    expect(r.code, r.stderr).toBe(2); // nothing kept: zero cases scored
  });

  it("unknown case ids are orphans, listed; duplicates keep the first line", async () => {
    const r = await evalDump(`${good("A")}\n${good("ZZ")}\n${good("ZZ")}\n${good("A", { judgment: false, evidence_sentence_ids: [] })}\n`);
    expect(r.report.orphans).toMatchObject({ count: 2, examples: ["ZZ"] });
    expect(r.report.rejections.duplicate_prediction).toBe(1);
    expect(r.report.rejection_examples.find((e: any) => e.reason === "duplicate_prediction").where).toBe(`${r.dump}:4`);
    expect(r.report.runs["0"].tp).toBe(1);
  });

  it("bad case id and bad run key", async () => {
    const r = await evalDump(`{"case_id":7,"judgment":true}\n${good("A", { run: 1.5 })}\n${good("B", { run: [1] })}\n[1]\n${good("C")}\n`);
    expect(r.report.rejections).toMatchObject({ bad_case_id: 1, bad_run_key: 2, not_an_object: 1 });
  });

  it("a 10 MB line is scored", async () => {
    const reasoning = "x".repeat(10 * 1024 * 1024) + " [1]";
    const r = await evalDump(`${good("A", { reasoning })}\n${good("B")}\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.report.runs["0"].tp).toBe(1);
    expect(r.report.rejections).toMatchObject({ missing_prediction: 1 });
  });

  it("__proto__ keys are plain data", async () => {
    const r = await evalDump(
      `{"__proto__":{"judgment":true},"case_id":"A","judgment":true,"evidence_sentence_ids":[1]}\n{"case_id":"__proto__","judgment":true}\n`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.report.orphans.examples).toEqual(["__proto__"]);
    expect(({} as any).judgment).toBeUndefined();
  });

  it("--strict turns a rejected line into exit 2 (after writing the report)", async () => {
    const r = await evalDump(`${good("A")}\nnope\n${good("B")}\n${good("C")}\n`, ["--strict"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("--strict");
    expect(r.report.rejections.malformed_json).toBe(1);
    const clean = await evalDump(`${good("A")}\n${good("B")}\n${good("C")}\n`, ["--strict"]);
    expect(clean.code, clean.stderr).toBe(0);
  });
});

describe("slice errors name file:line; a bad record is left out alone unless --strict", () => {
  const dump = writeJsonl(tmp.dir, "ok-dump.jsonl", [JSON.parse(good("A"))]);
  const evalSlice = (rows: unknown[], name: string, extra: string[] = []) => {
    const path = writeJsonl(tmp.dir, name, rows);
    return runMari(["eval", path, "--predictions", dump, "--out", join(tmp.dir, `o-${name}`), "--progress", "none", "--quiet", ...extra]).then((r) => ({
      ...r,
      path,
    }));
  };

  it("duplicate id: the later record is left out and listed; --strict stops", async () => {
    const r = await evalSlice([TINY_SLICE[0], TINY_SLICE[1], TINY_SLICE[0]], "dup.jsonl");
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(tmp.dir, "o-dup.jsonl", "report.json"), "utf8"));
    expect(report.dataset).toMatchObject({ cases: 2, rejected_records: 1 });
    expect(report.warnings).toContain(`${r.path}:3: slice error: duplicate id "A" (first at ${r.path}:1) (record left out)`);
    const strict = await evalSlice([TINY_SLICE[0], TINY_SLICE[1], TINY_SLICE[0]], "dup-strict.jsonl", ["--strict"]);
    expect(strict.code, strict.stderr).toBe(2);
    expect(strict.stderr).toContain(`${strict.path}:3: slice error: duplicate id "A" (first at ${strict.path}:1)`);
  });

  it("a bad record among good ones is its own error, at its line", async () => {
    const r = await evalSlice([TINY_SLICE[0], { id: "Q", text: "x", label: "maybe" }, TINY_SLICE[1]], "one-bad.jsonl");
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(tmp.dir, "o-one-bad.jsonl", "report.json"), "utf8"));
    expect(report.dataset).toMatchObject({ cases: 2, rejected_records: 1 });
    expect(report.warnings).toEqual([`${r.path}:2: slice error: unusable label "maybe" (record left out)`]);
  });

  it("positive without resolvable gold", async () => {
    const r = await evalSlice([{ id: "P", text: "One. Two.", label: true, evidence: "  " }], "nogold.jsonl");
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${r.path}:1: slice error: a positive case needs gold evidence`);
  });

  it("gold outside the document, missing text, unusable label", async () => {
    const a = await evalSlice([{ id: "P", text: "One. Two.", label: true, gold_sentence_ids: [3] }], "gold3.jsonl");
    expect(a.stderr).toContain(`${a.path}:1: slice error: gold_sentence_ids entry 3 is outside the document (1..2)`);
    const b = await evalSlice([{ id: "P", label: false }], "notext.jsonl");
    expect(b.stderr).toContain(`${b.path}:1: slice error: missing text`);
    const c = await evalSlice([{ id: "P", text: "x", label: "maybe" }], "label.jsonl");
    expect(c.stderr).toContain(`${c.path}:1: slice error: unusable label "maybe"`);
    expect([a.code, b.code, c.code]).toEqual([2, 2, 2]);
  });

  it("an unwritable --out is an input error: a file in the way of its folder says so", async () => {
    const file = join(tmp.dir, "a-file");
    writeFileSync(file, "");
    const r = await runMari(["eval", join(tmp.dir, "slice.jsonl"), "--predictions", join(tmp.dir, "ok-dump.jsonl"), "--out", join(file, "sub"), "--quiet"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--out ${join(file, "sub")}: a file is in the way (--out names a folder for the reports)`);
  });

  it("a missing dump is an input error", async () => {
    const r = await runMari([
      "eval",
      join(tmp.dir, "slice.jsonl"),
      "--predictions",
      join(tmp.dir, "no-dump.jsonl"),
      "--out",
      join(tmp.dir, "o-nodump"),
      "--quiet",
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("cannot read the dump (ENOENT)");
  });

  it("missing and empty slice files", async () => {
    const missing = await runMari(["eval", join(tmp.dir, "nope.jsonl"), "--predictions", dump, "--out", join(tmp.dir, "o-missing"), "--quiet"]);
    expect(missing.code, missing.stderr).toBe(2);
    writeFileSync(join(tmp.dir, "empty.jsonl"), "");
    const empty = await runMari(["eval", join(tmp.dir, "empty.jsonl"), "--predictions", dump, "--out", join(tmp.dir, "o-empty"), "--quiet"]);
    expect(empty.code, empty.stderr).toBe(2);
    expect(empty.stderr).toContain("the slice has no cases");
  });

  it("CSV and ContraDoc JSON slices read the same cases", async () => {
    const csv = join(tmp.dir, "s.csv");
    writeFileSync(csv, 'id,label,evidence,scope,text\nA,true,"second one","[""local""]","First one. The second one!\nThird."\nB,0,,,"Only."\n');
    const contradoc = join(tmp.dir, "s.json");
    writeFileSync(
      contradoc,
      JSON.stringify(
        { pos: { A: { text: "First one. The second one!\nThird.", evidence: "second one", scope: "local" } }, neg: { B: { text: "Only." } } },
        null,
        2,
      ),
    );
    const d = writeJsonl(tmp.dir, "csv-dump.jsonl", [
      { case_id: "A", judgment: true, evidence_sentence_ids: [2] },
      { case_id: "B", judgment: false },
    ]);
    for (const path of [csv, contradoc]) {
      const out = join(tmp.dir, `o-${path.endsWith("csv") ? "csv" : "json"}`);
      const r = await runMari(["eval", path, "--predictions", d, "--out", out, "--quiet", "--progress", "none"]);
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
      expect(report.metrics).toMatchObject({ accuracy: 1, localization_recall: 1, exact_localization: 1 });
      expect(Object.keys(report.breakdowns.scope)).toEqual(["local"]);
    }
  });
});
