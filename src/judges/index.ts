// Judges: produce prediction dumps for `mari eval` (docs/judges.md).
export type { JudgeCase, JudgeErrorCode, Prediction, PredictionBody } from "./types.js";
export { judgeDocumentLexically, runLexicalJudge, LEXICAL_JUDGE_NAME, LEXICAL_JUDGE_NOTE } from "./lexical.js";
export type { LexicalFinding, LexicalJudgment } from "./lexical.js";
export { runOpenAIJudge, OPENAI_JUDGE_VERSION } from "./openai.js";
export type { OpenAIJudgeOptions, OpenAIJudgeSummary } from "./openai.js";
export { ChatClient, ChatConfigError, chatCompletionsUrl } from "./chat-client.js";
export { buildJudgeMessages } from "./prompt.js";
export { openDumpSink, writePredictionDump, predictionJsonLine } from "./dump-writer.js";
