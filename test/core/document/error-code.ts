import { DocumentContradictionError, type DocumentContradictionErrorCode } from "../../../src/core/document/index.js";

/** The reason code `run` throws, or undefined when it returns; any other error propagates. */
export function errorCodeOf(run: () => unknown): DocumentContradictionErrorCode | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof DocumentContradictionError) return error.code;
    throw error;
  }
  return undefined;
}
