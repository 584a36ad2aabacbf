// A format-invalid run on report.html carries the scorer's message for its dump line: the one
// scoreCase gives that line, whichever way the eval found it (one message per reason, or the
// line's own, as for a quoted evidence that is not in the document). Real CLI, with and without
// --lenient-ids; every failed run of the page checked against scoreCase.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseDumpLine } from "../../src/io/dump.js";
import { readDocumentSlice } from "../../src/io/slice.js";
import type { ExplorerData } from "../../src/report/explorer.js";
import { scoreCase } from "../../src/tasks/document/score.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const { dir, cleanup } = tempDir("mari-explorer-messages-");
afterAll(cleanup);

const completion = (think: string, judgment: string, evidence: string) =>
  `<think>\n${think}\n</think>\n<answer>\nJudgment: ${judgment}\nEvidence: ${evidence}\n</answer>`;

/** One line of each kind of failure (and a valid one), for a case whose first sentence is `first`. */
function predictions(first: string): Array<Record<string, unknown>> {
  return [
    { judgment: true, evidence_sentence_ids: [999], reasoning: "r" },
    { completion: completion("x", "yes", '["no such sentence anywhere in it"]') },
    { completion: completion("x", "yes", `[${JSON.stringify(first.slice(0, 20))}, 999]`) },
    { completion: completion("x", "yes", "[999]") },
    { completion: completion("see [9999]", "no", "[]") },
    { judgment: false, evidence_sentence_ids: [], reasoning: "see [9999]" },
    { judgment: true, evidence_sentence_ids: [], reasoning: "r" },
    { judgment: false, evidence_sentence_ids: [1], reasoning: "r" },
    { judgment: true, evidence_sentence_ids: [1.5], reasoning: "r" },
    { judgment: true, evidence_sentence_ids: ["1"], reasoning: "r" },
    { judgment: true, evidence_sentence_ids: ["999"], reasoning: "r" },
    { judgment: "maybe", evidence_sentence_ids: [] },
    { judgment: false, evidence_sentence_ids: [], reasoning: 7 },
    { completion: "yes, without the tags" },
    { prediction: { error: { code: "answer_not_json", message: "answer is not JSON" }, raw: "Sure" } },
    { judgment: false, evidence_sentence_ids: [], reasoning: "fine" },
  ];
}

describe("report.html: a failed run's message", () => {
  it("is the scorer's for its line, a reason's one message or the line's own", async () => {
    const slicePath = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
    const slice = await readDocumentSlice(slicePath);
    const cases = slice.cases.slice(0, 3);
    const lines = cases.flatMap((c) => predictions(c.sentences[0]!).map((p, run) => JSON.stringify({ case_id: c.id, run, ...p })));
    const dump = join(dir, "dump.jsonl");
    writeFileSync(dump, `${lines.join("\n")}\n`);
    for (const lenientIds of [false, true]) {
      const out = join(dir, lenientIds ? "lenient" : "strict");
      const r = await runMari([
        "eval",
        slicePath,
        "--predictions",
        dump,
        "--out",
        out,
        "--quiet",
        "--progress",
        "none",
        ...(lenientIds ? ["--lenient-ids"] : []),
      ]);
      expect(r.code).toBe(0);
      const html = readFileSync(join(out, "report.html"), "utf8");
      const data = JSON.parse(/<script type="application\/json" id="mari-explorer-data">(.*?)<\/script>/s.exec(html)![1]!) as ExplorerData;
      const messages = new Set<string>();
      let failed = 0;
      for (const shown of data.cases) {
        const c = cases.find((k) => k.id === shown.id);
        if (c === undefined) continue;
        for (const run of shown.doc!.runs) {
          if (run.reason === null) continue;
          failed++;
          const parsed = parseDumpLine(lines[run.line! - 1]!);
          if ("error" in parsed) throw new Error(`line ${run.line} does not parse`);
          const scored = scoreCase(c, parsed.record, { lenientIds });
          expect(run.reason).toBe(scored.reason);
          expect(run.message, `line ${run.line}`).toBe(scored.message);
          messages.add(`${run.reason}: ${run.message}`);
        }
      }
      expect(failed).toBeGreaterThanOrEqual(3 * 13);
      // Both messages of evidence_out_of_document are among them: the reason's own and a line's.
      expect(messages).toContain("evidence_out_of_document: evidence sentence ID is outside the document");
      expect([...messages].some((m) => m.startsWith('evidence_out_of_document: quoted evidence "no such sentence'))).toBe(true);
      expect(messages).toContain("reasoning_reference_out_of_document: reasoning reference is outside the document");
    }
  });
});
