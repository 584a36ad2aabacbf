// Document self-contradiction core: sentences, reasoning references, validation and rewards.
export { asciiCasefold } from "./casefold.js";
export { decimalDigitValue } from "./decimal-digits.js";
export {
  DOCUMENT_CONTRADICTION_ERROR_MESSAGES,
  DocumentContradictionError,
  type DocumentContradictionErrorCode,
} from "./errors.js";
export { parseReasoningReferences } from "./references.js";
export { documentContradictionRewards, type DocumentContradictionRewards } from "./rewards.js";
export {
  PYTHON_WHITESPACE,
  alignEvidence,
  jaccardTokens,
  splitSentences,
  stripPythonWhitespace,
  tagSentences,
  tokenJaccard,
} from "./sentences.js";
export { pythonTruthy } from "./truthiness.js";
export { validateDocumentContradiction, type DocumentContradictionAssessment } from "./validation.js";
