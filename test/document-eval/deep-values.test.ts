// A dump line whose value is nested deeper than the stack (JSON.parse copes, JSON.stringify does
// not) is never an internal error: past the documented depth (64 levels) the line is a
// counted malformed_json rejection at its file:line, and the other lines are scored.
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMari, tempDir } from "../support/cli.js";
import { TINY_SLICE, writeJsonl } from "./helpers.js";

describe("deeply nested values in a dump", () => {
  it("are malformed_json rejections at their lines; the rest is scored, exit 0", async () => {
    const { dir, cleanup } = tempDir("mari-deep-");
    try {
      const slice = writeJsonl(dir, "slice.jsonl", TINY_SLICE);
      const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
      const dump = join(dir, "dump.jsonl");
      writeFileSync(
        dump,
        `{"case_id":"A","judgment":${deep}}\n{"case_id":"B","judgment":false,"evidence_sentence_ids":{"a":${deep}}}\n{"case_id":"A","judgment":true,"evidence_sentence_ids":[1]}\n`,
      );
      const r = await runMari(["eval", slice, "--predictions", dump, "--out", join(dir, "out"), "--report", "json", "--quiet", "--workers", "1"]);
      expect(r.stderr).not.toContain("internal error");
      expect(r.code).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, "out", "report.json"), "utf8"));
      expect(report.rejections.malformed_json).toBe(2);
      expect(report.rejection_examples.filter((e: any) => e.reason === "malformed_json").map((e: any) => e.where)).toEqual([`${dump}:1`, `${dump}:2`]);
      expect(r.stderr).toContain(`${dump}:1: malformed_json: malformed JSON: nested deeper than 64 levels`);
    } finally {
      cleanup();
    }
  });
});
