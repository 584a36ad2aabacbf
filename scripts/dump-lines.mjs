// A prediction of one (case, run) as a dump line in each of the three shapes judges write, for the
// scripts and tests that make dumps: 0 structured, 1 cache-shaped (a nested `prediction`), 2 a raw
// completion in the `<think>…</think><answer>…</answer>` layout.
export function dumpLine(shape, caseId, run, judgment, evidence, reasoning) {
  if (shape === 0) return JSON.stringify({ case_id: caseId, run, judgment, evidence_sentence_ids: evidence, reasoning });
  if (shape === 1) return JSON.stringify({ case_id: caseId, run, prediction: { judgment, evidence_sentence_ids: evidence, reasoning } });
  const answer = `Judgment: ${judgment ? "yes" : "no"}\nEvidence: [${evidence.join(", ")}]`;
  return JSON.stringify({ case_id: caseId, run, completion: `<think>\n${reasoning}\n</think>\n<answer>\n${answer}\n</answer>` });
}
