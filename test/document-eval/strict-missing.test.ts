// What --strict objects to (docs/eval.md): rejected dump lines, orphans and format-invalid kept
// predictions, but not slice cases the dump has no line for (a partial dump is a choice, and is
// already visible as missing_prediction).
import { afterAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { evaluateDocuments } from "../../src/tasks/document/evaluate.js";
import { tempDir } from "../support/cli.js";
import { TINY_SLICE, writeJsonl } from "./helpers.js";

const { dir, cleanup } = tempDir("mari-strict-");
afterAll(cleanup);
const slicePath = writeJsonl(dir, "slice.jsonl", TINY_SLICE);
const A = { case_id: "A", judgment: true, evidence_sentence_ids: [1] };
const B = { case_id: "B", judgment: false };

async function strictRun(name: string, lines: unknown[]) {
  const dumpPath = writeJsonl(dir, `${name}.jsonl`, lines);
  return evaluateDocuments({ slicePath, dumpPath, outDir: join(dir, name), workers: 1, strict: true, formats: ["json"] });
}

describe("--strict", () => {
  it("accepts a dump that leaves cases out", async () => {
    const outcome = await strictRun("partial", [A, B]);
    expect(outcome.report.rejections).toEqual({ missing_prediction: 1 });
    expect(outcome.inputErrors).toEqual([]);
  });

  it("objects to a rejected line, an orphan and a format-invalid prediction, naming each", async () => {
    const outcome = await strictRun("bad", [A, B, "{oops", { case_id: "Z", judgment: false }, { case_id: "C", judgment: "maybe" }]);
    expect(outcome.inputErrors).toEqual(["--strict: 1 × malformed_json, 1 × bad_judgment, 1 orphan line(s)"]);
  });
});
