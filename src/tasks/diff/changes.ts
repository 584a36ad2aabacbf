// Which cases changed between two sets of per-case outcomes (a baseline, or the OLD report of
// `mari diff`): a case regressed when a unit (case, run) the old side got right is wrong now, and
// was fixed in the opposite case. Units are matched as src/gates/paired.ts matches them for the
// paired metrics: by (case id, run), or by case id alone when both sides have one run each.
import { DOCUMENT_CLASSES, type PairedOutcome } from "../../gates/paired.js";

export interface CaseChange {
  case_id: string;
  status: "regressed" | "fixed" | "mixed";
  /** The outcome on each side, e.g. "tp" / "fn" (documents), "update (gold update)" (pairs), or "2/3 correct" over several runs. */
  old: string;
  new: string;
}

/** tp/fp/fn/tn for documents, else the predicted class with the gold one when they differ. */
export function outcomeName(o: PairedOutcome): string {
  const [positive, negative] = DOCUMENT_CLASSES;
  if ((o.gold === positive || o.gold === negative) && (o.predicted === positive || o.predicted === negative)) {
    return (o.predicted === o.gold ? "t" : "f") + (o.predicted === positive ? "p" : "n");
  }
  return o.predicted === o.gold ? `${o.predicted} (correct)` : `${o.predicted} (gold ${o.gold})`;
}

function runCount(outcomes: readonly PairedOutcome[]): number {
  return new Set(outcomes.map((o) => o.run)).size;
}

/** Changed cases in the order of `current` (first appearance of each case id). */
export function caseChanges(current: readonly PairedOutcome[], old: readonly PairedOutcome[]): CaseChange[] {
  const byCase = runCount(current) === 1 && runCount(old) === 1;
  const key = (o: PairedOutcome): string => (byCase ? o.case_id : `${o.case_id}\u0000${o.run}`);
  const oldByKey = new Map<string, PairedOutcome>();
  for (const o of old) if (!oldByKey.has(key(o))) oldByKey.set(key(o), o);
  const seen = new Set<string>();
  const perCase = new Map<string, { regressed: number; fixed: number; oldRight: number; newRight: number; units: number; oldName: string; newName: string }>();
  for (const o of current) {
    const k = key(o);
    const before = oldByKey.get(k);
    if (before === undefined || seen.has(k)) continue;
    seen.add(k);
    let entry = perCase.get(o.case_id);
    if (entry === undefined) perCase.set(o.case_id, (entry = { regressed: 0, fixed: 0, oldRight: 0, newRight: 0, units: 0, oldName: outcomeName(before), newName: outcomeName(o) }));
    const wasRight = before.predicted === before.gold;
    const isRight = o.predicted === o.gold;
    entry.units++;
    entry.oldRight += wasRight ? 1 : 0;
    entry.newRight += isRight ? 1 : 0;
    if (wasRight && !isRight) entry.regressed++;
    if (!wasRight && isRight) entry.fixed++;
  }
  const changes: CaseChange[] = [];
  for (const [caseId, e] of perCase) {
    if (e.regressed === 0 && e.fixed === 0) continue;
    const status = e.regressed > 0 && e.fixed > 0 ? "mixed" : e.regressed > 0 ? "regressed" : "fixed";
    const single = e.units === 1;
    changes.push({
      case_id: caseId,
      status,
      old: single ? e.oldName : `${e.oldRight}/${e.units} correct`,
      new: single ? e.newName : `${e.newRight}/${e.units} correct`,
    });
  }
  return changes;
}
