// The last step of a document report, shared by `mari eval` and `mari merge` so that a merged
// report is decided exactly as the single run: the paired comparison with the baseline (from the
// run's cases.jsonl), then the gates (src/gates/decide.ts).
import type { Baseline } from "../../gates/baseline.js";
import { decideGates } from "../../gates/decide.js";
import type { PairedSide } from "../../gates/paired-side.js";
import type { GateSpec } from "../../gates/spec.js";
import type { Report } from "../../report/types.js";

export interface DocumentDecision {
  /** The run's cases.jsonl (a case line per case, a run line per (case, run)). */
  casesPath: string;
  baseline?: Baseline;
  /** The run's side of the comparison when the caller has read it already (else read from casesPath). */
  currentSide?: PairedSide;
  gates: readonly GateSpec[];
  seed: number;
  bootstrap: number;
  sliceHash: string;
  /** A shard: gates that need the whole slice are checked at merge. */
  partial: boolean;
}

export async function decideDocumentReport(report: Report, d: DocumentDecision): Promise<Report> {
  if (d.baseline) {
    // The paired comparison is loaded only by a run with a baseline.
    const [{ compareWithBaseline }, { DOCUMENT_CLASSES }, { readDocumentSide }] = await Promise.all([
      import("../../gates/baseline.js"),
      import("../../gates/paired.js"),
      import("../../gates/side-reader.js"),
    ]);
    const side = d.currentSide ?? (await readDocumentSide(d.casesPath)).side;
    report.baseline = compareWithBaseline(side, d.baseline, { seed: d.seed, resamples: d.bootstrap, classes: DOCUMENT_CLASSES, currentSliceHash: d.sliceHash });
  }
  return decideGates(report, d.gates, { partial: d.partial });
}
