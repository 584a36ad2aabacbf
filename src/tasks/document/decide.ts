// The last step of a document report, shared by `mari eval` and `mari merge` so that a merged
// report is decided exactly as the single run: the paired comparison with the baseline (from the
// run's cases.jsonl), then the gates (src/gates/decide.ts).
import { caseReaderOf, compareWithBaseline, outcomeFromCaseLine, readPairedSide, type Baseline } from "../../gates/baseline.js";
import { decideGates } from "../../gates/decide.js";
import { DOCUMENT_CLASSES } from "../../gates/paired.js";
import type { GateSpec } from "../../gates/spec.js";
import type { Report } from "../../report/types.js";

export interface DocumentDecision {
  /** The run's cases.jsonl (a case line per case, a run line per (case, run)). */
  casesPath: string;
  baseline?: Baseline;
  gates: readonly GateSpec[];
  seed: number;
  bootstrap: number;
  sliceHash: string;
  /** A shard: gates that need the whole slice are checked at merge. */
  partial: boolean;
}

export async function decideDocumentReport(report: Report, d: DocumentDecision): Promise<Report> {
  if (d.baseline) {
    const { side } = await readPairedSide(d.casesPath, outcomeFromCaseLine, caseReaderOf("documents"));
    report.baseline = compareWithBaseline(side, d.baseline, { seed: d.seed, resamples: d.bootstrap, classes: DOCUMENT_CLASSES, currentSliceHash: d.sliceHash });
  }
  return decideGates(report, d.gates, { partial: d.partial });
}
