// Parity corners decided by running the reference: a bare "" (or whitespace) evidence
// entry names no document, even when exactly one is visible, so it is unknown_document (the
// reference recovers a document only for a non-empty quote), through the real CLI. An empty think
// block (`<think>\n</think>`) is a well-formed completion (decided; docs/core-document.md).
import { readFileSync } from "node:fs";
import { documentCaseRecords } from "../support/cases.js";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { DOC_SLICE, EVIDENCE_DOCS, firstLines, write } from "./helpers.js";

const tmp = tempDir("mari-parity-");
afterAll(() => tmp.cleanup());

it.each([[""], ["   "]])("bare evidence %j with one visible document: unknown_document", async (quote) => {
  const facts = write(
    tmp.dir,
    "facts.jsonl",
    `${JSON.stringify({ case_id: "bare", documents: ["kb/refunds"], output: { facts: [{ claim: "Refunds close.", evidence: [quote] }] } })}\n`,
  );
  const out = join(tmp.dir, `out-${quote.length}`);
  const r = await runMari(["evidence", EVIDENCE_DOCS, "--facts", facts, "--out", out, "--quiet", "--progress", "none"]);
  expect(r.code, r.stderr).toBeLessThan(2);
  const line = JSON.parse(readFileSync(join(out, "cases.jsonl"), "utf8").trim());
  expect(line.error.code).toBe("unknown_document");
});

it("an empty think block is format-valid", async () => {
  const [first] = firstLines(DOC_SLICE, 1).map((l) => JSON.parse(l) as { id: string; label: unknown });
  const slice = write(tmp.dir, "one.jsonl", `${firstLines(DOC_SLICE, 1)[0]}\n`);
  const completion = "<think>\n</think>\n<answer>\nJudgment: no\nEvidence: []\n</answer>";
  const dump = write(tmp.dir, "think.jsonl", `${JSON.stringify({ case_id: first!.id, completion })}\n`);
  const out = join(tmp.dir, "think");
  const r = await runMari(["eval", slice, "--predictions", dump, "--out", out, "--quiet", "--progress", "none", "--workers", "1"]);
  expect(r.code, r.stderr).toBeLessThan(2);
  const [line] = await documentCaseRecords(join(out, "cases.jsonl"));
  expect(line!.format_valid).toBe(true);
  expect(line!.reward_format).toBe(1);
});
