// Two results compared number by number, to the bit: what the tests holding two paths of the
// aggregation to the same numbers report when they differ.

/** Where `b` differs from `a`: numbers compared with Object.is (bit for bit, −0 and NaN included). */
export function numberDifferences(a: unknown, b: unknown, path = "$", out: string[] = []): string[] {
  if (a instanceof Map) return numberDifferences(Object.fromEntries(a), b instanceof Map ? Object.fromEntries(b) : b, path, out);
  if (typeof a !== "object" || a === null) {
    if (!Object.is(a, b)) out.push(`${path}: ${String(a)} vs ${String(b)}`);
    return out;
  }
  if (typeof b !== "object" || b === null || Object.keys(a).join() !== Object.keys(b).join()) {
    out.push(`${path}: keys differ`);
    return out;
  }
  for (const key of Object.keys(a)) numberDifferences((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`, out);
  return out;
}
