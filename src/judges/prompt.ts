// The chat prompt for a model judge: the document as `[1] … [n]` tagged sentences and a request
// for one JSON object. The case id is echoed back so an answer about another case is detectable.
import { tagSentences } from "../core/document/index.js";
import { fillPromptTemplate, type PromptTemplate } from "./prompt-template.js";
import type { JudgeCase } from "./types.js";

export type { PromptTemplate } from "./prompt-template.js";

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

const SYSTEM_PROMPT = [
  "You check documents for self-contradiction: two or more statements in the same document that cannot both be true.",
  "Answer with exactly one JSON object and nothing else.",
].join(" ");

export function buildJudgeMessages(judgeCase: JudgeCase, template?: PromptTemplate): ChatMessage[] {
  const n = judgeCase.sentences.length;
  const user = template
    ? fillPromptTemplate(template, judgeCase)
    : [
        `Case id: ${JSON.stringify(judgeCase.id)}`,
        `The document has ${n} sentence${n === 1 ? "" : "s"}, each preceded by its number in brackets:`,
        "",
        tagSentences(judgeCase.sentences),
        "",
        "Is this document self-contradictory? Answer with one JSON object of this form:",
        `{"case_id": ${JSON.stringify(judgeCase.id)}, "judgment": true or false, "evidence_sentence_ids": [sentence numbers], "reasoning": "..."}`,
        "- judgment: true if the document contradicts itself, false otherwise.",
        `- evidence_sentence_ids: when judgment is true, the numbers (integers from 1 to ${n}) of the sentences that carry the contradiction, at least one; when false, [].`,
        "- reasoning: a short explanation that cites sentences by number in brackets, like [3] or [2-4].",
      ].join("\n");
  return [
    { role: "system", content: SYSTEM_PROMPT },
    { role: "user", content: user },
  ];
}
