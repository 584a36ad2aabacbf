// Evidence shards (docs/eval.md, "Scale, determinism, sharding" for evidence): a shard report keeps its EvidenceTally and rejection log
// as plain JSON (`shard.tally`, `shard.log`), and `mari merge` adds them up in shard order. Counts
// add; example lists, each kept in file order and capped, are merged by (input file, line) and cut
// to the same cap, which gives the single run's examples: every one of the global first N is among
// the first N of its own shard.
import type { RejectionExample } from "../../report/types.js";
import { EvidenceTally, MAX_EXAMPLES_PER_CODE } from "./tally.js";
import { firstInRunOrder, lineOfWhere } from "../../report/rejection-examples.js";
import { MAX_REJECTION_EXAMPLES, RejectionLog } from "./input.js";

type Counts = Record<string, number>;

export interface TallyJson {
  [field: string]: unknown;
}

/** The tally as JSON (dependencies as [key, entry] pairs). */
export function tallyToJson(t: EvidenceTally): TallyJson {
  return { ...t, dependencies: [...t.dependencies.entries()] } as unknown as TallyJson;
}

function addCounts(target: Counts, source: unknown): void {
  for (const [key, n] of Object.entries((source ?? {}) as Counts)) target[key] = (target[key] ?? 0) + n;
}

/** Position of an example in a single run's reading order: the input file's stage, then the line. */
export type ExampleOrder = (where: string) => number;

function mergeExamples<T extends { where: string }>(lists: readonly (readonly T[])[], cap: number, stage: ExampleOrder): T[] {
  return firstInRunOrder(lists, cap, (a, b) => stage(a.where) - stage(b.where) || lineOfWhere(a.where) - lineOfWhere(b.where));
}

/**
 * The sum of shard tallies, in shard order. `groundings` (per shard: [input line, the case's fact
 * groundings]) are re-added in input order, as the single run added them.
 */
export function mergeTallies(parts: readonly TallyJson[], stage: ExampleOrder, groundings: readonly (readonly [number, number[]][])[]): EvidenceTally {
  const t = new EvidenceTally();
  const m = t as unknown as Record<string, unknown>;
  for (const p of parts) {
    for (const key of [
      "cases",
      "accepted",
      "facts",
      "citations",
      "groundingSum",
      "goldCompared",
      "goldCorrect",
      "dependencyConflicts",
      "locatedCases",
      "locatedAccepted",
      "locatedItems",
      "locatedValid",
    ]) {
      m[key] = (m[key] as number) + (p[key] as number);
    }
    for (const key of ["errors", "states", "freshness", "locatedIssues", "locatedErrors"]) addCounts(m[key] as Counts, p[key]);
    for (const [gold, row] of Object.entries((p.goldConfusion ?? {}) as Record<string, Counts>)) addCounts((t.goldConfusion[gold] ??= {}), row);
    for (const [key, entry] of p.dependencies as [string, { dependency: never; cases: number }][]) {
      const known = t.dependencies.get(key);
      if (known) known.cases += entry.cases;
      else t.dependencies.set(key, { ...entry });
    }
  }
  t.groundingSum = 0;
  for (const [, values] of groundings.flat().sort((a, b) => a[0] - b[0])) for (const g of values) t.groundingSum += g;
  const examples = parts.map((p) => p.errorExamples as Record<string, { where: string }[]>);
  // Codes in order of their first example, as a single run meets them (report rejection_examples follow it).
  const merged = [...new Set(examples.flatMap((e) => Object.keys(e)))].map((code) => ({
    code,
    list: mergeExamples(
      examples.map((e) => e[code] ?? []),
      MAX_EXAMPLES_PER_CODE,
      stage,
    ),
  }));
  const firstAt = (list: { where: string }[]) => (list.length === 0 ? [Infinity, 0] : [stage(list[0]!.where), lineOfWhere(list[0]!.where)]);
  merged.sort((a, b) => firstAt(a.list)[0]! - firstAt(b.list)[0]! || firstAt(a.list)[1]! - firstAt(b.list)[1]!);
  for (const { code, list } of merged) (t.errorExamples as Record<string, unknown>)[code] = list;
  t.dependencyConflictExamples.push(
    ...(mergeExamples(
      parts.map((p) => p.dependencyConflictExamples as never[]),
      MAX_EXAMPLES_PER_CODE * 4,
      stage,
    ) as never[]),
  );
  t.locatedExamples.push(
    ...(mergeExamples(
      parts.map((p) => p.locatedExamples as never[]),
      MAX_EXAMPLES_PER_CODE * 4,
      stage,
    ) as never[]),
  );
  return t;
}

export interface LogJson {
  counts: Counts;
  examples: RejectionExample[];
}

export function logToJson(log: RejectionLog): LogJson {
  return { counts: { ...log.counts }, examples: [...log.examples] };
}

export function mergeLogs(parts: readonly LogJson[], stage: ExampleOrder): RejectionLog {
  const log = new RejectionLog();
  for (const p of parts) addCounts(log.counts, p.counts);
  log.examples.push(
    ...mergeExamples(
      parts.map((p) => p.examples),
      MAX_REJECTION_EXAMPLES,
      stage,
    ),
  );
  return log;
}
