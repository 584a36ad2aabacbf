// cases.jsonl lines of `mari evidence` are written field by field (FactsCaseLines) for speed; they
// must be exactly JSON.stringify of the record the format documents, for any result.
import { describe, expect, it } from "vitest";
import { evidence, knowledgeDependency, PyFloat, toPlainJson } from "../../src/core/evidence/index.js";
import { FactsCaseLines } from "../../src/tasks/evidence/case-line-json.js";
import { LineBlocks } from "../../src/tasks/evidence/case-lines.js";
import type { FactsCaseResult } from "../../src/tasks/evidence/facts-score.js";

/** The documented record, serialised by JSON.stringify. */
function reference(result: FactsCaseResult, line: number): string {
  return JSON.stringify({
    case_id: result.caseId,
    line,
    accepted: result.accepted,
    error: result.error,
    facts: result.facts.map((fact) => ({
      claim: fact.claim,
      grounding: fact.grounding,
      state: fact.state,
      evidence: fact.evidence,
      ...(Object.keys(fact.qualifiers).length > 0 ? { qualifiers: toPlainJson(new Map(Object.entries(fact.qualifiers))) } : {}),
    })),
    dependencies: result.dependencies,
    dependency_error: result.dependencyError,
    ...(result.freshness !== null ? { freshness: result.freshness } : {}),
    ...(result.gold.length > 0 ? { gold: result.gold } : {}),
  });
}

let state = 5;
const rand = (n: number) => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return (state >>> 8) % n;
};
const pick = <T>(list: readonly T[]): T => list[rand(list.length)]!;
// Strings that need escaping, non-ASCII, and a lone surrogate (JSON.stringify escapes it).
const TEXTS = ["plain", 'quote " and \\ backslash', "tab\tnewline\n", "Straße 😀", "\u0000\u001f", "lone \ud800", "\u2028", "\u007f", "x".repeat(700)];
// Two documents with sections whose revision is shared (identical text) under different ids.
const SECTIONS = [
  { document_id: "kb/a", revision: "1", section_id: "intro", section_revision: "r1" },
  { document_id: "kb/a", revision: "1", section_id: "intro-2", section_revision: "r1" },
  { document_id: "kb/b", revision: "7", section_id: "intro", section_revision: "r1" },
  { document_id: "kb/b", revision: "7", section_id: 'q"uote', section_revision: "r2" },
  { document_id: "kb/b", revision: "8", section_id: 'q"uote', section_revision: "r2" },
];

function randomResult(): FactsCaseResult {
  const accepted = rand(3) > 0;
  const facts = accepted
    ? Array.from({ length: 1 + rand(3) }, () => ({
        claim: pick(TEXTS),
        grounding: pick([0, 0.1, 0.2071, 1, 0.30000000000000004]),
        state: pick(["supported", "contradicted", "uncertain", "insufficient_evidence"] as const),
        evidence: Array.from({ length: 1 + rand(3) }, () => {
          const s = pick(SECTIONS);
          const start = rand(500);
          return evidence({ ...s, quote: pick(TEXTS), start, end: start + rand(50) });
        }),
        qualifiers:
          rand(3) === 0
            ? {
                subject: pick(TEXTS),
                object: new PyFloat(3),
                scopes: [1, 2.5, null],
                valid_from: new Map([
                  ["2", "b"],
                  ["1", "a"],
                ]),
              }
            : {},
      }))
    : [];
  return {
    caseId: pick(TEXTS),
    where: "x:1",
    accepted,
    error: accepted ? null : { code: "quote_not_in_document", message: pick(TEXTS) },
    facts,
    unresolvedClaims: 0,
    dependencies: accepted ? SECTIONS.slice(0, 1 + rand(4)).map((s) => knowledgeDependency(s)) : [],
    dependencyError: rand(4) === 0 ? pick(TEXTS) : null,
    freshness: rand(3) === 0 ? pick(["current", "stale", "missing"] as const) : null,
    gold: Array.from({ length: rand(3) }, () => ({
      claim: rand(2) === 0 ? null : pick(TEXTS),
      gold: pick(["supported", "insufficient_evidence"] as const),
      predicted: pick(["uncertain", "contradicted"] as const),
    })),
  };
}

/** The bytes handed to the writer, with the line offsets LineBlocks recorded. */
async function written(results: FactsCaseResult[], blockBytes: number): Promise<{ text: string; starts: readonly number[]; bytes: number }> {
  const chunks: Buffer[] = [];
  const blocks = new LineBlocks({ write: async (chunk) => void chunks.push(Buffer.from(chunk)) }, blockBytes);
  const lines = new FactsCaseLines();
  for (const [i, result] of results.entries()) await lines.write(result, i + 1, blocks);
  await blocks.flush();
  return { text: Buffer.concat(chunks).toString("utf8"), starts: blocks.starts, bytes: blocks.bytes };
}

describe("cases.jsonl lines of mari evidence", () => {
  it("are JSON.stringify of the documented record, section fragments reused or not", async () => {
    const results = Array.from({ length: 2000 }, randomResult);
    const expected = results.map((result, i) => `${reference(result, i + 1)}\n`);
    const all = expected.join("");
    // Blocks far smaller than a line too: a line that does not fit moves to a larger block.
    for (const blockBytes of [1 << 20, 4096, 64]) {
      const { text, starts, bytes } = await written(results, blockBytes);
      expect(text).toBe(all);
      expect(bytes).toBe(Buffer.byteLength(all));
      let at = 0;
      expect(starts).toEqual(expected.map((line) => (at += Buffer.byteLength(line)) - Buffer.byteLength(line)));
    }
  });
});
