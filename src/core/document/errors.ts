// Every way a document self-contradiction judgment (or its gold) can be rejected, each with a
// stable reason code and the reference's message, byte for byte (docs/core-document.md).

export type DocumentContradictionErrorCode =
  | "sentence_count_not_positive"
  | "non_integer_evidence"
  | "evidence_out_of_document"
  | "positive_without_evidence"
  | "negative_with_evidence"
  | "reasoning_reference_out_of_document"
  | "non_integer_gold"
  | "gold_out_of_document"
  | "positive_gold_without_evidence"
  | "negative_gold_with_evidence";

/** The reference's ValueError message for each reason code. */
export const DOCUMENT_CONTRADICTION_ERROR_MESSAGES: Readonly<Record<DocumentContradictionErrorCode, string>> = {
  sentence_count_not_positive: "sentence_count must be positive",
  non_integer_evidence: "evidence must contain integer sentence IDs",
  evidence_out_of_document: "evidence sentence ID is outside the document",
  positive_without_evidence: "a positive contradiction judgment requires evidence",
  negative_with_evidence: "a negative contradiction judgment cannot include evidence",
  reasoning_reference_out_of_document: "reasoning reference is outside the document",
  non_integer_gold: "gold evidence must contain integer sentence IDs",
  gold_out_of_document: "gold evidence sentence ID is outside the document",
  positive_gold_without_evidence: "positive gold examples require evidence sentences",
  negative_gold_with_evidence: "negative gold examples cannot include contradiction evidence",
};

export class DocumentContradictionError extends Error {
  readonly code: DocumentContradictionErrorCode;

  constructor(code: DocumentContradictionErrorCode) {
    super(DOCUMENT_CONTRADICTION_ERROR_MESSAGES[code]);
    this.name = "DocumentContradictionError";
    this.code = code;
  }
}
