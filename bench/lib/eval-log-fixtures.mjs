// Small honest inspect_ai and promptfoo logs, for the fourth round's hostile-input tests and the
// fuzz bench: every case of a slice answered once per epoch (inspect) or repeat (promptfoo) with a
// JSON answer, so each sample or result becomes one scored dump line.
import { zipBytes } from "./zip-writer.mjs";

/** @typedef {{ id: string; label: boolean }} SliceCase */

/** The model's answer to case `k`: right on even k, wrong on odd. @param {SliceCase} c @param {number} k */
export function answerText(c, k) {
  const judgment = k % 2 === 0 ? c.label : !c.label;
  return JSON.stringify({ case_id: c.id, judgment: judgment ? "yes" : "no", evidence_sentence_ids: judgment ? [1] : [], reasoning: "Compare [1] with [2]." });
}

/** An inspect_ai EvalSample answering `c` in `epoch`. @param {SliceCase} c @param {number} epoch @param {number} k */
export function inspectSample(c, epoch, k) {
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

/**
 * The members of an inspect_ai `.eval` log: a header and one sample per case and epoch.
 * @param {readonly SliceCase[]} cases @returns {{ name: string; text: string }[]}
 */
export function inspectMembers(cases, epochs = 2) {
  const members = [{ name: "header.json", text: JSON.stringify(HEADER) }];
  let k = 0;
  for (let epoch = 1; epoch <= epochs; epoch++) {
    for (const c of cases) members.push({ name: `samples/${c.id}_epoch_${epoch}.json`, text: JSON.stringify(inspectSample(c, epoch, k++)) });
  }
  return members;
}

/** @param {readonly SliceCase[]} cases @param {0 | 8 | 93} method @returns {Buffer} */
export function inspectEvalBytes(cases, method = 8, epochs = 2) {
  return zipBytes(inspectMembers(cases, epochs), method);
}

/** An inspect_ai `.json` log of the same samples. @param {readonly SliceCase[]} cases */
export function inspectJsonLog(cases, epochs = 2) {
  const samples = [];
  let k = 0;
  for (let epoch = 1; epoch <= epochs; epoch++) for (const c of cases) samples.push(inspectSample(c, epoch, k++));
  return { ...HEADER, samples };
}

/**
 * promptfoo EvaluateResults: each case answered `repeats` times by one provider and prompt.
 * @param {readonly SliceCase[]} cases @returns {Record<string, unknown>[]}
 */
export function promptfooResults(cases, repeats = 2) {
  const results = [];
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

/** A promptfoo `-o results.json` output. @param {readonly SliceCase[]} cases */
export function promptfooJsonLog(cases, repeats = 2) {
  return { evalId: "e", results: { version: 3, prompts: [], results: promptfooResults(cases, repeats), stats: {} }, config: {} };
}
