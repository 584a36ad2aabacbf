// Document self-contradiction core: sentences, reasoning references, validation and rewards.
export { pythonCasefold } from "../python/text.js";
export { decimalDigitValue } from "../python/decimal-digits.js";
export {
  DOCUMENT_CONTRADICTION_ERROR_MESSAGES,
  DocumentContradictionError,
  type DocumentContradictionErrorCode,
} from "./errors.js";
export { parseReasoningReferences } from "./references.js";
export { documentContradictionRewards, type DocumentContradictionRewards } from "./rewards.js";
export { alignEvidence, jaccardTokens, splitSentences, tagSentences, tokenJaccard } from "./sentences.js";
export { completionAsWritten, END_MARKERS, type CompletionEndRule } from "./completion-end.js";
export { parsePunktParameters, punktSpans, splitSentencesPunkt, type PunktParameters, type PunktParameterTexts } from "./punkt.js";
// Python string semantics the reference relies on, public because library users need them to
// reproduce the reference's numbers outside mari.
export { PYTHON_WHITESPACE, stripPythonWhitespace } from "../python/whitespace.js";
export { pythonTruthy } from "../python/truthiness.js";
export { validateDocumentContradiction, type DocumentContradictionAssessment } from "./validation.js";
