// Rejection examples from several parts of one run (shards, or a run's parts merged): the report
// keeps the first ones a single run would have met, so they are put back in its reading order.

/** The line number at the end of a `file:line` location (0 when it ends in none). */
export function lineOfWhere(where: string): number {
  const m = /:(\d+)$/.exec(where);
  return m ? Number(m[1]) : 0;
}

/**
 * The first `cap` items of the parts' example lists in a single run's reading order (`compare`;
 * part order among equals, the sort being stable). Each part kept the first of its own, so the
 * single run's first ones are all among them.
 */
export function firstInRunOrder<T>(lists: readonly (readonly T[])[], cap: number, compare: (a: T, b: T) => number): T[] {
  return lists.flat().sort(compare).slice(0, cap);
}
