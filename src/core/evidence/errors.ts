// The reference raises ValueError (bad values, conflicting inputs) and MalformedModelOutput (a
// model's output that breaks the contract). Messages are the reference's, byte for byte; the code
// names the failure for reports without parsing messages.

/** Why parseFacts rejected a model output (one code per reference message). */
export type FactsErrorCode =
  | "bad_envelope"
  | "missing_claim"
  | "no_evidence"
  | "bad_evidence_entry"
  | "unknown_document"
  | "empty_quote"
  | "quote_not_in_document"
  | "quote_not_in_section"
  | "ambiguous_section"
  | "conflicting_documents";

/** Python's ValueError from the reference's constructors and checks. */
export class EvidenceValueError extends Error {
  constructor(
    message: string,
    readonly code?: FactsErrorCode,
  ) {
    super(message);
    this.name = "EvidenceValueError";
  }
}

/** The reference's MalformedModelOutput: the model's answer breaks the output contract. */
export class MalformedModelOutput extends Error {
  constructor(
    readonly code: FactsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "MalformedModelOutput";
  }
}
