// Silent loss: how a file is read never depends on its first record alone; user-named
// keys that are Object.prototype names survive into every report table; invalid UTF-8 and
// repeated headers in CSV are rejections with their line, not U+FFFD or a silently lost column.
import { readFileSync } from "node:fs";
import { documentCaseRecords } from "../support/cases.js";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { DOC_SLICE, dumpLine, expectNoCrash, firstLines, PAIRS, write } from "./helpers.js";

const tmp = tempDir("mari-silent-loss-");
afterAll(() => tmp.cleanup());
let n = 0;
const out = () => join(tmp.dir, `out-${n++}`);
const q = ["--quiet", "--progress", "none", "--workers", "1", "--report", "json"];
const pairLines = firstLines(PAIRS, 30);
const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));

/** classify's verdict count and its rejection summary. */
async function classify(name: string, text: string | Buffer) {
  const r = await runMari(["classify", write(tmp.dir, name, text)]);
  expectNoCrash(r);
  return { verdicts: r.stdout.trim() === "" ? 0 : r.stdout.trim().split("\n").length, stderr: r.stderr };
}

describe("the first record does not decide the container", () => {
  it.each([
    ["a malformed first line", '{"id": "bad", "new": '],
    ["a first line null", "null"],
    ["a first line [1]", "[1]"],
    ["a first line 7", "7"],
  ])("%s: one rejection at line 1, every other pair read", async (_name, first) => {
    const r = await classify(`first-${n++}.jsonl`, `${[first, ...pairLines.slice(1)].join("\n")}\n`);
    expect(r.verdicts, r.stderr).toBe(pairLines.length - 1);
    expect(r.stderr).toMatch(/first-\d+\.jsonl:1: /);
    expect(r.stderr).toMatch(/1 record rejected/);
  });

  it("the same bad line on line 2 is the same one rejection", async () => {
    const r = await classify("second.jsonl", `${[pairLines[0], '{"id": "bad", "new": ', ...pairLines.slice(2)].join("\n")}\n`);
    expect(r.verdicts).toBe(pairLines.length - 1);
    expect(r.stderr).toMatch(/second\.jsonl:2: malformed_json: malformed JSON/);
  });

  it("a pretty-printed JSON array is still whole-file JSON", async () => {
    const records = pairLines.slice(0, 3).map((l) => JSON.parse(l));
    const r = await classify("pretty.json", JSON.stringify(records, null, 2));
    expect(r.verdicts, r.stderr).toBe(3);
  });

  it("a first pair without new/old is one rejected pair, not a document slice", async () => {
    const dir = out();
    const r = await runMari([
      "eval",
      write(tmp.dir, "first-no-new.jsonl", `${['{"id": "x", "kind": "value"}', ...pairLines.slice(1)].join("\n")}\n`),
      "--out",
      dir,
      ...q,
    ]);
    expectNoCrash(r);
    const report = readReport(dir);
    expect(report.task).toBe("pairs");
    expect(report.pairs.records).toBe(pairLines.length);
    expect(report.rejections).toEqual({ bad_new: 1 });
  });
});

const PROTO_NAMES = Object.getOwnPropertyNames(Object.prototype);

describe("Object.prototype names as user keys", () => {
  it("run keys, doc_type values and field names in a document eval", async () => {
    const records = firstLines(DOC_SLICE, PROTO_NAMES.length).map((l) => JSON.parse(l) as Record<string, unknown> & { id: string });
    const slice = records.map((rec, i) => JSON.stringify({ ...rec, doc_type: PROTO_NAMES[i], [`${PROTO_NAMES[i]}`]: i }));
    const dump = PROTO_NAMES.flatMap((run) => records.map((rec) => dumpLine(rec, { run })));
    const dir = out();
    const r = await runMari([
      "eval",
      write(tmp.dir, "proto-slice.jsonl", `${slice.join("\n")}\n`),
      "--predictions",
      write(tmp.dir, "proto-dump.jsonl", `${dump.join("\n")}\n`),
      "--out",
      dir,
      ...q,
    ]);
    expectNoCrash(r);
    const report = readReport(dir);
    expect(Object.keys(report.runs).sort()).toEqual([...PROTO_NAMES].sort());
    expect(Object.keys(report.breakdowns.doc_type).sort()).toEqual([...PROTO_NAMES].sort());
    const fields = (await documentCaseRecords(join(dir, "cases.jsonl"))).map((l) => Object.keys(l["fields"]));
    expect(new Set(fields.flat())).toEqual(new Set(PROTO_NAMES));
  });

  it("pair kinds in confusion_by_kind", async () => {
    const lines = PROTO_NAMES.map((kind, i) => JSON.stringify({ ...JSON.parse(pairLines[i % pairLines.length]!), id: `p${i}`, kind }));
    const dir = out();
    const r = await runMari(["eval", write(tmp.dir, "proto-pairs.jsonl", `${lines.join("\n")}\n`), "--out", dir, ...q]);
    expectNoCrash(r);
    expect(Object.keys(readReport(dir).confusion_by_kind).sort()).toEqual([...PROTO_NAMES].sort());
  });
});

describe("CSV", () => {
  it("invalid UTF-8 in a record: invalid_utf8 at its line, the others read", async () => {
    const bytes = Buffer.concat([Buffer.from("id,new,old\na,caf"), Buffer.from([0xe9]), Buffer.from(",old text\nb,new text,old text\n")]);
    const r = await classify("latin1.csv", bytes);
    expect(r.verdicts).toBe(1);
    expect(r.stderr).toMatch(/latin1\.csv:2: invalid_utf8: line is not valid UTF-8/);
    expect(r.stderr).toMatch(/invalid_utf8: 1/);
  });

  it.each([["gold,gold"], ["new,new"]])("a repeated header column (%s) is refused", async (cols) => {
    const [a] = cols.split(",");
    const r = await classify(`dup-${a}.csv`, `id,new,old,${cols}\nx,y,z,w,v\n`);
    expect(r.verdicts).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`dup-${a}\\.csv:1: malformed_csv: malformed CSV: the header names column "${a}" more than once`));
  });

  it("invalid UTF-8 in a CSV slice is a slice error with its line", async () => {
    const bytes = Buffer.concat([Buffer.from('id,text,label\na,"One. Two'), Buffer.from([0xff]), Buffer.from('.",false\n')]);
    const r = await runMari(["eval", write(tmp.dir, "bad-slice.csv", bytes), "--out", out(), ...q]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad-slice\.csv:2: .*not valid UTF-8/);
  });
});
