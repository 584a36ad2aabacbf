// Assembles report.json for a document eval from the eval result; and its outline before the run
// (the keys known from the flags alone), against which gates are checked before the dump is read.
import { metricsWithInterval } from "../../core/metrics/descriptors/index.js";
import { emptyRunSums, runMetrics } from "../../core/metrics/run-sums.js";
import { EVERY_KEY, LATER } from "../../gates/decide.js";
import { sha256File } from "../../io/hashing.js";
import { collectSystemInfo, type GitRevision } from "../../report/system.js";
import { REPORT_SCHEMA_RUNS_SUMMARY, REPORT_SCHEMA_VERSION, type DatasetInfo, type Report } from "../../report/types.js";
import { sliceFileSha256, sliceRejectionWarnings, type DocumentSlice } from "../../io/slice-kept.js";
import type { DocumentEvalResult, Shard } from "./score-dump.js";

export interface DocumentReportContext {
  slicePath: string;
  /** The git revision, looked up when the run started (collectSystemInfo's `git`). */
  git?: GitRevision;
  dumpPath: string | null;
  seed: number;
  bootstrap: number;
  workers: number;
  shard: Shard | undefined;
  /** `--limit N`: only the first N cases of the slice were scored. */
  limit?: number;
  /** The judge mari ran to produce the dump (e.g. "lexical"), or null for a user's dump. */
  judge: string | null;
  judgeNote?: string;
  config: Record<string, unknown>;
  elapsedSeconds: number;
  /** Known hashes (merge: the dump need not be present); computed from the files otherwise. */
  sliceSha256?: string;
  dumpSha256?: string;
}

/** What report.json says about the slice beyond its identity; nothing for a plain slice read with mari's rule. */
function sliceNotes(slice: DocumentSlice): Partial<DatasetInfo> {
  const multiType = slice.cases.reduce((n, c) => n + (Array.isArray(c.contraType) ? 1 : 0), 0);
  return {
    ...(slice.sentences !== "mari" ? { sentences: slice.sentences } : {}),
    ...(slice.rejected.length > 0 ? { rejected_records: slice.rejected.length } : {}),
    ...(multiType > 0 ? { multi_type_cases: multiType } : {}),
  };
}

export async function buildDocumentReport(result: DocumentEvalResult, ctx: DocumentReportContext): Promise<Report> {
  const a = result.aggregate;
  const system = await collectSystemInfo({
    config: ctx.config,
    seed: ctx.seed,
    workers: ctx.workers,
    judge: ctx.judge,
    ...(ctx.judgeNote !== undefined ? { judgeNote: ctx.judgeNote } : {}),
    ...(ctx.git !== undefined ? { git: ctx.git } : {}),
  });
  const report: Report = {
    // 1.2.0 only for the key it added (so reports of up to RUN_ROWS_CAP runs are as before); the
    // cases digest, recorded when the files are written, raises it again (recordCasesDigest).
    schema_version: a.runsSummary ? REPORT_SCHEMA_RUNS_SUMMARY : REPORT_SCHEMA_VERSION,
    task: "documents",
    dataset: {
      path: ctx.slicePath,
      sha256: ctx.sliceSha256 ?? sliceFileSha256(result.slice) ?? (await sha256File(ctx.slicePath)),
      cases: result.cases.length,
      slice_hash: result.sliceHash,
      ...sliceNotes(result.slice),
      ...(ctx.limit !== undefined ? { limit: ctx.limit, slice_cases: result.slice.cases.length } : {}),
    },
    predictions:
      ctx.dumpPath === null
        ? null
        : {
            path: ctx.dumpPath,
            sha256: ctx.dumpSha256 ?? result.dumpSha256 ?? (await sha256File(ctx.dumpPath)),
            lines: result.lines,
            runs: result.runKeys,
          },
    system,
    metrics: a.metrics,
    runs: a.runs,
    ...(a.runsSummary ? { runs_summary: a.runsSummary } : {}),
    spread: a.spread,
    ci: a.ci,
    breakdowns: a.breakdowns,
    setcons: a.setcons,
    ...(a.setconsReason !== null ? { setcons_reason: a.setconsReason } : {}),
    majority: a.majority,
    gates: [],
    rejections: result.rejections,
    rejection_examples: result.rejectionExamples,
    // The dump line of each example's first occurrence, so every orphan example has a file:line.
    orphans: { ...result.orphans, first_lines: result.orphanFirstLines },
    invalid: a.invalid,
    histograms: a.histograms,
    elapsed_seconds: ctx.elapsedSeconds,
  };
  if (ctx.shard) {
    // What `mari merge` needs beyond the shards' cases.jsonl (documented in docs/eval.md).
    report.shard = {
      index: ctx.shard.index,
      count: ctx.shard.count,
      run_first_lines: Object.fromEntries(result.runKeys.map((key, r) => [key, result.runFirstLines[r]])),
      line_rejections: result.lineRejections,
      orphan_first_lines: result.orphanFirstLines,
    };
  }
  const coverage = coverageWarning(result, ctx.limit);
  const warnings = [...sliceRejectionWarnings(result.slice), coverage];
  // Missing predictions the coverage warning explains do not make the dump's format the story.
  if (coverage === undefined || !missingMakeTheMajority(report)) warnings.push(invalidMajorityWarning(report));
  const said = warnings.filter((w): w is string => w !== undefined);
  if (said.length > 0) report.warnings = said;
  return report;
}

/**
 * When the dump has predictions for fewer than half of the cases scored (a smoke run of
 * `mari predict --limit 5` scored against the whole slice), the report says so and how to score
 * only the cases the dump covers.
 */
export function coverageWarning(result: Pick<DocumentEvalResult, "cases" | "coverage">, limit: number | undefined): string | undefined {
  const total = result.cases.length;
  const { cases: covered, leading } = result.coverage;
  if (covered === 0 || covered * 2 >= total) return undefined;
  const advice =
    limit !== undefined
      ? "check that the dump was made for this slice"
      : leading === covered
        ? `they are the slice's first ${covered}: pass --limit ${covered} to score only those (as mari predict --limit ${covered} chose them)`
        : "pass --limit N to score only the slice's first N cases (as mari predict --limit N chooses them)";
  return `the dump covers ${covered} of ${total} cases; the other ${total - covered} are scored as missing_prediction; ${advice}`;
}

/** Whether the format-invalid predictions are a majority only because of missing ones. */
function missingMakeTheMajority(report: Report): boolean {
  const invalid = report.invalid;
  if (!invalid) return false;
  const missing = report.rejections["missing_prediction"] ?? 0;
  return (invalid.count - missing) * 2 <= invalid.total;
}

/** What --strict objects to: rejected dump lines, orphans and format-invalid kept lines. */
export function strictViolations(report: Report): string[] {
  const out: string[] = [];
  for (const [reason, count] of Object.entries(report.rejections)) {
    if (reason !== "missing_prediction" && count > 0) out.push(`${count} × ${reason}`);
  }
  if (report.orphans && report.orphans.count > 0) out.push(`${report.orphans.count} orphan line(s)`);
  return out;
}

/**
 * When more than half of the predictions are format-invalid, the metrics mostly measure the dump's
 * format (each invalid prediction is scored as a negative, docs/core-document.md): every rendering says so up
 * front, gate or no gate.
 */
export function invalidMajorityWarning(report: Report): string | undefined {
  const invalid = report.invalid;
  if (!invalid || invalid.total === 0 || invalid.count * 2 <= invalid.total) return undefined;
  const percent = ((100 * invalid.count) / invalid.total).toFixed(1);
  return `${invalid.count} of ${invalid.total} predictions (${percent}%) are format-invalid and scored as negatives: these metrics mostly measure the dump's format, not the judge (reasons under rejections)`;
}

/**
 * The shape of a document report before its run: the metric tables' keys (fixed), the run keys and
 * every data-dependent table (breakdown values, SetCons on a one-run dump, rejections) left LATER.
 * Gates are checked against it before the dump is read (docs/eval.md, "Gates").
 */
export function documentReportOutline(bootstrap: number): Report {
  const table = Object.fromEntries(Object.keys(runMetrics(emptyRunSums())).map((name) => [name, 0]));
  const ci = [...metricsWithInterval("documents", "wilson"), ...(bootstrap > 0 ? metricsWithInterval("documents", "bootstrap") : [])];
  const outline: Record<string, unknown> = {
    schema_version: LATER,
    task: "documents",
    dataset: LATER,
    predictions: LATER,
    system: LATER,
    metrics: table,
    runs: { [EVERY_KEY]: table },
    runs_summary: LATER,
    spread: Object.fromEntries(Object.keys(table).map((name) => [name, { std: 0, min: 0, max: 0 }])),
    ci: Object.fromEntries(ci.map((name) => [name, LATER])),
    breakdowns: LATER,
    setcons: LATER,
    setcons_reason: LATER,
    majority: table,
    gates: LATER,
    rejections: LATER,
    rejection_examples: LATER,
    orphans: LATER,
    invalid: { count: 0, total: 0 },
    histograms: LATER,
    elapsed_seconds: 0,
    warnings: LATER,
    baseline: LATER,
    shard: LATER,
    gate_specs: LATER,
    cases_xxh64: LATER,
  };
  return outline as unknown as Report;
}
