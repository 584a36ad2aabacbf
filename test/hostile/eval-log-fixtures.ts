// Small honest inspect_ai and promptfoo logs for the fourth round's hostile-input tests and fuzzers,
// built from the first documents of the ContraDoc slice: every case answered once per epoch (inspect)
// or repeat (promptfoo) with a JSON answer, so each sample or result becomes one scored dump line.
import { DOC_SLICE, firstLines } from "./helpers.js";
import { zipBytes, type ZipMethod } from "../support/zip.js";

export interface SliceCase {
  id: string;
  label: boolean;
}

export function sliceCases(n: number): { lines: string[]; cases: SliceCase[] } {
  const lines = firstLines(DOC_SLICE, n);
  return { lines, cases: lines.map((l) => JSON.parse(l) as SliceCase) };
}

/** The model's answer to case `k`: right on even k, wrong on odd. */
export function answerText(c: SliceCase, k: number): string {
  const judgment = k % 2 === 0 ? c.label : !c.label;
  return JSON.stringify({ case_id: c.id, judgment: judgment ? "yes" : "no", evidence_sentence_ids: judgment ? [1] : [], reasoning: "Compare [1] with [2]." });
}

/** An inspect_ai EvalSample answering `c` in `epoch`. */
export function inspectSample(c: SliceCase, epoch: number, k: number): Record<string, unknown> {
  const content = answerText(c, k);
  return {
    id: c.id,
    epoch,
    input: "Is this document self-contradictory?",
    target: c.label ? "yes" : "no",
    messages: [{ role: "assistant", content }],
    output: { model: "m", choices: [{ message: { role: "assistant", content }, stop_reason: "stop" }] },
    metadata: { doc_id: c.id },
    attachments: {},
  };
}

const HEADER = { version: 2, status: "success", eval: { task: "contradoc", model: "m" } };

/** The members of an inspect_ai `.eval` log: a header and one sample per case and epoch. */
export function inspectMembers(cases: readonly SliceCase[], epochs = 2): { name: string; text: string }[] {
  const members = [{ name: "header.json", text: JSON.stringify(HEADER) }];
  let k = 0;
  for (let epoch = 1; epoch <= epochs; epoch++) {
    for (const c of cases) members.push({ name: `samples/${c.id}_epoch_${epoch}.json`, text: JSON.stringify(inspectSample(c, epoch, k++)) });
  }
  return members;
}

export function inspectEvalBytes(cases: readonly SliceCase[], method: ZipMethod = 8, epochs = 2): Buffer {
  return zipBytes(inspectMembers(cases, epochs), method);
}

/** An inspect_ai `.json` log of the same samples. */
export function inspectJsonLog(cases: readonly SliceCase[], epochs = 2): Record<string, unknown> {
  const samples: unknown[] = [];
  let k = 0;
  for (let epoch = 1; epoch <= epochs; epoch++) for (const c of cases) samples.push(inspectSample(c, epoch, k++));
  return { ...HEADER, samples };
}

/** promptfoo EvaluateResults: each case answered `repeats` times by one provider and prompt. */
export function promptfooResults(cases: readonly SliceCase[], repeats = 2): Record<string, unknown>[] {
  const results: Record<string, unknown>[] = [];
  let k = 0;
  for (let r = 0; r < repeats; r++) {
    for (const [i, c] of cases.entries()) {
      results.push({
        testIdx: r * cases.length + i,
        promptIdx: 0,
        provider: { id: "openai:gpt-4o-mini" },
        vars: { case_id: c.id },
        response: { output: answerText(c, k++) },
        success: true,
      });
    }
  }
  return results;
}

export function promptfooJsonLog(cases: readonly SliceCase[], repeats = 2): Record<string, unknown> {
  return { evalId: "e", results: { version: 3, prompts: [], results: promptfooResults(cases, repeats), stats: {} }, config: {} };
}

/** Where each central-directory entry of a zip starts. */
export function centralEntries(zip: Buffer): number[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const start = zip.readUInt32LE(eocd + 16);
  const count = zip.readUInt16LE(eocd + 10);
  const at: number[] = [];
  let p = start;
  for (let i = 0; i < count; i++) {
    at.push(p);
    p += 46 + zip.readUInt16LE(p + 28) + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return at;
}
