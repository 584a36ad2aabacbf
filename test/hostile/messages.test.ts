// Messages: orphans are named at the dump line where their case id first appears (on
// stderr and in report.json); integers beyond 2^53 say so instead of "not an integer" or "must be a
// number"; conflicting evidence documents get the reference's full message.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { DOC_SLICE, dumpLine, expectNoCrash, firstLines, write } from "./helpers.js";

const tmp = tempDir("mari-messages-");
afterAll(() => tmp.cleanup());
const sliceLines = firstLines(DOC_SLICE, 3);
const slice = write(tmp.dir, "slice.jsonl", `${sliceLines.join("\n")}\n`);
const records = sliceLines.map((l) => JSON.parse(l) as { id: string });
const q = ["--progress", "none", "--workers", "1", "--report", "json"];

describe("document dumps", () => {
  it("orphans: file:line of each example's first line, on stderr and in report.json", async () => {
    const lines = [dumpLine(records[0]!), dumpLine({ id: "ghost" }), dumpLine(records[1]!), dumpLine({ id: "ghost" }), dumpLine({ id: "spirit" })];
    const dump = write(tmp.dir, "orphans.jsonl", `${lines.join("\n")}\n`);
    const out = join(tmp.dir, "o1");
    const r = await runMari(["eval", slice, "--predictions", dump, "--out", out, ...q]);
    expectNoCrash(r);
    expect(r.stderr).toContain(`${dump}:2: orphan: case id "ghost" is not in the slice (not scored)`);
    expect(r.stderr).toContain(`${dump}:5: orphan: case id "spirit" is not in the slice (not scored)`);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.orphans).toEqual({ count: 3, examples: ["ghost", "spirit"], first_lines: [2, 5] });
  });

  it('"run": 9007199254740992 says beyond 2^53', async () => {
    const dump = write(tmp.dir, "bigrun.jsonl", `${dumpLine(records[0]!, { run: 9007199254740992 })}\n${dumpLine(records[1]!)}\n`);
    const out = join(tmp.dir, "o2");
    const r = await runMari(["eval", slice, "--predictions", dump, "--out", out, ...q, "--quiet"]);
    expectNoCrash(r);
    expect(r.stderr).toContain(`${dump}:1: bad_run_key: run (or sample) is an integer beyond 2^53 (9007199254740992): give it as a string`);
  });
});

describe("evidence", () => {
  const EX = join(ROOT, "datasets/evidence-example");

  it("a conflicting --current document: exit 2 at its file:line with the full message", async () => {
    const current = readFileSync(join(EX, "current.jsonl"), "utf8").trimEnd().split("\n");
    const conflicting = current[0]!.replace(/"revision": "[^"]+"/, '"revision": "v9"');
    const path = write(tmp.dir, "current.jsonl", `${[...current, conflicting].join("\n")}\n`);
    const r = await runMari([
      "evidence",
      join(EX, "docs.jsonl"),
      "--facts",
      join(EX, "facts.jsonl"),
      "--current",
      path,
      "--out",
      join(tmp.dir, "o4"),
      "--quiet",
      "--progress",
      "none",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `${path.replace(/[.]/g, "\\.")}:${current.length + 1}: conflicting documents share document_id '.+' \\(revisions '.+' and 'v9'\\); provide one consistent document per document_id or namespace the documents`,
      ),
    );
  });

  it('a located "start": 9007199254740993 says beyond 2^53', async () => {
    const first = readFileSync(join(EX, "located.jsonl"), "utf8").split("\n")[0]!.replace('"start": 8', '"start": 9007199254740993');
    const located = write(tmp.dir, "located.jsonl", `${first}\n`);
    const out = join(tmp.dir, "o3");
    const r = await runMari([
      "evidence",
      join(EX, "docs.jsonl"),
      "--located",
      located,
      "--materials",
      join(EX, "materials.jsonl"),
      "--out",
      out,
      "--quiet",
      "--progress",
      "none",
    ]);
    expectNoCrash(r);
    expect(readFileSync(join(out, "located.jsonl"), "utf8")).toContain('\\"start\\" is an integer beyond 2^53 (9007199254740992)');
  });
});
