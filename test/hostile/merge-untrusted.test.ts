// Crashes: `mari merge` reads shard reports and their cases.jsonl as untrusted input.
// A wrong-typed field, a negative count or a malformed line is exit 2 naming the file (and the
// line for cases.jsonl), never exit 3 and never a merged report that fails the schema.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { withoutCasesDigest } from "../support/cases.js";
import { evalShards } from "../support/shards.js";
import { DOC_SLICE, expectInputError, PAIRS } from "./helpers.js";

const tmp = tempDir("mari-merge-untrusted-");
afterAll(() => tmp.cleanup());
let n = 0;

const shards = (name: string, slice: string) => evalShards(tmp.dir, name, slice);

/** A copy of shard 1 with its report or cases changed by `edit`; returns the merge's result. */
async function mergeWith(dirs: string[], edit: (dir: string) => void) {
  const broken = join(tmp.dir, `broken-${n++}`);
  cpSync(dirs[1]!, broken, { recursive: true });
  // Without its cases digest (a hand-made report), so each line check is what speaks.
  editJson(join(broken, "report.json"), withoutCasesDigest);
  edit(broken);
  return runMari(["merge", join(dirs[0]!, "report.json"), join(broken, "report.json"), "--out", join(tmp.dir, `merged-${n}`), "--quiet"]);
}

function editJson(path: string, change: (value: any) => void): void {
  const value = JSON.parse(readFileSync(path, "utf8"));
  change(value);
  writeFileSync(path, JSON.stringify(value));
}
const editLine = (path: string, index: number, change: (row: any) => void) => {
  const lines = readFileSync(path, "utf8").split("\n");
  const row = JSON.parse(lines[index]!);
  change(row);
  lines[index] = JSON.stringify(row);
  writeFileSync(path, lines.join("\n"));
};
const firstPredictedLine = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .findIndex((l) => l.includes('"line":'));

describe("document shards", () => {
  let dirs: [string, string];
  beforeAll(async () => {
    dirs = await shards("doc", DOC_SLICE);
  });

  // Run lines (compact layout) are checked by the reader (types), then the expanded record against
  // the shape the merge reads (ranges); matched_evidence_count and reward_accuracy are derived.
  it.each([
    ["reference_coverage", "x", /not a valid run line: reference_coverage/],
    ["evidence_sentence_ids", 5, /not a valid run line: evidence_sentence_ids/],
    ["line", -3, /not a valid run line: line/],
    ["judgment", "yes", /not a valid run line: judgment/],
    ["reference_coverage", 1.5, /not a valid case line: reference_coverage/],
    ["evidence_sentence_ids", [2 ** 40], /not a valid case line: evidence_sentence_ids/],
  ])("a run line whose %s is %j: exit 2 at cases.jsonl:LINE", async (field, value, message) => {
    let at = 0;
    const r = await mergeWith(dirs, (dir) => {
      const cases = join(dir, "cases.jsonl");
      at = firstPredictedLine(cases);
      editLine(cases, at, (row) => {
        row[field] = value;
      });
    });
    expectInputError(r, new RegExp(`cases\\.jsonl:${at + 1}: .*${message.source}`));
  });

  it("a malformed case line: exit 2 with its line number", async () => {
    const r = await mergeWith(dirs, (dir) => {
      const cases = join(dir, "cases.jsonl");
      const lines = readFileSync(cases, "utf8").split("\n");
      lines[2] = "{not json";
      writeFileSync(cases, lines.join("\n"));
    });
    expectInputError(r, /cases\.jsonl:3: malformed JSON/);
  });

  it("a negative rejection count in the report: exit 2 naming the report", async () => {
    const r = await mergeWith(dirs, (dir) => editJson(join(dir, "report.json"), (rep) => void (rep.shard.line_rejections = { malformed_json: -5 })));
    expectInputError(r, /report\.json: not a valid shard report: shard\.line_rejections\.malformed_json/);
  });

  it("a report that fails the report schema: exit 2 naming it", async () => {
    const r = await mergeWith(dirs, (dir) => editJson(join(dir, "report.json"), (rep) => void (rep.metrics = "high")));
    expectInputError(r, /report\.json: not a valid shard report \(schema\/report\.schema\.json\): metrics/);
  });
});

describe("pair shards", () => {
  let dirs: [string, string];
  beforeAll(async () => {
    dirs = await shards("pairs", PAIRS);
  });

  it("a case line without a string id: exit 2 with its line", async () => {
    const r = await mergeWith(dirs, (dir) => editLine(join(dir, "cases.jsonl"), 1, (row) => void (row.id = 7)));
    expectInputError(r, /cases\.jsonl:2: not a valid case line: id/);
  });

  it("a malformed case line: exit 2 with its line", async () => {
    const r = await mergeWith(dirs, (dir) => {
      const cases = join(dir, "cases.jsonl");
      writeFileSync(cases, readFileSync(cases, "utf8").replace(/\n/, "\n[1\n"));
    });
    expectInputError(r, /cases\.jsonl:2: malformed JSON/);
  });
});
