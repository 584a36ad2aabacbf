// The three verdicts, in the order every pair report lists them (the reference's bench table order).
import type { RevisionClass } from "../classifier/index.js";

export type { RevisionClass };

export const PAIR_CLASSES: readonly RevisionClass[] = ["restatement", "update", "distinct"];

export function isRevisionClass(value: unknown): value is RevisionClass {
  return value === "restatement" || value === "update" || value === "distinct";
}
