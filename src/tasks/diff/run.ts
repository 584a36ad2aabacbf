// `mari diff OLD NEW`: compares two finished reports without scoring anything again. Both sides are
// read as `--baseline` reads a report (report.json + the cases.jsonl beside it), the metric deltas,
// paired intervals and McNemar come from the same compareWithBaseline, the gates from the same
// evaluateGates; on top, the cases that regressed and that were fixed.
import { OPTIONS } from "../../core/options/index.js";
import { pairedFields } from "../../core/metrics/descriptors/index.js";
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { compareWithBaseline, loadBaseline, type Baseline } from "../../gates/baseline.js";
import { evaluateGates } from "../../gates/evaluate.js";
import { DOCUMENT_CLASSES } from "../../gates/paired.js";
import type { PairedOutcome } from "../../gates/paired-side.js";
import type { GateSpec } from "../../gates/spec.js";
import { InputError } from "../../io/errors.js";
import { readInputText } from "../../io/input-file.js";
import type { JsonObject } from "../../io/records.js";
import { inOneStep, inPhase, SILENT_OBSERVER, type RunObserver } from "../../io/observer.js";
import { readDocumentSliceObserved } from "../../io/slice.js";
import type { ExplorerData } from "../../report/explorer.js";
import type { BaselineComparison, GateResult, Report, TaskName } from "../../report/types.js";
import { CaseRanges } from "../../report/case-ranges.js";
import { CaseSummary } from "../../report/explorer-summary.js";
import { caseValues, type SideExtras } from "../../gates/side-reader.js";
import { attachOldRuns, buildDocumentExplorer, segmentRecords } from "../document/explorer.js";
import { buildRecordExplorer, EVIDENCE_EXPLORER, PAIR_EXPLORER } from "../record-explorer.js";
import { caseChanges, type CaseChange } from "../../gates/changes.js";
import { checkMetricsMatchCases } from "./consistency.js";

export const DIFF_SCHEMA_VERSION = "1.0.0";

export interface DiffSettings {
  oldPath: string;
  newPath: string;
  gates?: readonly GateSpec[];
  /** Compare reports of different slices on the case ids they share. */
  allowDifferentSlice?: boolean;
  seed?: number;
  /** Bootstrap resamples for the paired intervals (`--bootstrap`). */
  bootstrap?: number;
  /** Build the case explorer for diff.html (reads the NEW slice and dump when they are still there). */
  explorer?: boolean;
  /** The most cases diff.html's explorer carries (default EXPLORER_CASE_CAP). */
  explorerCases?: number;
  /** Phases (default: silent). */
  observer?: RunObserver;
}

export interface DiffSide {
  path: string;
  task: TaskName;
  dataset: string;
  slice_hash: string;
  cases: number;
  predictions: string | null;
}

export interface DiffResult {
  schema_version: string;
  old: DiffSide;
  new: DiffSide;
  same_slice: boolean;
  /** Case ids both reports have. */
  shared_cases: number;
  comparison: BaselineComparison;
  regressed: CaseChange[];
  fixed: CaseChange[];
  /** Cases with several runs where some runs regressed and others were fixed. */
  mixed: CaseChange[];
  gates: GateResult[];
}

export interface DiffOutcome {
  diff: DiffResult;
  explorer?: ExplorerData;
  /** Why diff.html has no explorer, when it has none. */
  explorerNote?: string;
}

/** [cases.jsonl field, metric] of the evidence metrics compared as per-case means (accepted → accepted_rate). */
const EVIDENCE_FIELDS = pairedFields("evidence");

/**
 * Evidence cases.jsonl lines have no gold class: for a diff, a case is "right" when its citations
 * were accepted, so a regression is an accepted case that is rejected now.
 */
function evidenceOutcome(line: JsonObject): PairedOutcome | null {
  if (typeof line["case_id"] !== "string" || typeof line["accepted"] !== "boolean") return null;
  const error = line["error"] as JsonObject | null | undefined;
  const predicted = line["accepted"] ? "accepted" : `rejected (${typeof error?.["code"] === "string" ? error["code"] : "?"})`;
  return { case_id: line["case_id"], run: "0", gold: "accepted", predicted, values: caseValues(line, EVIDENCE_FIELDS) };
}

/**
 * A finished report with its cases, read as `--baseline` reads one (evidence cases by
 * evidenceOutcome); `label` replaces "--baseline" in its errors (e.g. "diff OLD").
 */
export async function loadComparable(path: string, label: string, evidence: boolean, extrasFor?: (report: Report) => SideExtras): Promise<Baseline> {
  try {
    return evidence ? await loadBaseline(path, evidenceOutcome) : await loadBaseline(path, undefined, extrasFor);
  } catch (err) {
    if (err instanceof InputError) throw new InputError(err.message.replaceAll("--baseline", label));
    throw err;
  }
}

function side(b: Baseline): DiffSide {
  const r = b.report;
  return {
    path: b.path,
    task: r.task,
    dataset: r.dataset.path,
    slice_hash: r.dataset.slice_hash,
    cases: r.dataset.cases,
    predictions: r.predictions?.path ?? null,
  };
}

async function readable(path: unknown): Promise<string | null> {
  if (typeof path !== "string") return null;
  try {
    await access(path, constants.R_OK);
    return path;
  } catch {
    return null;
  }
}

export async function diffReports(settings: DiffSettings): Promise<DiffOutcome> {
  // The task decides how cases.jsonl lines are read; peek at NEW first with the default reading.
  const peek = await readTask(settings.newPath);
  const evidence = peek === "evidence";
  const observer = settings.observer ?? SILENT_OBSERVER;
  // diff.html's documents explorer takes from this reading where each case's lines are (to read
  // back only the cases it shows) and, of NEW, what every case's runs say.
  const explore = settings.explorer !== false && !evidence;
  const extrasOf =
    (summary: boolean) =>
    (report: Report): SideExtras =>
      report.task === "documents" ? { ranges: new CaseRanges(), ...(summary ? { summary: new CaseSummary(report.dataset.cases) } : {}) } : {};
  const [old, now] = await inPhase(observer, "read OLD and NEW (reports)", 2, async (reading) => {
    const sides: Baseline[] = [];
    for (const [path, label, summary] of [
      [settings.oldPath, "diff OLD", false],
      [settings.newPath, "diff NEW", true],
    ] as const) {
      sides.push(await loadComparable(path, label, evidence, explore ? extrasOf(summary) : undefined));
      reading.tick();
    }
    return sides as [Baseline, Baseline];
  });
  checkMetricsMatchCases(old, "diff OLD");
  checkMetricsMatchCases(now, "diff NEW");
  if (old.report.task !== now.report.task) {
    throw new InputError(`diff: different tasks: OLD ${old.path} is a ${old.report.task} report, NEW ${now.path} is a ${now.report.task} report`);
  }
  const shared = now.side.cases.list.filter((id) => old.side.caseIndex(id) !== undefined).length;
  const sameSlice = old.report.dataset.slice_hash === now.report.dataset.slice_hash;
  if (!sameSlice && settings.allowDifferentSlice !== true) {
    throw new InputError(
      `diff: different slices: OLD ${old.path} was scored on ${old.report.dataset.path} (${old.report.dataset.cases} cases, slice_hash ${old.report.dataset.slice_hash.slice(0, 12)}…), ` +
        `NEW ${now.path} on ${now.report.dataset.path} (${now.report.dataset.cases} cases, slice_hash ${now.report.dataset.slice_hash.slice(0, 12)}…); ` +
        `--allow-different-slice compares the ${shared} case ids they share`,
    );
  }
  const seed = settings.seed ?? OPTIONS.seed.default;
  const { comparison, changes } = await inOneStep(observer, "compare (steps)", () => ({
    comparison: compareWithBaseline(now.side, old, {
      seed,
      resamples: settings.bootstrap ?? OPTIONS.bootstrap.default,
      ...(now.report.task === "documents" ? { classes: DOCUMENT_CLASSES } : {}),
      currentSliceHash: now.report.dataset.slice_hash,
    }),
    changes: caseChanges(now.side, old.side),
  }));
  const diff: DiffResult = {
    schema_version: DIFF_SCHEMA_VERSION,
    old: side(old),
    new: side(now),
    same_slice: sameSlice,
    shared_cases: shared,
    comparison,
    regressed: changes.filter((c) => c.status === "regressed"),
    fixed: changes.filter((c) => c.status === "fixed"),
    mixed: changes.filter((c) => c.status === "mixed"),
    gates: evaluateGates(now.report, settings.gates ?? [], { baseline: comparison }),
  };
  if (settings.explorer === false) return { diff };
  const { explorer, explorerNote } = await diffExplorer(settings, old, now, changes, observer);
  return { diff, ...(explorer ? { explorer } : {}), ...(explorerNote !== undefined ? { explorerNote } : {}) };
}

const EXPLORER_PHASE = "case explorer (steps)";

/** diff.html's case explorer: NEW's changed cases with OLD's runs beside them (documents: texts from the slice and dumps when still there). */
async function diffExplorer(
  settings: DiffSettings,
  old: Baseline,
  now: Baseline,
  changes: CaseChange[],
  observer: RunObserver,
): Promise<Omit<DiffOutcome, "diff">> {
  const seed = settings.seed ?? OPTIONS.seed.default;
  const sameSlice = old.report.dataset.slice_hash === now.report.dataset.slice_hash;
  const rest = `${now.casesPath} (NEW's cases.jsonl)`;
  if (now.report.task === "pairs" || now.report.task === "evidence") {
    const spec = now.report.task === "pairs" ? PAIR_EXPLORER : EVIDENCE_EXPLORER;
    return {
      explorer: await inOneStep(observer, EXPLORER_PHASE, () =>
        buildRecordExplorer(spec, now.casesPath, {
          seed,
          changes,
          rest,
          ...(settings.explorerCases !== undefined ? { caseCap: settings.explorerCases } : {}),
        }),
      ),
    };
  }
  if (now.report.task !== "documents") return {};
  // The documents explorer needs NEW's slice for the sentences; the dump for reasoning is optional.
  const config = now.report.system.config;
  const slicePath = (await readable(config["slice"])) ?? (await readable(resolve(now.report.dataset.path)));
  if (slicePath === null)
    return { explorerNote: `the slice ${now.report.dataset.path} of NEW is not readable here, so diff.html lists the changed cases without their text` };
  const slice = await readDocumentSliceObserved(slicePath, { sentences: now.report.dataset.sentences ?? "mari" }, observer);
  if (slice.cases.length !== now.report.dataset.cases)
    return { explorerNote: `the slice at ${slicePath} no longer matches NEW (${slice.cases.length} cases, not ${now.report.dataset.cases})` };
  const dumpPath = (await readable(config["predictions"])) ?? (await readable(now.report.predictions?.path));
  // The slice's phase (above) comes first; then the page's data, NEW's runs and OLD's beside them.
  const explorer = await inOneStep(observer, EXPLORER_PHASE, async () => {
    const nowRanges = now.extras?.ranges;
    const page = await buildDocumentExplorer({
      outcomes: nowRanges ? segmentRecords(now.casesPath, nowRanges) : now.casesPath,
      ...(now.extras?.summary ? { summary: now.extras.summary } : {}),
      slice,
      dumpPath,
      ...(now.report.predictions ? { dumpName: now.report.predictions.path } : {}),
      lenientIds: config["lenient_ids"] === true,
      runs: now.report.predictions?.runs ?? Object.keys(now.report.runs),
      seed,
      changes,
      rest,
      ...(settings.explorerCases !== undefined ? { caseCap: settings.explorerCases } : {}),
    });
    // OLD's runs of the changed cases, beside NEW's.
    const oldConfig = old.report.system.config;
    await attachOldRuns(page, {
      casesPath: old.casesPath,
      ...(old.extras?.ranges ? { ranges: old.extras.ranges } : {}),
      dumpPath: (await readable(oldConfig["predictions"])) ?? (await readable(old.report.predictions?.path)),
      ...(old.report.predictions ? { dumpName: old.report.predictions.path } : {}),
      slice: sameSlice ? slice : null,
      lenientIds: oldConfig["lenient_ids"] === true,
      ...(settings.explorerCases !== undefined ? { caseCap: settings.explorerCases } : {}),
    });
    return page;
  });
  return { explorer };
}

async function readTask(path: string): Promise<TaskName | null> {
  try {
    const file = (await stat(path)).isDirectory() ? join(path, "report.json") : path;
    // readInputText refuses a FIFO or a device before reading (a FIFO would block, /dev/zero fill memory).
    const task = (JSON.parse(await readInputText(file)) as { task?: unknown }).task;
    return typeof task === "string" ? (task as TaskName) : null;
  } catch {
    // loadBaseline reports the problem with the file properly.
    return null;
  }
}
