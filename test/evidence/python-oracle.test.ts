// Differential test: parseFacts against a Python transcription of docs/evidence.md, on
// seeded random documents and outputs. Python supplies the real casefold, \w, string indices,
// sha256 and round(), so any porting slip in those shows up as a mismatch. Skips without python3.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { knowledgeDocument, MalformedModelOutput, parseDocumentId, parseFacts } from "../../src/core/evidence/index.js";
import { SYNC_CHILD } from "../support/children.js";

const ORACLE = join(import.meta.dirname, "oracle");
const python = spawnSync("python3", ["--version"], { ...SYNC_CHILD, encoding: "utf8" });
const hasPython = python.status === 0 && /Python 3\.(1[1-9]|[2-9]\d)/.test(python.stdout + python.stderr);

function runPython(script: string, args: string[], input?: string): string {
  const result = spawnSync("python3", [join(ORACLE, script), ...args], { ...SYNC_CHILD, encoding: "utf8", input, maxBuffer: 1 << 26 });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
}

interface Generated {
  docs: { id: string; revision: string; body: string }[];
  cases: { docs: string[]; output: unknown }[];
}

function ours(data: Generated): unknown[] {
  const docs = data.docs.map((d) => knowledgeDocument({ ...parseDocumentId(d.id), body: d.body, revision: d.revision }));
  return data.cases.map((c) => {
    try {
      const facts = parseFacts(
        docs.filter((d) => c.docs.includes(d.document_id)),
        c.output,
      );
      return { ok: facts.map((f) => ({ claim: f.claim, grounding: f.grounding, evidence: f.evidence })) };
    } catch (err) {
      if (err instanceof MalformedModelOutput) return { error: err.message };
      throw err;
    }
  });
}

describe("parseFacts against the Python oracle", () => {
  beforeEach((ctx) => {
    if (!hasPython)
      ctx.skip(`needs python3 ≥ 3.11; python3 --version gave ${python.error ? python.error.message : JSON.stringify((python.stdout + python.stderr).trim())}`);
  });
  for (const [seed, items] of [
    ["1", "3"],
    ["12", "1"],
    ["13", "1"],
  ] as const) {
    it(`seed ${seed}: every case gives the same facts or the same message`, () => {
      const text = runPython("generate_cases.py", [seed, items]);
      const expected = JSON.parse(runPython("parse_facts_oracle.py", [], text)) as unknown[];
      const actual = ours(JSON.parse(text) as Generated);
      expect(actual).toHaveLength(300);
      expect(actual).toEqual(expected);
      expect(expected.filter((r) => "ok" in (r as object)).length).toBeGreaterThan(10);
    });
  }
});
