// `mari merge` for document evals (docs/eval.md, "Scale, determinism, sharding"): rebuilds the single-run (case, run) table from the
// shards' cases.jsonl, restores the global run order and line-level counts from each shard report's
// `shard` key, and aggregates with the same code as a single run, so the merged report equals the
// report one process would have written (apart from `system` and timing).
import { OPTIONS } from "../../core/options/index.js";
import { inPhase, SILENT_OBSERVER, type Progress, type RunObserver } from "../../io/observer.js";
import { oneRunEach } from "../../io/output-guard.js";
import { checkCasesDigest } from "../../report/cases-digest.js";
import { readDocumentCases } from "../../report/document-cases.js";
import { checkDocumentCaseLine, checkDocumentShardState, checkedCaseLines, readCheckedReport } from "../../report/shard-input.js";
import { dirname, join } from "node:path";
import { InputError, located } from "../../io/errors.js";
import { lineOfWhere } from "../../report/rejection-examples.js";
import { readDocumentSliceObserved, type DocumentSlice } from "../../io/slice.js";
import { sha256File } from "../../io/hashing.js";
import type { Report, ReportFormat } from "../../report/types.js";
import { DEFAULT_REPORT_FORMATS, writeReportFiles } from "../../report/write.js";
import type { ReportOutcome } from "../outcome.js";
import { loadBaseline } from "../../gates/baseline.js";
import { shardGateSpecs } from "../../gates/decide.js";
import { combineGates, type GateSpec } from "../../gates/spec.js";
import { decideDocumentReport } from "./decide.js";
import { buildDocumentReport } from "./report.js";
import { CASE_REASONS, type CaseReason } from "./score.js";
import { RunTable } from "./run-table.js";
import { finishDocumentEval, ORPHAN_EXAMPLE_CAP, shardOfCaseId, type DocumentEvalResult, type FinishInput } from "./score-dump.js";

interface ShardState {
  index: number;
  count: number;
  run_first_lines: Record<string, number>;
  line_rejections: Record<string, number>;
  orphan_first_lines: number[];
}

export interface MergeInput {
  reportPaths: string[];
  outDir: string;
  /** The slice, when it is not at the path recorded in the shard reports. */
  slicePath?: string;
  /** Pool size for the aggregation (default 1: in-process). */
  workers?: number;
  /** Progress of the aggregation phases (default: silent). */
  observer?: RunObserver;
}

export interface MergeOutput {
  result: DocumentEvalResult;
  first: Report;
  /** Every shard report, in argument order. */
  shards: Report[];
  slicePath: string;
  seed: number;
  bootstrap: number;
}

async function readShardReport(path: string): Promise<{ report: Report; shard: ShardState }> {
  const report = await readCheckedReport(path, "shard report");
  const shard = report.shard as ShardState | undefined;
  if (report.task !== "documents" || !shard) {
    throw new InputError(located(path, undefined, "not a shard report of a document eval (run `mari eval … --shard I/N` first)"));
  }
  checkDocumentShardState(path, shard);
  return { report, shard };
}

export async function mergeDocumentShards(input: MergeInput): Promise<MergeOutput> {
  if (input.reportPaths.length === 0) throw new InputError("merge: give the shard reports to merge");
  const shards = await Promise.all(input.reportPaths.map((path) => readShardReport(path)));
  const first = shards[0]!.report;
  const count = checkShardSet(shards, input.reportPaths);
  const slicePath = input.slicePath ?? first.dataset.path;
  if ((await sha256File(slicePath).catch(() => null)) !== first.dataset.sha256) {
    throw new InputError(`merge: the slice ${slicePath} is missing or differs from the one the shards scored (give it with --slice)`);
  }
  // The shards' sentence rule (recorded in their reports), so the merge numbers as they did.
  const observer = input.observer ?? SILENT_OBSERVER;
  const slice = await readDocumentSliceObserved(slicePath, { sentences: first.dataset.sentences ?? "mari" }, observer);
  const runOrder = globalRunOrder(shards);
  const table = new RunTable(slice.cases.length);
  for (const [key] of runOrder) table.ensureRun(key);
  const kept = await readShardCases(input.reportPaths, shards, slice, count, table, observer);
  const counts = mergedLineCounts(shards, first, kept);
  const config = first.system.config as Record<string, unknown>;
  const seed = first.system.seed;
  const bootstrap = typeof config.bootstrap === "number" ? config.bootstrap : (first.ci.macro_f1?.resamples ?? OPTIONS.bootstrap.default);
  const result = await finishDocumentEval({
    slice,
    cases: slice.cases,
    table,
    lines: counts.lines,
    runFirstLines: runOrder.map(([, line]) => line),
    lineRejections: counts.lineRejections,
    examples: counts.examples,
    orphans: counts.orphans,
    orphanFirstLines: counts.orphanFirstLines,
    outDir: input.outDir,
    seed,
    bootstrap,
    lenientIds: config.lenient_ids === true,
    workers: input.workers ?? 1,
    ...(input.observer ? { observer: input.observer } : {}),
  });
  return { result, first, shards: shards.map((s) => s.report), slicePath, seed, bootstrap };
}

type ShardReport = { report: Report; shard: ShardState };

/** The shard count, once every shard is checked to be one of a complete set over the same slice and dump. */
function checkShardSet(shards: readonly ShardReport[], reportPaths: readonly string[]): number {
  const first = shards[0]!.report;
  const count = shards[0]!.shard.count;
  const seen = new Set<number>();
  shards.forEach(({ report, shard }, k) => {
    const where = reportPaths[k]!;
    if (shard.count !== count) throw new InputError(located(where, undefined, `shard count ${shard.count} differs from ${count}`));
    if (seen.has(shard.index)) throw new InputError(located(where, undefined, `shard ${shard.index}/${count} given twice`));
    seen.add(shard.index);
    if (report.dataset.sha256 !== first.dataset.sha256) throw new InputError(located(where, undefined, "scored a different slice than the first report"));
    if (report.dataset.sentences !== first.dataset.sentences) {
      throw new InputError(located(where, undefined, "numbered the slice's sentences with another rule (--sentences) than the first report"));
    }
    if (report.predictions?.sha256 !== first.predictions?.sha256)
      throw new InputError(located(where, undefined, "scored a different dump than the first report"));
    // Every shard reads the whole dump, so each counted the same lines; a shard that says otherwise was edited.
    if (report.predictions?.lines !== first.predictions?.lines)
      throw new InputError(located(where, undefined, `counts ${report.predictions?.lines} dump lines, the first report ${first.predictions?.lines}`));
  });
  const absent = Array.from({ length: count }, (_, i) => i).filter((i) => !seen.has(i));
  if (absent.length > 0) throw new InputError(`merge: shard(s) ${absent.map((i) => `${i}/${count}`).join(", ")} missing`);
  return count;
}

/** Global run order = order of each run's first kept line over all shards: [run key, that line]. */
function globalRunOrder(shards: readonly ShardReport[]): [string, number][] {
  const firstLine = new Map<string, number>();
  for (const { shard } of shards) {
    for (const [key, line] of Object.entries(shard.run_first_lines)) {
      firstLine.set(key, Math.min(line, firstLine.get(key) ?? Infinity));
    }
  }
  return [...firstLine.entries()].sort((a, b) => a[1] - b[1]);
}

/** Each shard's cases.jsonl into `table`, one tick per (case, run) record; returns the kept lines' count. */
async function readShardCases(
  reportPaths: readonly string[],
  shards: readonly ShardReport[],
  slice: DocumentSlice,
  count: number,
  table: RunTable,
  observer: RunObserver,
): Promise<number> {
  let kept = 0;
  await inPhase(observer, "read shards (case × run)", undefined, async (reading) => {
    for (let k = 0; k < shards.length; k++) kept += await readOneShardCases(reportPaths[k]!, shards[k]!, slice, count, table, reading);
  });
  return kept;
}

const REASON_INDEX = new Map<string, number>(CASE_REASONS.map((r, i) => [r ?? "", i]));

async function readOneShardCases(
  reportPath: string,
  { report, shard }: ShardReport,
  slice: DocumentSlice,
  count: number,
  table: RunTable,
  reading: Progress,
): Promise<number> {
  const casesPath = join(dirname(reportPath), "cases.jsonl");
  await checkCasesDigest(reportPath, report, casesPath);
  // A shard's cases.jsonl holds one record per (case of the shard, run of the shard). Fewer
  // (a truncated or emptied file) would otherwise turn the lost cases into missing predictions.
  const shardCases = slice.cases.filter((c) => shardOfCaseId(c.id, count) === shard.index).length;
  const expectedRows = shardCases * (report.predictions?.runs.length ?? 0);
  let rows = 0;
  let kept = 0;
  for await (const line of checkedCaseLines(casesPath, checkDocumentCaseLine, readDocumentCases)) {
    const row = line.record as Record<string, any>;
    rows++;
    reading.tick();
    const c = slice.cases[row.case_index];
    if (!c || c.id !== row.case_id) throw new InputError(located(casesPath, line.caseLineNo, "case_index/case_id do not match the slice"));
    if (shardOfCaseId(c.id, count) !== shard.index)
      throw new InputError(located(casesPath, line.caseLineNo, `case ${JSON.stringify(c.id)} does not belong to shard ${shard.index}/${count}`));
    if (row.line === null) continue; // missing: re-derived by the aggregation
    kept++;
    const run = table.runIndex(String(row.run));
    if (run === undefined || !REASON_INDEX.has(row.reason ?? "")) throw new InputError(located(casesPath, line.lineNo, "unknown run or reason"));
    table.put(run, c.index, row.line, {
      judgment: row.judgment === true,
      reason: (row.reason ?? null) as CaseReason | null,
      evidence: row.evidence_sentence_ids,
      referenceCoverage: row.reference_coverage,
      rewardAccuracy: row.reward_accuracy,
      matched: row.matched_evidence_count,
    });
  }
  if (rows !== expectedRows) {
    throw new InputError(
      located(
        casesPath,
        undefined,
        `has ${rows} (case, run) records; its report implies ${expectedRows} (${shardCases} cases × ${report.predictions?.runs.length ?? 0} runs): truncated or not this shard's file`,
      ),
    );
  }
  return kept;
}

/** The line-level counts, examples and orphans of all shards together, checked to account for every dump line. */
function mergedLineCounts(
  shards: readonly ShardReport[],
  first: Report,
  kept: number,
): Pick<FinishInput, "lines" | "lineRejections" | "examples" | "orphans" | "orphanFirstLines"> {
  const lineRejections: Record<string, number> = {};
  for (const { shard } of shards) {
    for (const [code, n] of Object.entries(shard.line_rejections)) lineRejections[code] = (lineRejections[code] ?? 0) + n;
  }
  const examples = shards
    .flatMap(({ report }) => report.rejection_examples.filter((ex) => ex.reason !== "missing_prediction"))
    .sort((a, b) => lineOfWhere(a.where) - lineOfWhere(b.where));
  const orphanSeen = shards
    .flatMap(({ report, shard }) => (report.orphans?.examples ?? []).map((id, i) => ({ id, line: shard.orphan_first_lines[i] ?? 0 })))
    .sort((a, b) => a.line - b.line)
    .slice(0, ORPHAN_EXAMPLE_CAP);
  const orphans = {
    count: shards.reduce((sum, { report }) => sum + (report.orphans?.count ?? 0), 0),
    examples: orphanSeen.map((o) => o.id),
  };
  // Each dump line is exactly one of: rejected at line level, an orphan, or a kept prediction (as in
  // a single run). Forged counts in a shard's `shard` block or `orphans` break this sum.
  const lines = first.predictions?.lines ?? 0;
  const rejected = Object.values(lineRejections).reduce((sum, n) => sum + n, 0);
  if (rejected + orphans.count + kept !== lines) {
    throw new InputError(
      `merge: the shards do not account for the dump's ${lines} lines (${rejected} rejected + ${orphans.count} orphans + ${kept} kept = ${rejected + orphans.count + kept}): a shard report or its cases.jsonl was changed; rerun the shards`,
    );
  }
  return { lines, lineRejections, examples, orphans, orphanFirstLines: orphanSeen.map((o) => o.line) };
}

export interface DocumentMergeOptions extends MergeInput {
  formats?: readonly ReportFormat[];
  /** Gates given to the merge (flags, then config); they win over the gates the shards recorded. */
  gates?: readonly GateSpec[];
  /** The baseline to compare with; default: the one the shards were compared with. */
  baselinePath?: string;
}

/** `mari merge` for document shards, end to end: the merged report, built and written as a single run's. */
export const runDocumentMerge = oneRunEach(runDocumentMergeInRun);

async function runDocumentMergeInRun(options: DocumentMergeOptions): Promise<ReportOutcome> {
  const started = process.hrtime.bigint();
  const { formats, gates: mergeGates, baselinePath: mergeBaseline, ...input } = options;
  const merged = await mergeDocumentShards(input);
  // The last phase: the report built and decided, cases.jsonl published, the files written.
  const reporting = (input.observer ?? SILENT_OBSERVER).progress("report (steps)", 1);
  try {
    const gates = combineGates(mergeGates ?? [], shardGateSpecs(merged.shards.map((report, k) => ({ path: options.reportPaths[k]!, report }))));
    const baselinePath = mergeBaseline ?? merged.first.baseline?.path ?? undefined;
    const baseline = baselinePath !== undefined && baselinePath !== null ? await loadBaseline(baselinePath) : undefined;
    const system = merged.first.system;
    const config = { ...(system.config as Record<string, unknown>), shard: null };
    const report = await buildDocumentReport(merged.result, {
      slicePath: merged.first.dataset.path,
      dumpPath: merged.first.predictions?.path ?? null,
      seed: merged.seed,
      bootstrap: merged.bootstrap,
      workers: system.workers,
      shard: undefined,
      judge: system.judge,
      ...(system.judge_note !== undefined ? { judgeNote: system.judge_note } : {}),
      config: { ...config, merged_from: options.reportPaths },
      elapsedSeconds: 0,
      sliceSha256: merged.first.dataset.sha256,
      ...(merged.first.predictions ? { dumpSha256: merged.first.predictions.sha256 } : {}),
    });
    if (system.judge_run !== undefined) report.system.judge_run = system.judge_run;
    await decideDocumentReport(report, {
      casesPath: merged.result.casesPath,
      ...(baseline ? { baseline } : {}),
      gates,
      seed: merged.seed,
      bootstrap: merged.bootstrap,
      sliceHash: merged.result.sliceHash,
      partial: false,
    });
    report.elapsed_seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const casesFile = await merged.result.casesFile.commit();
    const files = await writeReportFiles(options.outDir, report, formats ?? DEFAULT_REPORT_FORMATS, {
      caseFiles: [{ path: casesFile, digest: merged.result.casesFile.digest }],
    });
    reporting.tick();
    reporting.done();
    return { report, outDir: options.outDir, files: [...files, casesFile], inputErrors: [] };
  } catch (err) {
    reporting.done(false);
    // Nothing of a merge that fails here replaces what an earlier run left in --out.
    await merged.result.casesFile.abort();
    throw err;
  }
}
