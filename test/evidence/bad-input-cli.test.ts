// `mari evidence` on inputs with one fault per line: each bad record of the documents, facts,
// located and materials files is reported as file:line: code, counted by code in the report, and the
// good records are still scored; --strict turns any of them into exit 2. A bad entry inside a
// located case fails that case (with its code), never the run.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";

const { dir, cleanup } = tempDir("mari-evidence-bad-");
afterAll(cleanup);

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
const REF = { namespace: "n", object_id: "o", revision: "1" };

const files = {
  docs: jsonl([
    { source_id: "kb", external_id: "a", revision: "1", body: "Alpha text here.\n" },
    { source_id: "kb", external_id: "b", revision: 2, body: "x" },
    { document_id: "kb/c", source_id: "other", revision: "1", body: "y" },
    { source_id: "kb", external_id: "d", revision: "1", body: "Delta.", title: 5 },
  ]),
  facts: jsonl([
    {
      case_id: "ok",
      documents: ["kb/a"],
      gold_state: "supported",
      output: { facts: [{ claim: "Alpha.", evidence: [{ document_id: "kb/a", quote: "Alpha text" }] }] },
    },
    { case_id: "bad-gold", documents: ["kb/a"], gold_state: { "Alpha.": "maybe" }, output: { facts: [] } },
    {
      case_id: "bad-score",
      documents: ["kb/a"],
      output: { facts: [{ claim: "Alpha.", evidence: [{ document_id: "kb/a", quote: "Alpha", entailment: "high" }] }] },
    },
  ]),
  located: jsonl([
    { case_id: "l-ok", evidence: [{ ref: REF, locator: { type: "TextSpan", start: 0, end: 5 }, quote: "Hello" }] },
    { case_id: "l-visible", visible: "all", evidence: [] },
    { case_id: "l-visible2", visible: [{ namespace: "n" }], evidence: [] },
    { case_id: "l-region", evidence: [{ ref: REF, locator: { type: "PageRegion", page: 1, bounding_box: [0, 0, 1, 1] }, quote: "Hello" }] },
    { case_id: "l-unknown", evidence: [{ ref: REF, locator: { type: "Nope" }, quote: "Hello" }] },
    { case_id: "l-scope", evidence: [{ ref: { ...REF, scope: "acme" }, quote: "Hello" }] },
  ]),
  materials: jsonl([
    { ref: REF, material: "Hello world" },
    { ref: REF, material: "again" },
    { ref: { ...REF, object_id: "p" } },
    { ref: "n/o", material: "x" },
  ]),
};

function write(): Record<keyof typeof files, string> {
  const paths = {} as Record<keyof typeof files, string>;
  for (const [name, text] of Object.entries(files) as [keyof typeof files, string][]) {
    paths[name] = join(dir, `${name}.jsonl`);
    writeFileSync(paths[name], text);
  }
  // A fifth documents line that is not UTF-8.
  writeFileSync(paths.docs, Buffer.concat([Buffer.from(files.docs), Buffer.from([0xff, 0xfe, 0x0a])]));
  return paths;
}

describe("mari evidence: bad input records", () => {
  it("reports each bad record as file:line: code, counts it, and scores the rest", async () => {
    const p = write();
    const out = join(dir, "out");
    const r = await runMari([
      "evidence",
      p.docs,
      "--facts",
      p.facts,
      "--located",
      p.located,
      "--materials",
      p.materials,
      "--out",
      out,
      "--quiet",
      "--report",
      "json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const expected = [
      [p.docs, 2, "bad_document", '"revision" must be a string'],
      [p.docs, 3, "bad_document", '"document_id" "kb/c" does not match source_id/external_id'],
      [p.docs, 4, "bad_document", '"title" must be a string'],
      [p.docs, 5, "invalid_utf8", "line is not valid UTF-8"],
      [p.facts, 2, "bad_gold_state", '"gold_state" for "Alpha." must be'],
      [p.facts, 3, "bad_score", '"entailment" scores must be numbers from 0 to 1'],
      [p.materials, 2, "duplicate_material", "a material for this ref was given earlier; the first is kept"],
      [p.materials, 3, "bad_material", '"material" is required'],
      [p.materials, 4, "bad_material", '"ref" must be an object'],
      [p.located, 2, "bad_visible_refs", '"visible" must be an array of refs or null'],
      [p.located, 3, "bad_visible_refs", '"visible": "object_id" is required'],
    ] as const;
    // stderr lists the first ten rejected records, then points at the report for the rest.
    for (const [file, line, code, message] of expected.slice(0, 10)) expect(r.stderr).toContain(`${file}:${line}: ${code}: ${message}`);
    expect(r.stderr).toContain("… and 1 more (see report.json)");
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    for (const [file, line, code, message] of expected) {
      expect(report.rejection_examples).toContainEqual(
        expect.objectContaining({ where: `${file}:${line}`, reason: code, message: expect.stringContaining(message) }),
      );
    }
    const byCode: Record<string, number> = {};
    for (const [, , code] of expected) byCode[code] = (byCode[code] ?? 0) + 1;
    byCode.bad_located_entry = 2; // l-unknown and l-scope, failed as cases below
    expect(report.rejections).toEqual(byCode);

    const located = readFileSync(join(out, "located.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(located.map((c) => [c.case_id, c.line, c.accepted, c.error?.code ?? null])).toEqual([
      ["l-ok", 1, true, null],
      ["l-region", 4, false, null],
      ["l-unknown", 5, false, "bad_located_entry"],
      ["l-scope", 6, false, "bad_located_entry"],
    ]);
    expect(located[1].issues).toEqual([{ index: 0, kind: "unsupported_locator", detail: "PageRegion requires a caller locator" }]);
    expect(located[2].error.message).toContain('"locator.type" must be one of TextSpan');
    expect(located[3].error.message).toContain('"evidence[0].ref.scope" must be an object');
    const cases = readFileSync(join(out, "cases.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(cases.map((c) => c.case_id)).toEqual(["ok"]);
  });

  it("--strict exits 2 on the same input", async () => {
    const p = write();
    const r = await runMari(["evidence", p.docs, "--facts", p.facts, "--out", join(dir, "strict"), "--quiet", "--strict"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${p.docs}:2: bad_document`);
  });

  it("a documents path that is a directory, or missing, is exit 2 naming it", async () => {
    const p = write();
    const asDir = await runMari(["evidence", dir, "--facts", p.facts, "--out", join(dir, "d1"), "--quiet"]);
    expect(asDir.code).toBe(2);
    expect(asDir.stderr).toContain(`${dir}: is a directory, not a regular file`);
    const missing = join(dir, "absent.jsonl");
    const gone = await runMari(["evidence", p.docs, "--facts", missing, "--out", join(dir, "d2"), "--quiet"]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain(missing);
  });
});
