// What one scored (case, run) contributes to the metrics: the compact, task-independent facts the
// accumulators read. Derived per case from the slice (label, gold) and the validated prediction.
export interface CaseOutcome {
  /** Gold label: the document is self-contradictory. */
  label: boolean;
  /** The judgment as scored (a format-invalid or missing prediction scores negative). */
  judgment: boolean;
  formatValid: boolean;
  /** Distinct predicted evidence sentence IDs (0 when scored negative). */
  predictedCount: number;
  /** |gold ∩ predicted|. */
  matched: number;
  /** |gold| (0 for negatives). */
  goldCount: number;
  referenceCoverage: number;
  rewardAccuracy: number;
  rewardFormat: number;
}

/** An outcome to fill in place (readers of many runs reuse one). */
export function emptyCaseOutcome(): CaseOutcome {
  return {
    label: false,
    judgment: false,
    formatValid: false,
    predictedCount: 0,
    matched: 0,
    goldCount: 0,
    referenceCoverage: 0,
    rewardAccuracy: 0,
    rewardFormat: 0,
  };
}

/** Per-case localization fields (docs/comparable-reports.md): null on gold-negative cases. */
export function localizationFields(o: CaseOutcome): {
  localization_hit: boolean | null;
  exact_localization: boolean | null;
  evidence_precision: number | null;
  evidence_recall: number | null;
} {
  if (!o.label) return { localization_hit: null, exact_localization: null, evidence_precision: null, evidence_recall: null };
  return {
    localization_hit: localizationHit(o),
    exact_localization: exactLocalization(o),
    evidence_precision: evidencePrecision(o),
    evidence_recall: o.goldCount > 0 ? o.matched / o.goldCount : 0,
  };
}

// The fields one at a time, for a gold-positive case (the run sums read them without an object per case).

export function localizationHit(o: CaseOutcome): boolean {
  return o.matched > 0;
}

export function exactLocalization(o: CaseOutcome): boolean {
  return o.matched === o.goldCount && o.predictedCount === o.goldCount;
}

export function evidencePrecision(o: CaseOutcome): number {
  return o.predictedCount > 0 ? o.matched / o.predictedCount : 0;
}
