// A dump line whose value is nested deeper than the stack (JSON.parse copes, JSON.stringify does
// not) is a format-invalid prediction with its reason, not an internal error.
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMari, tempDir } from "../support/cli.js";
import { TINY_SLICE, writeJsonl } from "./helpers.js";

describe("deeply nested values in a dump", () => {
  it("score as bad_judgment / bad_evidence_field, exit 0", async () => {
    const { dir, cleanup } = tempDir("mari-deep-");
    try {
      const slice = writeJsonl(dir, "slice.jsonl", TINY_SLICE);
      const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
      const dump = join(dir, "dump.jsonl");
      writeFileSync(dump, `{"case_id":"A","judgment":${deep}}\n{"case_id":"B","judgment":false,"evidence_sentence_ids":{"a":${deep}}}\n`);
      const r = await runMari(["eval", slice, "--predictions", dump, "--out", join(dir, "out"), "--report", "json", "--quiet", "--workers", "1"]);
      expect(r.stderr).not.toContain("internal error");
      expect(r.code).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, "out", "report.json"), "utf8"));
      expect(report.rejections.bad_judgment).toBe(1);
      expect(report.rejections.bad_evidence_field).toBe(1);
    } finally {
      cleanup();
    }
  });
});
