// A report read back by `mari diff` is untrusted: its gates are evaluated on report.json's metrics,
// so a report.json whose numbers were edited (or a cases.jsonl swapped in with a recomputed
// cases_xxh64) must not pass a gate its cases fail. The headline metrics that the cases determine
// are recomputed from cases.jsonl and compared with report.json's.
import type { Baseline } from "../../gates/baseline.js";
import { DOCUMENT_CLASSES, pairedSideComparison } from "../../gates/paired.js";
import { InputError } from "../../io/errors.js";

/** Sums in another order differ in the last bits; an edit is far larger. */
const TOLERANCE = 1e-9;

/**
 * Throws an InputError naming the first headline metric of `b`'s report.json that its cases.jsonl
 * contradicts. Checked where the per-case means are the headline definition: accuracy and the
 * per-case value metrics when every case has every run, macro-F1 too for a one-run documents report
 * (with several runs or open label sets the paired macro-F1 is defined differently).
 */
export function checkMetricsMatchCases(b: Baseline, label: string): void {
  const documents = b.report.task === "documents";
  const self = pairedSideComparison(b.side, b.side, { seed: 0, resamples: 0, ...(documents ? { classes: DOCUMENT_CLASSES } : {}) });
  const runs = self.runs.current.length;
  if (self.units.current !== self.matched_cases * runs) return;
  const checked = Object.keys(self.metrics).filter((name) => name !== "macro_f1" || (documents && runs === 1));
  for (const name of checked) {
    const stated = b.report.metrics[name];
    const computed = self.metrics[name]!.current;
    if (typeof stated !== "number" || !Number.isFinite(computed)) continue;
    if (Math.abs(stated - computed) > TOLERANCE * Math.max(1, Math.abs(computed))) {
      throw new InputError(
        `${label} ${b.path}: its ${name} (${stated}) does not match its cases.jsonl (${computed}): ` +
          "report.json or cases.jsonl was changed after the run; rerun it",
      );
    }
  }
}
