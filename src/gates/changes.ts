// Which cases changed between two sets of per-case outcomes (a baseline, or the OLD report of
// `mari diff`): a case regressed when a unit (case, run) the old side got right is wrong now, and
// was fixed in the opposite case. Units are matched as src/gates/paired.ts matches them for the
// paired metrics: by (case id, run), or by case id alone when both sides have one run each.
import { DOCUMENT_CLASSES } from "./paired.js";
import type { PairedSide } from "./paired-side.js";

export interface CaseChange {
  case_id: string;
  status: "regressed" | "fixed" | "mixed";
  /** The outcome on each side, e.g. "tp" / "fn" (documents), "update (gold update)" (pairs), or "2/3 correct" over several runs. */
  old: string;
  new: string;
}

/** tp/fp/fn/tn for documents, else the predicted class with the gold one when they differ. */
export function outcomeName(o: { gold: string; predicted: string }): string {
  const [positive, negative] = DOCUMENT_CLASSES;
  if ((o.gold === positive || o.gold === negative) && (o.predicted === positive || o.predicted === negative)) {
    return (o.predicted === o.gold ? "t" : "f") + (o.predicted === positive ? "p" : "n");
  }
  return o.predicted === o.gold ? `${o.predicted} (correct)` : `${o.predicted} (gold ${o.gold})`;
}

/** The outcome of unit `pair` (1 + pair code) of a side, for outcomeName. */
function unitOutcome(side: PairedSide, code: number): { gold: string; predicted: string } {
  const [g, p] = side.pairs[code - 1]!;
  return { gold: side.labels.list[g]!, predicted: side.labels.list[p]! };
}

/** Changed cases in the order of `current` (first matched (case, run) of each case id). */
export function caseChanges(current: PairedSide, old: PairedSide): CaseChange[] {
  const byCase = current.runs.list.length === 1 && old.runs.list.length === 1;
  // Current's run indices on the old side (-1: the old side has no such run).
  const oldRun = Int32Array.from(current.runs.list, (run) => old.runs.get(run) ?? -1);
  const found: { order: number; change: Omit<CaseChange, "status"> & { regressed: number; fixed: number } }[] = [];
  for (let c = 0; c < current.caseCount(); c++) {
    const o = old.caseIndex(current.cases.list[c]!);
    if (o === undefined) continue;
    const slots = current.slots[c]!;
    const oldSlots = old.slots[o]!;
    let first = -1;
    let firstNew = 0;
    let firstOld = 0;
    let units = 0;
    let oldRight = 0;
    let newRight = 0;
    let regressed = 0;
    let fixed = 0;
    for (let r = 0; r < slots.length; r++) {
      const now = slots[r]!;
      if (now === 0) continue;
      const before = byCase ? oldSlots[0]! : oldRun[r]! >= 0 && oldRun[r]! < oldSlots.length ? oldSlots[oldRun[r]!]! : 0;
      if (before === 0) continue;
      const order = current.order[c]![r]!;
      if (first < 0 || order < first) {
        first = order;
        firstNew = now;
        firstOld = before;
      }
      const [bg, bp] = old.pairs[before - 1]!;
      const [ng, np] = current.pairs[now - 1]!;
      const wasRight = old.labels.list[bg] === old.labels.list[bp];
      const isRight = current.labels.list[ng] === current.labels.list[np];
      units++;
      oldRight += wasRight ? 1 : 0;
      newRight += isRight ? 1 : 0;
      if (wasRight && !isRight) regressed++;
      if (!wasRight && isRight) fixed++;
    }
    if (first < 0 || (regressed === 0 && fixed === 0)) continue;
    const single = units === 1;
    found.push({
      order: first,
      change: {
        case_id: current.cases.list[c]!,
        regressed,
        fixed,
        old: single ? outcomeName(unitOutcome(old, firstOld)) : `${oldRight}/${units} correct`,
        new: single ? outcomeName(unitOutcome(current, firstNew)) : `${newRight}/${units} correct`,
      },
    });
  }
  found.sort((x, y) => x.order - y.order);
  return found.map(({ change: { case_id, regressed, fixed, old: before, new: after } }) => ({
    case_id,
    status: regressed > 0 && fixed > 0 ? "mixed" : regressed > 0 ? "regressed" : "fixed",
    old: before,
    new: after,
  }));
}
