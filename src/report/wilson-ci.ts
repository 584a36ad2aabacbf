// A proportion's 95% Wilson interval in report.json's shape (`method` and `n` beside the bounds):
// the one wrapper the document, pair and evidence reports use.
import { wilsonInterval } from "../core/metrics/wilson.js";
import type { ConfidenceInterval } from "./types.js";

export function wilsonConfidence(successes: number, n: number): ConfidenceInterval {
  return { ...wilsonInterval(successes, n), method: "wilson", n };
}
