// Fourth round, eval-tool logs (findings 4 and 5): a log read whole is bounded like every whole-file
// input, and a sample or result nested deeper than the documented 64 levels is that record's error
// (counted as malformed_json), never a stack overflow.
import { closeSync, openSync, readFileSync, writeFileSync, writeSync, ftruncateSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_WHOLE_FILE_BYTES } from "../../src/io/input-contract.js";
import { evalLogLines } from "../../src/judges/eval-logs.js";
import { runMari, tempDir } from "../support/cli.js";
import { zipBytes } from "../support/zip.js";
import { deep, expectInputError, expectNoCrash } from "./helpers.js";
import { inspectJsonLog, inspectMembers, promptfooJsonLog, promptfooResults, sliceCases } from "./eval-log-fixtures.js";

const tmp = tempDir("mari-log-bounds-");
afterAll(() => tmp.cleanup());
const { lines: sliceLines, cases } = sliceCases(6);
const slicePath = join(tmp.dir, "slice.jsonl");
writeFileSync(slicePath, `${sliceLines.join("\n")}\n`);
const q = ["--quiet", "--progress", "none", "--workers", "1", "--report", "json"];
const TOO_DEEP = "nested deeper than 64 levels";

describe("finding 4: an inspect .json log too large to read whole", () => {
  it("is an input error naming the file (a sparse 600 MiB file: no disk is spent)", async () => {
    const path = join(tmp.dir, "huge.json");
    const fd = openSync(path, "w");
    try {
      // A one-line inspect log first (what detection reads), then 600 MiB of holes.
      writeSync(fd, `${JSON.stringify({ version: 2, eval: { task: "t" }, samples: [] })}\n`);
      ftruncateSync(fd, 600 * 1024 * 1024);
    } finally {
      closeSync(fd);
    }
    const r = await runMari(["eval", slicePath, "--predictions", path, "--out", join(tmp.dir, "o4"), ...q]);
    expectInputError(r, new RegExp(`huge\\.json: ${MAX_WHOLE_FILE_BYTES} bytes or more, above the documented limit`));
  });
});

describe("finding 5: a record nested 10^5 levels deep is that record's error", () => {
  /** Runs eval on the log; one line is rejected as too deep, the others are scored. */
  async function oneRejectedTooDeep(name: string, text: string | Buffer): Promise<void> {
    const path = join(tmp.dir, name);
    writeFileSync(path, text);
    const out = join(tmp.dir, `o-${name}`);
    const r = await runMari(["eval", slicePath, "--predictions", path, "--out", out, ...q]);
    expectNoCrash(r);
    expect([0, 1], r.stderr).toContain(r.code);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.rejections.malformed_json, JSON.stringify(report.rejections)).toBe(1);
    expect(JSON.stringify(report.rejection_examples)).toContain(TOO_DEEP);
  }

  it("promptfoo JSON: a result whose case id nests 10^5 deep", async () => {
    const log = promptfooJsonLog(cases);
    const results = (log.results as { results: Record<string, unknown>[] }).results;
    const text = JSON.stringify(log).replace(`"vars":{"case_id":"${cases[2]!.id}"}`, `"vars":{"case_id":${deep()}}`);
    expect(text).toContain(deep());
    expect(results).toHaveLength(12);
    await oneRejectedTooDeep("deep-promptfoo.json", text);
  });

  it("promptfoo JSONL: a result whose output nests 10^5 deep", async () => {
    const lines = promptfooResults(cases).map((r) => JSON.stringify(r));
    lines[3] = lines[3]!.replace(/"response":\{"output":"(?:[^"\\]|\\.)*"\}/, `"response":{"output":{"a":${deep()}}}`);
    expect(lines[3]).toContain(deep());
    await oneRejectedTooDeep("deep-promptfoo.jsonl", `${lines.join("\n")}\n`);
  });

  it("inspect .json: a sample whose id nests 10^5 deep", async () => {
    const text = JSON.stringify(inspectJsonLog(cases)).replace(`"id":"${cases[1]!.id}"`, `"id":${deep()}`);
    expect(text).toContain(deep());
    await oneRejectedTooDeep("deep-inspect.json", text);
  });

  it("inspect .eval: a sample member nesting 10^5 deep is that sample's failed prediction", async () => {
    const members = inspectMembers(cases);
    members[1] = { ...members[1]!, text: members[1]!.text.replace(`"metadata":{`, `"metadata":{"deep":${deep()},`) };
    const path = join(tmp.dir, "deep.eval");
    writeFileSync(path, zipBytes(members, 8));
    const out = join(tmp.dir, "o-deep-eval");
    const r = await runMari(["eval", slicePath, "--predictions", path, "--out", out, ...q]);
    expectNoCrash(r);
    expect([0, 1], r.stderr).toContain(r.code);
    // The message is the dump line's; the case is counted as one failed request.
    const lines = await evalLogLines(path, "inspect-eval");
    expect(lines.filter((l) => l!.includes("nests deeper than 64 levels"))).toHaveLength(1);
    expect(readFileSync(join(out, "cases.jsonl"), "utf8").match(/"reason":"request_failed"/g)).toHaveLength(1);
  });
});
