// Counts from which every pair metric is derived. A tally is a sum: tallies of chunks, workers or
// shards add up to exactly the tally of the whole corpus, so results never depend on scheduling.
import { PAIR_CLASSES, type RevisionClass } from "./classes.js";

/** gold class → predicted class → count. */
export type Confusion = Record<RevisionClass, Record<RevisionClass, number>>;

export interface PairTally {
  /** Labelled pairs only. */
  confusion: Confusion;
  /** The same counts split by the pairs' `kind` (pairs without a kind appear only above). */
  byKind: Record<string, Confusion>;
  /** Pairs classified but not scored (no gold, or a gold that is not one of the three classes). */
  unlabelled: number;
}

export function emptyConfusion(): Confusion {
  const row = (): Record<RevisionClass, number> => ({ restatement: 0, update: 0, distinct: 0 });
  return { restatement: row(), update: row(), distinct: row() };
}

export function emptyTally(): PairTally {
  // A null-prototype map: a kind named "__proto__" or "constructor" is just another key.
  return { confusion: emptyConfusion(), byKind: Object.create(null) as Record<string, Confusion>, unlabelled: 0 };
}

/** Adds one classified pair. `gold` null means unlabelled; `kind` null means the pair has none. */
export function addPair(tally: PairTally, gold: RevisionClass | null, predicted: RevisionClass, kind: string | null): void {
  if (gold === null) {
    tally.unlabelled++;
    return;
  }
  tally.confusion[gold][predicted]++;
  if (kind !== null) {
    const perKind = (tally.byKind[kind] ??= emptyConfusion());
    perKind[gold][predicted]++;
  }
}

function addConfusionInto(target: Confusion, source: Confusion): void {
  for (const gold of PAIR_CLASSES) for (const pred of PAIR_CLASSES) target[gold][pred] += source[gold][pred];
}

/** a + b as a new tally (neither argument is modified). */
export function mergeTallies(a: PairTally, b: PairTally): PairTally {
  const out = emptyTally();
  for (const t of [a, b]) {
    addConfusionInto(out.confusion, t.confusion);
    for (const [kind, confusion] of Object.entries(t.byKind)) addConfusionInto((out.byKind[kind] ??= emptyConfusion()), confusion);
    out.unlabelled += t.unlabelled;
  }
  return out;
}

export function labelledCount(confusion: Confusion): number {
  let n = 0;
  for (const gold of PAIR_CLASSES) for (const pred of PAIR_CLASSES) n += confusion[gold][pred];
  return n;
}

/** Kinds in a stable (code-unit sorted) order, so reports do not depend on input order. */
export function sortedKinds(tally: PairTally): string[] {
  return Object.keys(tally.byKind).sort();
}
