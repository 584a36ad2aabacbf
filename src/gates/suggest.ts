// "did you mean …?" for names a user typed (gate metrics, config keys, breakdown values): the
// closest known name by edit distance, when it is close enough to be a plausible typo.

/** Levenshtein distance (insertions, deletions, substitutions), O(|a|·|b|) time, O(|b|) memory. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** The known name closest to `typed`, if within a third of its length (at least 2 edits); else undefined. */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(typed.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** ` did you mean "x"?` (with its leading space) or "". */
export function didYouMean(typed: string, known: readonly string[]): string {
  const near = closestName(typed, known);
  return near === undefined ? "" : ` did you mean "${near}"?`;
}
