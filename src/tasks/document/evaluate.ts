// `evaluateDocuments`: a document slice and a prediction dump (or, without one, the built-in
// lexical judge's) in; report files, the case stream and the report object out. Everything `mari
// eval` does for documents except reading flags, printing and choosing the exit code.
import { OPTIONS } from "../../core/options/index.js";
import { oneRunEach } from "../../io/output-guard.js";
import { changedWhileRead, snapshotFile } from "../../io/file-change.js";
import { assertRegularFile } from "../../io/input-file.js";
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Baseline } from "../../gates/baseline.js";
import type { GateSpec } from "../../gates/spec.js";
import { asInputErrors, InputError, located } from "../../io/errors.js";
import { SILENT_OBSERVER, type RunObserver } from "../../io/observer.js";
import { readDocumentSliceStoredObserved } from "../../io/slice-store.js";
import { sliceRejectionWarnings, type DocumentSlice, type SentenceRule, type SliceReadOptions } from "../../io/slice-kept.js";
import { metaPathFor, readDumpMeta } from "../../judges/dump-meta.js";
import type { Report, ReportFormat } from "../../report/types.js";
import { DEFAULT_REPORT_FORMATS, writeReportFiles } from "../../report/write.js";
import { type GitRevision, gitRevision } from "../../report/system.js";
import type { ReportOutcome } from "../outcome.js";
import type { CaseChange } from "../../gates/changes.js";
import type { PairedSide } from "../../gates/paired-side.js";
import { LineOffsets } from "./line-offsets.js";
import { buildDocumentReport, documentReportOutline, strictViolations } from "./report.js";
import { checkGates } from "../../gates/decide.js";
import { decideDocumentReport } from "./decide.js";
import { assertPredictionDump } from "./dump-shape.js";
import { isConvertedDump, isToolLog, type DumpSourceOptions } from "./dump-source.js";
import { isIdentifiedServeLog, serveReplay, type ReplayPhase, type ServeReplaySummary } from "./serve-replay.js";
import { runDocumentEval, startDocumentPool, type DocumentEvalResult, type EarlyDocumentPool, type Shard } from "./score-dump.js";
import type { CompletionEndRule } from "../../core/document/completion-end.js";

/** Where an evaluation without a dump keeps the lexical judge's dump (inside the output directory). */
export const LEXICAL_DUMP_NAME = "lexical.predictions.jsonl";

/** What to evaluate and how; every field but the slice has the default `mari eval` uses. */
export interface DocumentEvalSettings {
  slicePath: string;
  /** The prediction dump; without it the built-in lexical judge (a baseline) writes one into `outDir`. */
  dumpPath?: string;
  outDir?: string;
  formats?: readonly ReportFormat[];
  /**
   * Rejected dump lines or format-invalid predictions make the run an input error (reports still
   * written); a bad slice record stops it before scoring (without, the record is left out and listed).
   */
  strict?: boolean;
  /** How slice texts become numbered sentences (default mari's rule). */
  sentences?: SentenceRule;
  /** Where the compiled slice is kept between runs (`--cache-dir`; default: none, the slice is read every run). */
  sliceCacheDir?: string | undefined;
  /** Worker threads (1 = in-process, the default), or `auto`: chosen from the measured cost of scoring the dump's first block. */
  workers?: number | "auto";
  gates?: readonly GateSpec[];
  seed?: number;
  /** Bootstrap resamples for the macro-F1 interval. */
  bootstrap?: number;
  shard?: Shard;
  /** Score only the first N cases of the slice, in slice order (the cases `mari predict --limit N` judges). */
  limit?: number;
  /** An inspect_ai or promptfoo log as the dump: the sample metadata field or test var holding the case id. */
  idField?: string;
  /** A serve log whose items carry their generation identity: the phase replayed (default train). */
  phase?: ReplayPhase;
  lenientIds?: boolean;
  /** What is removed from a raw completion's end (default: the chat templates' end markers). */
  completionEnd?: CompletionEndRule;
  /** Write one JSONL reward line per scored prediction here. */
  rewardsPath?: string;
  /** A previous report.json (with its cases.jsonl) for paired comparison and --max-drop gates. */
  baselinePath?: string;
  /** Lines per worker chunk (tests vary it to show the output does not depend on it). */
  chunkLines?: number;
  /** The most cases report.html's explorer carries (default EXPLORER_CASE_CAP). */
  explorerCases?: number;
  /** The config file the settings came from, recorded in the report. */
  configPath?: string | null;
  /** Progress, warnings and notes (default: silent). */
  observer?: RunObserver;
  /** process.hrtime.bigint() when the run started (default: now), for elapsed_seconds. */
  started?: bigint;
}

/** Scores the dump (or the lexical judge's) against the slice and writes the reports. Input errors throw InputError. */
/** report.json's record of a completion-end rule other than the default (the default adds nothing). */
function completionEndConfig(rule: CompletionEndRule | undefined): Record<string, unknown> {
  if (rule?.keepSpecialTokens) return { keep_special_tokens: true };
  if (rule?.specialTokens?.length) return { special_tokens: [...rule.specialTokens] };
  return {};
}

export const evaluateDocuments = oneRunEach(evaluateDocumentsInRun);

/**
 * Refuses (InputError) the gates that cannot hold on any document report of these settings (an
 * unknown metric or path, `--max-drop` without a baseline): known before any input is read.
 */
export function checkDocumentGatesEarly(settings: Pick<DocumentEvalSettings, "gates" | "bootstrap" | "baselinePath">): void {
  checkGates(documentReportOutline(settings.bootstrap ?? OPTIONS.bootstrap.default), settings.gates ?? [], {
    beforeRun: { baseline: settings.baselinePath !== undefined },
  });
}

async function evaluateDocumentsInRun(settings: DocumentEvalSettings): Promise<ReportOutcome> {
  checkDocumentGatesEarly(settings);
  const started = settings.started ?? process.hrtime.bigint();
  const observer = settings.observer ?? SILENT_OBSERVER;
  const outDir = settings.outDir ?? "mari-report";
  if (settings.dumpPath !== undefined) return asInputErrors(() => evaluate({ ...settings, started, observer, outDir }, settings.dumpPath!, null));
  // No dump: the built-in lexical judge (docs/judges.md) produces one next to the report, so a fresh
  // install runs the main job offline. The report names the judge and says it is a baseline.
  const dumpPath = join(outDir, LEXICAL_DUMP_NAME);
  // The judge and the classifier it runs are loaded only by a run without a dump.
  const [{ judgeLexically }, { LEXICAL_JUDGE_NAME, LEXICAL_JUDGE_NOTE }] = await Promise.all([
    import("../predict/lexical.js"),
    import("../../judges/lexical.js"),
  ]);
  const slice = await asInputErrors(async () => {
    const read = await readDocumentSliceStoredObserved(settings.slicePath, sliceReadOptions(settings), settings.sliceCacheDir, observer);
    await judgeLexically(read.cases.slice(0, settings.limit), dumpPath, observer);
    return read;
  });
  observer.note(`no --predictions given: the built-in lexical judge (a baseline) wrote ${dumpPath}`);
  return asInputErrors(() => evaluate({ ...settings, started, observer, outDir }, dumpPath, { name: LEXICAL_JUDGE_NAME, note: LEXICAL_JUDGE_NOTE }, slice));
}

function sliceReadOptions(settings: DocumentEvalSettings): SliceReadOptions {
  return { sentences: settings.sentences ?? "mari", strict: settings.strict ?? false };
}

/** A limited run is not sharded: `mari merge` rebuilds whole-slice reports, and a limit is small anyway. */
export function checkLimitAndShard(limit: number | undefined, shard: Shard | undefined): void {
  if (limit !== undefined && shard !== undefined) throw new InputError("--limit and --shard: give one of them (a limited run is small enough for one process)");
}

type Resolved = DocumentEvalSettings & { started: bigint; observer: RunObserver; outDir: string };

async function evaluate(
  settings: Resolved,
  dumpPath: string,
  judge: { name: string; note?: string } | null,
  sliceRead?: DocumentSlice,
): Promise<ReportOutcome> {
  const { slicePath, observer, shard, limit, baselinePath } = settings;
  checkLimitAndShard(limit, shard);
  const seed = settings.seed ?? OPTIONS.seed.default;
  const bootstrap = settings.bootstrap ?? OPTIONS.bootstrap.default;
  const lenientIds = settings.lenientIds ?? false;
  // Loaded before the run: a bad baseline should fail fast, not after a long evaluation. The
  // comparison's modules are loaded only by a run with a baseline.
  const baseline = baselinePath !== undefined ? await (await import("../../gates/baseline.js")).loadBaseline(baselinePath) : undefined;
  if (baseline !== undefined && baseline.report.task !== "documents") {
    throw new InputError(
      located(baseline.path, undefined, `--baseline is a ${baseline.report.task} report; a document eval compares only with a documents report`),
    );
  }
  const dumpBytes = await checkedDumpBytes(dumpPath, settings);
  const replay = await serveReplayOf(dumpPath, settings);
  const formats = settings.formats ?? DEFAULT_REPORT_FORMATS;
  // The case explorer's texts: line offsets recorded during the dump pass, only for report.html.
  // A Parquet dump or an eval-tool log has no line offsets: its explorer texts come from a second pass.
  const explore = formats.includes("html");
  // A replayed serve log's blocks are not the file's bytes (its run keys are rewritten): no offsets.
  const offsets = explore && !(await isConvertedDump(dumpPath)) && !(await isIdentifiedServeLog(dumpPath)) ? new LineOffsets() : undefined;
  const dumpBefore = await snapshotFile(dumpPath);
  // report.json's git revision, asked for while the process is small (collectSystemInfo's `git`).
  const git = gitRevision();
  // Threads asked for start now: their start-up runs while this thread reads the slice.
  const earlyPool = sliceRead === undefined && typeof settings.workers === "number" && settings.workers > 1 ? startDocumentPool(settings.workers) : undefined;
  let slice: DocumentSlice;
  try {
    // The slice is read after every check of the dump above, so a bad dump is said before a bad slice.
    slice = sliceRead ?? (await readDocumentSliceStoredObserved(slicePath, sliceReadOptions(settings), settings.sliceCacheDir, observer));
  } catch (err) {
    await earlyPool?.close();
    throw err;
  }
  const result = await scoreDump(settings, slice, dumpPath, dumpBytes, offsets, earlyPool, replay?.onlyCases);
  try {
    return await reportOn(result, settings, {
      dumpPath,
      serveReplay: replay?.summary,
      judge,
      formats,
      explore,
      offsets,
      dumpBefore,
      git,
      baseline,
      workers: result.workers,
      seed,
      bootstrap,
      lenientIds,
    });
  } catch (err) {
    // Nothing of a run that fails here replaces what an earlier run left in --out.
    await result.casesFile.abort();
    throw err;
  }
}

/** The dump's size, once it is checked to be a readable regular file in a shape the eval reads. */
async function checkedDumpBytes(dumpPath: string, settings: Resolved): Promise<number> {
  let dumpBytes: number;
  await assertRegularFile(dumpPath);
  try {
    const info = await stat(dumpPath);
    if (!info.isFile()) throw new Error("not a file");
    dumpBytes = info.size;
  } catch (err) {
    throw new InputError(`--predictions ${dumpPath}: cannot read the dump (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  // A flag that would change nothing is refused, not ignored: the lines of a dump name their case.
  if (settings.idField !== undefined && !(await isToolLog(dumpPath))) {
    throw new InputError(
      `--id-field applies to an inspect_ai log, a promptfoo output or an lm-eval samples file; ${dumpPath} is a dump whose lines name their case in case_id`,
    );
  }
  await assertPredictionDump(dumpPath, dumpSourceOf(settings));
  return dumpBytes;
}

function dumpSourceOf(settings: Resolved): DumpSourceOptions {
  return { ...(settings.idField !== undefined ? { idField: settings.idField } : {}), ...(settings.phase !== undefined ? { phase: settings.phase } : {}) };
}

/**
 * A serve log whose items carry their generation identity is replayed (serve-replay.ts): what the
 * replay left out, said in the report, and the cases it covers, the only ones scored unless --limit
 * chooses. `--phase` on any other dump is refused: it would change nothing.
 */
async function serveReplayOf(
  dumpPath: string,
  settings: Resolved,
): Promise<{ summary: ServeReplaySummary & { scored_cases: string }; onlyCases: ReadonlySet<string> | undefined } | undefined> {
  if (!(await isIdentifiedServeLog(dumpPath))) {
    if (settings.phase !== undefined)
      throw new InputError(
        `--phase applies to a mari serve --log whose items carry their generation identity (phase, step, generation); ${dumpPath} is not one`,
      );
    return undefined;
  }
  const { summary, covered } = await serveReplay(dumpPath, settings.phase ?? "train");
  if (summary.covered_cases === 0 && summary.other_phase_lines > 0) {
    throw new InputError(
      `--predictions ${dumpPath}: a mari serve log with no ${summary.phase} line (${summary.other_phase_lines} of the other phase; see --phase)`,
    );
  }
  const { observer } = settings;
  observer.note(
    `${dumpPath}: a mari serve log replayed by generation identity: phase ${summary.phase}; ${summary.other_phase_lines} line(s) of the other phase and ${summary.superseded_lines} superseded by a newer attempt left out`,
  );
  if (settings.limit !== undefined) return { summary: { ...summary, scored_cases: "limit" }, onlyCases: undefined };
  observer.note(`only the ${summary.covered_cases} case(s) the log covers are scored (--limit N scores the slice's first N instead)`);
  return { summary: { ...summary, scored_cases: "covered" }, onlyCases: covered };
}

/** The dump pass (runDocumentEval), its progress shown in whole megabytes scored. */
async function scoreDump(
  settings: Resolved,
  slice: DocumentSlice,
  dumpPath: string,
  dumpBytes: number,
  offsets: LineOffsets | undefined,
  earlyPool: EarlyDocumentPool | undefined,
  onlyCases: ReadonlySet<string> | undefined,
): Promise<DocumentEvalResult> {
  const { slicePath, outDir, observer, shard, limit, rewardsPath } = settings;
  const totalMb = Math.max(1, Math.ceil(dumpBytes / 1e6));
  const progress = observer.progress("score (MB)", totalMb);
  let reportedMb = 0;
  // Ticks count whole megabytes scored; the last part of a megabyte (all of a small dump) ends the
  // phase when the last chunk is scored, before the aggregation phases start their own display.
  const scored = (done: number, total: number) => {
    const mb = done >= total ? totalMb : Math.floor(done / 1e6);
    if (mb > reportedMb) {
      progress.tick(mb - reportedMb);
      reportedMb = mb;
    }
    if (done >= total) progress.done();
  };
  let result: DocumentEvalResult;
  try {
    result = await runDocumentEval({
      slicePath,
      slice,
      dumpPath,
      outDir,
      workers: settings.workers ?? 1,
      earlyPool,
      chunkLines: settings.chunkLines,
      seed: settings.seed ?? OPTIONS.seed.default,
      bootstrap: settings.bootstrap ?? OPTIONS.bootstrap.default,
      lenientIds: settings.lenientIds ?? false,
      ...(settings.completionEnd ? { completionEnd: settings.completionEnd } : {}),
      ...(shard ? { shard } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(onlyCases !== undefined ? { onlyCases } : {}),
      dumpSource: dumpSourceOf(settings),
      ...(rewardsPath !== undefined ? { rewardsPath } : {}),
      ...(offsets ? { onDumpBlock: (firstLineNo: number, block: Buffer, lineEnds: Int32Array) => offsets.add(firstLineNo, block.length, lineEnds) } : {}),
      onProgress: scored,
      observer,
    });
  } catch (err) {
    progress.done(false);
    throw err;
  }
  scored(dumpBytes, dumpBytes);
  return result;
}

/** What reportOn needs of the run besides its result and settings. */
interface ReportRun {
  dumpPath: string;
  /** A replayed serve log: what the replay did (report.json's config.serve_replay). */
  serveReplay: (ServeReplaySummary & { scored_cases: string }) | undefined;
  judge: { name: string; note?: string } | null;
  formats: readonly ReportFormat[];
  /** report.html is written: the case explorer is built (from offsets when the dump pass recorded them). */
  explore: boolean;
  offsets: LineOffsets | undefined;
  dumpBefore: Awaited<ReturnType<typeof snapshotFile>>;
  git: GitRevision;
  baseline: Baseline | undefined;
  workers: number;
  seed: number;
  bootstrap: number;
  lenientIds: boolean;
}

/** This run's side of a `--baseline` comparison: from its run table, else (an entry the file's reader refuses) read from its cases.jsonl. */
async function ownSide(result: DocumentEvalResult): Promise<PairedSide> {
  const fromTable = (await import("./table-side.js")).tableSide(result.table, result.cases);
  return fromTable ?? (await (await import("../../gates/side-reader.js")).readDocumentSide(result.casesPath)).side;
}

/** The report of a scored run: built, decided and written (cases.jsonl published just before it). */
async function reportOn(result: DocumentEvalResult, settings: Resolved, run: ReportRun): Promise<ReportOutcome> {
  const { outDir, observer } = settings;
  const { dumpPath, formats, explore, baseline, seed, bootstrap } = run;
  // The last phase on the display: the report built, the baseline compared and gates decided, the
  // case explorer read from cases.jsonl and the dump (html only), the files written.
  const steps = observer.progress("report (steps)", explore ? 4 : 3);
  let completed = false;
  try {
    const report = await documentReportOf(result, settings, run);
    // Already in report.warnings (buildDocumentReport); said on stderr too, as warnings always are.
    for (const warning of sliceRejectionWarnings(result.slice)) observer.log(`warning: ${warning}`);
    const dumpChanged = await changedWhileRead(dumpPath, "the dump", run.dumpBefore);
    if (dumpChanged !== undefined) warn(report, observer, dumpChanged);
    // The run's side of the comparison, made once: the paired metrics and the explorer's
    // regressed/fixed filters (the per-case changes against the baseline) both use it. It is the
    // side its cases.jsonl reads as, made from the run table that file was written from.
    const currentSide = baseline ? await ownSide(result) : undefined;
    const changes: CaseChange[] | undefined =
      baseline && currentSide && explore ? (await import("../../gates/changes.js")).caseChanges(currentSide, baseline.side) : undefined;
    steps.tick();
    await decideDocumentReport(report, {
      casesPath: result.casesPath,
      ...(baseline ? { baseline } : {}),
      ...(currentSide ? { currentSide } : {}),
      gates: settings.gates ?? [],
      seed,
      bootstrap,
      sliceHash: result.sliceHash,
      partial: settings.shard !== undefined,
    });
    await addJudgeRun(report, dumpPath, settings);
    report.elapsed_seconds = Number(process.hrtime.bigint() - settings.started) / 1e9;
    const inputErrors = inputErrorsOf(result, report, settings, dumpPath);
    steps.tick();
    const explorer = explore ? await explorerOf(result, settings, run, changes) : undefined;
    if (explore) steps.tick();
    const casesFile = await result.casesFile.commit();
    const files = await writeReportFiles(outDir, report, formats, {
      inputErrors,
      caseFiles: [{ path: casesFile, digest: result.casesFile.digest }],
      ...(explorer ? { explorer } : {}),
    });
    // The summary's "report:" line names every file of the run, cases.jsonl too.
    steps.tick();
    completed = true;
    return { report, outDir, files: [...files, casesFile], inputErrors };
  } finally {
    steps.done(completed);
  }
}

/** report.json's object, with the run's settings as its `system.config`. */
function documentReportOf(result: DocumentEvalResult, settings: Resolved, run: ReportRun): Promise<Report> {
  const { slicePath, shard, limit } = settings;
  const { dumpPath, judge, workers, seed, bootstrap, lenientIds } = run;
  return buildDocumentReport(result, {
    slicePath,
    git: run.git,
    dumpPath,
    seed,
    bootstrap,
    workers,
    shard,
    ...(limit !== undefined ? { limit } : {}),
    judge: judge?.name ?? null,
    ...(judge?.note !== undefined ? { judgeNote: judge.note } : {}),
    config: {
      slice: resolve(slicePath),
      predictions: resolve(dumpPath),
      bootstrap,
      lenient_ids: lenientIds,
      ...completionEndConfig(settings.completionEnd),
      strict: settings.strict ?? false,
      ...(settings.sentences === "punkt" ? { sentences: "punkt" } : {}),
      shard: shard ? `${shard.index}/${shard.count}` : null,
      ...(limit !== undefined ? { limit } : {}),
      ...(settings.idField !== undefined ? { id_field: settings.idField } : {}),
      ...(run.serveReplay !== undefined ? { serve_replay: run.serveReplay } : {}),
      config_file: settings.configPath ?? null,
    },
    elapsedSeconds: 0,
  });
}

/** A warning in report.json and on the observer. */
function warn(report: Report, observer: RunObserver, warning: string): void {
  report.warnings = [...(report.warnings ?? []), warning];
  observer.log(`warning: ${warning}`);
}

/** The judge run recorded beside the dump (its meta file), if any, into `system.judge_run`; a sentence rule other than the eval's is warned about. */
async function addJudgeRun(report: Report, dumpPath: string, settings: Resolved): Promise<void> {
  const observer = settings.observer;
  const judgeRun = await readDumpMeta(dumpPath, (message) => observer.log(`warning: ${message}`));
  if (judgeRun === undefined) return;
  report.system.judge_run = judgeRun;
  // Evidence ids mean the sentences the prompts showed: a dump numbered otherwise is scored against other sentences.
  const promptRule = judgeRun["sentences"] === "punkt" ? "punkt" : "mari";
  const evalRule = settings.sentences ?? "mari";
  if (promptRule !== evalRule) {
    warn(
      report,
      observer,
      `the dump's prompts numbered sentences with --sentences ${promptRule} (${metaPathFor(dumpPath)}), this eval with ${evalRule}: evidence ids may point at other sentences; rerun with --sentences ${promptRule}`,
    );
  }
}

/** Ids shown of each side when none matched. */
const IDS_SHOWN = 3;

/** Nothing scored: a few ids of each side side by side, and the flags that reconcile them. */
function zeroScoredMessage(result: DocumentEvalResult, dumpPath: string): string {
  const quoted = (ids: readonly string[]) =>
    ids
      .slice(0, IDS_SHOWN)
      .map((id) => JSON.stringify(id))
      .join(", ");
  const sliceIds = quoted(result.cases.map((c) => c.id));
  const dumpIds = result.orphans.examples;
  const head = `${dumpPath}: zero cases scored (no dump line matched a slice case)`;
  // --lenient-ids is not offered: it loosens evidence sentence ids, never case ids.
  const fix =
    "a dump line names its case in case_id (or id), equal to the slice's id; for an inspect_ai or promptfoo log as --predictions, name the field holding the case id with --id-field FIELD";
  if (dumpIds.length === 0) return `${head}; no dump line carried a case id (the slice's ids are ${sliceIds}): ${fix}`;
  return `${head}: the slice's ids are ${sliceIds}${result.cases.length > IDS_SHOWN ? ", …" : ""}, the dump's ${quoted(dumpIds)}${dumpIds.length > IDS_SHOWN ? ", …" : ""}; ${fix}`;
}

/** The run's input errors: nothing scored (outside an empty shard), and --strict's violations. */
function inputErrorsOf(result: DocumentEvalResult, report: Report, settings: Resolved, dumpPath: string): string[] {
  const { shard, observer } = settings;
  const inputErrors: string[] = [];
  const scored = result.aggregate.casesScored;
  // A shard that holds no slice case has nothing to score; that is not an input error (small
  // slices over many shards), and `mari merge` accepts its empty report.
  const emptyShard = shard !== undefined && result.cases.length === 0;
  if (scored === 0 && !emptyShard) inputErrors.push(zeroScoredMessage(result, dumpPath));
  if (emptyShard) observer.log(`shard ${shard.index}/${shard.count} holds no case of this slice`);
  const violations = settings.strict ? strictViolations(report) : [];
  if (violations.length > 0) inputErrors.push(`--strict: ${violations.join(", ")}`);
  return inputErrors;
}

/** report.html's case explorer, from the run table in memory, the slice and the dump. */
async function explorerOf(result: DocumentEvalResult, settings: Resolved, run: ReportRun, changes: CaseChange[] | undefined) {
  // Loaded only by a run that writes report.html.
  const { buildDocumentExplorer, passSummary } = await import("./explorer.js");
  const columns = result.aggregate.caseColumns;
  return buildDocumentExplorer({
    outcomes: { cases: result.cases, table: result.table },
    // The dense pass's per-case columns, when it gathered them: no second pass over the cells.
    ...(columns ? { summary: () => passSummary(result.cases, columns, result.slice.cases.length) } : {}),
    slice: result.slice,
    dumpPath: run.dumpPath,
    ...(run.offsets ? { offsets: run.offsets } : {}),
    runs: result.runKeys,
    seed: run.seed,
    lenientIds: run.lenientIds,
    ...(settings.completionEnd ? { completionEnd: settings.completionEnd } : {}),
    ...(settings.explorerCases !== undefined ? { caseCap: settings.explorerCases } : {}),
    ...(changes ? { changes } : {}),
  });
}
