// Combines shard reports of one pair corpus (`mari eval PAIRS --shard I/N`) into the report a single
// run would write: every pair number is a projection of summed counts (docs/eval.md, "Scale, determinism, sharding").
import { oneRunEach } from "../../io/output-guard.js";
import { checkCasesDigest } from "../../report/cases-digest.js";
import { checkedCaseLines, checkPairCaseLine } from "../../report/shard-input.js";
import { emptyConfusion, PAIR_CLASSES, type Confusion, type PairTally, type UnitPrices } from "../../core/pairs/index.js";
import { dirname, join } from "node:path";
import { InputError, located } from "../../io/errors.js";
import { firstInRunOrder, lineOfWhere } from "../../report/rejection-examples.js";
import type { ReportOutcome } from "../outcome.js";
import { readShardReports } from "../shard-reports.js";
import { shardGateSpecs } from "../../gates/decide.js";
import { combineGates, type GateSpec } from "../../gates/spec.js";
import { AtomicLineWriter } from "../../io/atomic-write.js";
import { BufferedLines } from "../../io/buffered-lines.js";
import { canonicalJson, sha256Text } from "../../io/hashing.js";
import type { Report, ReportFormat } from "../../report/types.js";
import { DEFAULT_REPORT_FORMATS, writeReportFiles } from "../../report/write.js";
import { GOLD_MESSAGE, MAX_EXAMPLES, PairInputStats, readPairs } from "./input.js";
import { buildPairReport, pairGateList, type PairCounts } from "./run.js";

/** The line an unrecognised gold label's example ("FILE:LINE: gold …") names. */
const goldExampleLine = (message: string): number => lineOfWhere(message.slice(0, message.indexOf(GOLD_MESSAGE)));

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

/**
 * Merges pair reports: the same corpus (slice hash), classifier config, unit prices and gates, and
 * either every shard of one split exactly once or a single unsharded report. `system` and `elapsed`
 * come from the caller.
 */
export function mergePairReports(
  reports: readonly Report[],
  context: { system: Report["system"]; elapsedSeconds: number; gates?: readonly GateSpec[]; paths?: readonly string[] },
): Report {
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
  // The shards' recorded gates must agree; gates given to the merge win over them.
  const shardGates = shardGateSpecs(reports.map((report, k) => ({ path: context.paths?.[k] ?? `report ${k + 1}`, report })));
  const shards = reports.map((r) => r.shard as { index: number; count: number } | undefined);
  const count = shards[0]?.count;
  if (count === undefined ? reports.length !== 1 : shards.some((s) => s?.count !== count) || reports.length !== count) {
    throw new InputError(`merge: expected the ${count ?? 1} shard report(s) of one split, got ${reports.length}`);
  }
  if (count !== undefined && new Set(shards.map((s) => s!.index)).size !== count) throw new InputError("merge: a shard index appears twice");

  const tally: PairTally = { confusion: emptyConfusion(), byKind: Object.create(null) as Record<string, Confusion>, unlabelled: 0 };
  const counts: Omit<PairCounts, "labelled" | "unlabelled"> = { records: 0, usable: 0, rejected: 0, unrecognised_gold: 0, unrecognised_gold_examples: [] };
  const rejections: Record<string, number> = {};
  const examples: Report["rejection_examples"][] = [];
  const goldExamples: string[][] = [];
  // Shard order, so the merged examples do not depend on the order of the arguments.
  const ordered = [...reports].sort(
    (a, b) => ((a.shard as { index: number } | undefined)?.index ?? 0) - ((b.shard as { index: number } | undefined)?.index ?? 0),
  );
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
    goldExamples.push(p.unrecognised_gold_examples);
    for (const [reason, n] of Object.entries(r.rejections)) rejections[reason] = (rejections[reason] ?? 0) + n;
    examples.push(r.rejection_examples);
  }
  counts.unrecognised_gold_examples = firstInRunOrder(goldExamples, MAX_EXAMPLES, (a, b) => goldExampleLine(a) - goldExampleLine(b));
  return buildPairReport({
    dataset: first.dataset,
    counts,
    rejections,
    rejectionExamples: firstInRunOrder(examples, MAX_EXAMPLES, (a, b) => lineOfWhere(a.where) - lineOfWhere(b.where)),
    tally,
    prices: (first.revision_cost as { unit_prices: UnitPrices }).unit_prices,
    gates: pairGateList(combineGates(context.gates ?? [], shardGates)),
    system: context.system,
    elapsedSeconds: context.elapsedSeconds,
  });
}

export interface PairMergeOptions {
  reportPaths: string[];
  outDir: string;
  /** The pair corpus, when it is not at the path recorded in the reports. */
  pairsPath?: string;
  formats?: readonly ReportFormat[];
  /** Gates given to the merge (flags, then config); they win over the shards' recorded gates. */
  gates?: readonly GateSpec[];
}

/**
 * `mari merge` for pair shards: merges the reports, and the shards' cases.jsonl (beside each
 * report) back into corpus order by re-reading the corpus's ids. The merged report carries the
 * gates the single run would have had.
 */
export const runPairMerge = oneRunEach(runPairMergeInRun);

async function runPairMergeInRun(options: PairMergeOptions): Promise<ReportOutcome> {
  const started = process.hrtime.bigint();
  const { reports, first } = await readShardReports(options.reportPaths);
  const pairsPath = options.pairsPath ?? first.dataset.path;
  const config = { ...(first.system.config as Record<string, unknown>), merged_from: options.reportPaths };
  const system = { ...first.system, config, config_hash: sha256Text(canonicalJson(config)) };
  const report = mergePairReports(reports, { system, elapsedSeconds: 0, gates: options.gates ?? [], paths: options.reportPaths });

  // Every shard's case lines by id, then written in corpus order (what the single run wrote).
  const lines = new Map<string, string>();
  for (const [k, path] of options.reportPaths.entries()) {
    const casesPath = join(dirname(path), "cases.jsonl");
    await checkCasesDigest(path, reports[k]!, casesPath);
    try {
      for await (const line of checkedCaseLines(casesPath, checkPairCaseLine)) {
        const id = line.record.id as string;
        if (lines.has(id)) throw new InputError(located(casesPath, line.lineNo, `pair ${JSON.stringify(id)} has a case line in more than one place`));
        lines.set(id, line.text);
      }
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new InputError(located(casesPath, undefined, `cannot read the shard's cases: ${(err as Error).message}`));
    }
  }
  const cases = await AtomicLineWriter.open(join(options.outDir, "cases.jsonl"));
  const caseLines = new BufferedLines(cases);
  try {
    const corpus = new PairInputStats();
    let written = 0;
    for await (const { pair } of readPairs(pairsPath, corpus)) {
      const line = lines.get(pair.id);
      if (line === undefined) throw new InputError(located(pairsPath, undefined, `merge: no shard has a case line for pair ${JSON.stringify(pair.id)}`));
      await caseLines.push(`${line}\n`);
      written++;
    }
    // The corpus re-read must be the one the shards scored, and every shard line must find its pair:
    // otherwise the merged cases.jsonl would silently lose lines the report still counts.
    if (corpus.sliceHash() !== first.dataset.slice_hash) {
      throw new InputError(located(pairsPath, undefined, "merge: not the pair corpus the shards scored (slice_hash differs); give the right one with --slice"));
    }
    if (written !== lines.size) {
      throw new InputError(located(pairsPath, undefined, `merge: the shards hold ${lines.size} case lines but the corpus has ${written} usable pairs`));
    }
    await caseLines.flush();
  } catch (err) {
    await cases.abort();
    throw err;
  }
  await cases.commit();
  report.elapsed_seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const files = await writeReportFiles(options.outDir, report, options.formats ?? DEFAULT_REPORT_FORMATS, {
    caseFiles: [{ path: join(options.outDir, "cases.jsonl") }],
  });
  return { report, outDir: options.outDir, files: [join(options.outDir, "cases.jsonl"), ...files], inputErrors: [] };
}
