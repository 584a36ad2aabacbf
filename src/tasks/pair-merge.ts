// Combines shard reports of one pair corpus (`mari eval PAIRS --shard I/N`) into the report a single
// run would write: every pair number is a projection of summed counts (SPEC §4.4).
import { DEFAULT_PAIR_GATES, emptyConfusion, PAIR_CLASSES, type Confusion, type PairTally, type UnitPrices } from "../core/pairs/index.js";
import { InputError } from "../cli/errors.js";
import type { GateSpec } from "../gates/spec.js";
import { canonicalJson } from "../report/system.js";
import type { Report } from "../report/types.js";
import { buildPairReport, type PairCounts } from "./pairs.js";

const MAX_EXAMPLES = 50;

function addConfusion(target: Confusion, source: unknown, where: string): void {
  const matrix = source as Record<string, Record<string, unknown>> | undefined;
  for (const gold of PAIR_CLASSES) {
    for (const pred of PAIR_CLASSES) {
      const n = matrix?.[gold]?.[pred];
      if (typeof n !== "number" || !Number.isInteger(n) || n < 0) throw new InputError(`${where}: confusion ${gold}→${pred} is not a count`);
      target[gold][pred] += n;
    }
  }
}

/** A report's gate results as specs, so the merged report checks the same gates. */
function gateSpecsOf(report: Report): GateSpec[] {
  return report.gates.map((g) => {
    const isDefault = DEFAULT_PAIR_GATES.some((d) => d.metric === g.metric && d.kind === g.kind && d.threshold === g.threshold);
    const spec: GateSpec = { kind: g.kind, metric: g.metric, threshold: g.threshold, source: isDefault ? "default" : "cli" };
    if (g.kind === "max_invalid_rate" && g.name.startsWith("max_invalid_count")) spec.isCount = true;
    return spec;
  });
}

/**
 * Merges pair reports: the same corpus (slice hash), classifier config, unit prices and gates, and
 * either every shard of one split exactly once or a single unsharded report. `system` and `elapsed`
 * come from the caller.
 */
export function mergePairReports(reports: readonly Report[], context: { system: Report["system"]; elapsedSeconds: number }): Report {
  if (reports.length === 0) throw new InputError("merge: no pair report given");
  const first = reports[0]!;
  const same = (what: string, get: (r: Report) => unknown) => {
    const expected = canonicalJson(get(first));
    for (const r of reports) if (canonicalJson(get(r)) !== expected) throw new InputError(`merge: the pair reports differ in ${what}`);
  };
  if (reports.some((r) => r.task !== "pairs")) throw new InputError("merge: every report must be a pairs report");
  same("corpus (dataset.slice_hash)", (r) => r.dataset.slice_hash);
  same("classifier config", (r) => (r.system.config as Record<string, unknown>).classifier);
  same("unit prices", (r) => (r.revision_cost as { unit_prices: unknown }).unit_prices);
  same("gates", (r) => r.gates.map((g) => [g.name, g.kind, g.threshold]));
  const shards = reports.map((r) => r.shard as { index: number; count: number } | undefined);
  const count = shards[0]?.count;
  if (count === undefined ? reports.length !== 1 : shards.some((s) => s?.count !== count) || reports.length !== count) {
    throw new InputError(`merge: expected the ${count ?? 1} shard report(s) of one split, got ${reports.length}`);
  }
  if (count !== undefined && new Set(shards.map((s) => s!.index)).size !== count) throw new InputError("merge: a shard index appears twice");

  const tally: PairTally = { confusion: emptyConfusion(), byKind: Object.create(null) as Record<string, Confusion>, unlabelled: 0 };
  const counts: Omit<PairCounts, "labelled" | "unlabelled"> = { records: 0, usable: 0, rejected: 0, unrecognised_gold: 0, unrecognised_gold_examples: [] };
  const rejections: Record<string, number> = {};
  const examples: Report["rejection_examples"] = [];
  // Shard order, so the merged examples do not depend on the order of the arguments.
  const ordered = [...reports].sort((a, b) => ((a.shard as { index: number } | undefined)?.index ?? 0) - ((b.shard as { index: number } | undefined)?.index ?? 0));
  for (const r of ordered) {
    const where = `merge: ${r.dataset.path}${r.shard ? ` shard ${(r.shard as { index: number }).index}` : ""}`;
    addConfusion(tally.confusion, r.confusion, where);
    for (const [kind, confusion] of Object.entries((r.confusion_by_kind ?? {}) as Record<string, unknown>)) {
      addConfusion((tally.byKind[kind] ??= emptyConfusion()), confusion, where);
    }
    const p = r.pairs as PairCounts;
    tally.unlabelled += p.unlabelled;
    counts.records += p.records;
    counts.usable += p.usable;
    counts.rejected += p.rejected;
    counts.unrecognised_gold += p.unrecognised_gold;
    counts.unrecognised_gold_examples.push(...p.unrecognised_gold_examples);
    for (const [reason, n] of Object.entries(r.rejections)) rejections[reason] = (rejections[reason] ?? 0) + n;
    examples.push(...r.rejection_examples);
  }
  counts.unrecognised_gold_examples.splice(MAX_EXAMPLES);
  return buildPairReport({
    dataset: first.dataset,
    counts,
    rejections,
    rejectionExamples: examples.slice(0, MAX_EXAMPLES),
    tally,
    prices: (first.revision_cost as { unit_prices: UnitPrices }).unit_prices,
    gates: gateSpecsOf(first),
    system: context.system,
    elapsedSeconds: context.elapsedSeconds,
  });
}
