// `--baseline REPORT.json`: a previous run to compare against, pairing per case. The report gives
// provenance (slice hash, seed); the cases.jsonl written beside it gives the per-case outcomes.
import { checkCasesHash } from "../report/cases-hash.js";
import { readInputText } from "../io/input-file.js";
import { parseJsonDocument } from "../io/json-file.js";
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { InputError, located } from "../io/errors.js";
import { isJsonObject, type JsonObject } from "../io/records.js";
import { readCaseLineItems, readDocumentCases, type CaseItem } from "../report/document-cases.js";
import { REPORT_SCHEMA_VERSION, type BaselineComparison, type Report } from "../report/types.js";
import { documentClass, pairedSideComparison, type PairedOptions } from "./paired.js";
import type { PairedOutcome } from "./paired-side.js";
import { PairedSide } from "./paired-side.js";

export interface Baseline {
  /** The report.json that was read. */
  path: string;
  report: Report;
  casesPath: string;
  /** Its cases.jsonl accumulated per case (no object per line). */
  side: PairedSide;
  /** cases.jsonl lines that could not be turned into an outcome (blank, malformed, or lacking fields). */
  skippedLines: number;
  /** The first few of them as `file:line: why`. */
  skippedExamples?: string[];
}

const SKIPPED_EXAMPLES = 5;

/**
 * Per-case fields of a documents cases.jsonl line that become paired metrics, and the headline
 * metric each one's mean is. Booleans count as 0/1; null leaves the case out (e.g. gold negatives).
 */
export const DOCUMENT_CASE_VALUES: Readonly<Record<string, string>> = {
  localization_hit: "localization_recall",
  exact_localization: "exact_localization",
  format_valid: "format_valid_rate",
  reference_coverage: "reference_coverage_mean",
  reward_accuracy: "reward_accuracy_mean",
};

/** The same for a pairs cases.jsonl line: the cost of the verdict, whose mean is revision_cost. */
export const PAIR_CASE_VALUES: Readonly<Record<string, string>> = {
  cost: "revision_cost",
};

function label(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return documentClass(value);
  return null;
}

/**
 * The default reading of one cases.jsonl line, documents or pairs: the case id from `case_id`
 * (else `id`), `run` (string or integer, default "0"), the gold class from `gold` (string) or
 * `label` (boolean), the class as scored from `predicted`, `judgment` (boolean) or `class`, and the
 * DOCUMENT_CASE_VALUES / PAIR_CASE_VALUES fields. Null when the line lacks them (e.g. an
 * unlabelled pair).
 */
export function outcomeFromCaseLine(line: JsonObject): PairedOutcome | null {
  const caseId = line["case_id"] ?? line["id"];
  if (typeof caseId !== "string") return null;
  const run = line["run"] ?? "0";
  if (typeof run !== "string" && !(typeof run === "number" && Number.isInteger(run))) return null;
  const gold = label(line["gold"] ?? line["label"]);
  const predicted = label(line["predicted"] ?? line["judgment"] ?? line["class"]);
  if (gold === null || predicted === null) return null;
  const values: Record<string, number | null> = {};
  for (const [field, metric] of [...Object.entries(DOCUMENT_CASE_VALUES), ...Object.entries(PAIR_CASE_VALUES)]) {
    const v = line[field];
    if (typeof v === "boolean") values[metric] = v ? 1 : 0;
    else if (typeof v === "number" && Number.isFinite(v)) values[metric] = v;
  }
  return { case_id: caseId, run: String(run), gold, predicted, values };
}

/** How a task's cases.jsonl is read: documents through their one reader, other tasks line by line. */
export type CaseReader = (casesPath: string) => AsyncIterable<CaseItem>;

/** The reader of a task's cases.jsonl (src/report/document-cases.ts for documents). */
export function caseReaderOf(task: string): CaseReader {
  return task === "documents" ? (path) => readDocumentCases(path) : readCaseLineItems;
}

/** Streams a cases.jsonl file through `convert` into `visit`; returns the lines that gave no outcome. */
async function visitOutcomes(
  casesPath: string,
  convert: (line: JsonObject) => PairedOutcome | null,
  visit: (outcome: PairedOutcome) => void,
  read: CaseReader,
): Promise<{ skippedLines: number; skippedExamples: string[] }> {
  let skippedLines = 0;
  const skippedExamples: string[] = [];
  const skip = (lineNo: number, why: string) => {
    skippedLines++;
    if (skippedExamples.length < SKIPPED_EXAMPLES) skippedExamples.push(located(casesPath, lineNo, why));
  };
  // (case, run) → the line it was first seen on: a repeat would be paired twice.
  const firstSeen = new Map<string, number>();
  for await (const line of read(casesPath)) {
    if ("error" in line) {
      skip(line.lineNo, line.error);
      continue;
    }
    const outcome = convert(line.record);
    if (outcome === null) {
      skip(line.lineNo, "no case id, or no gold or predicted class");
      continue;
    }
    const key = `${outcome.case_id}\u0000${outcome.run}`;
    const earlier = firstSeen.get(key);
    if (earlier !== undefined) {
      throw new InputError(
        located(
          casesPath,
          line.lineNo,
          `case ${JSON.stringify(outcome.case_id)} run ${JSON.stringify(outcome.run)} is already on line ${earlier}: not a cases.jsonl mari wrote`,
        ),
      );
    }
    firstSeen.set(key, line.lineNo);
    visit(outcome);
  }
  return { skippedLines, skippedExamples };
}

/**
 * Streams a cases.jsonl file into paired outcomes. Case ids, run keys and labels repeat across
 * runs, so they are interned: one string per distinct value instead of one per line.
 */
export async function readPairedOutcomes(
  casesPath: string,
  convert: (line: JsonObject) => PairedOutcome | null = outcomeFromCaseLine,
  read: CaseReader = readCaseLineItems,
): Promise<{ outcomes: PairedOutcome[]; skippedLines: number; skippedExamples: string[] }> {
  const outcomes: PairedOutcome[] = [];
  const strings = new Map<string, string>();
  const intern = (text: string): string => {
    const known = strings.get(text);
    if (known !== undefined) return known;
    strings.set(text, text);
    return text;
  };
  const { skippedLines, skippedExamples } = await visitOutcomes(
    casesPath,
    convert,
    (outcome) => {
      const compact: PairedOutcome = {
        case_id: intern(outcome.case_id),
        run: intern(outcome.run),
        gold: intern(outcome.gold),
        predicted: intern(outcome.predicted),
      };
      if (outcome.values !== undefined && Object.keys(outcome.values).length > 0) compact.values = outcome.values;
      outcomes.push(compact);
    },
    read,
  );
  return { outcomes, skippedLines, skippedExamples };
}

/**
 * Streams a cases.jsonl file into per-case accumulators (src/gates/paired-side.ts): what
 * readPairedOutcomes reads, without keeping an object per line.
 */
export async function readPairedSide(
  casesPath: string,
  convert: (line: JsonObject) => PairedOutcome | null = outcomeFromCaseLine,
  read: CaseReader = readCaseLineItems,
): Promise<{ side: PairedSide; skippedLines: number; skippedExamples: string[] }> {
  const side = new PairedSide();
  const { skippedLines, skippedExamples } = await visitOutcomes(casesPath, convert, (outcome) => side.add(outcome), read);
  return { side, skippedLines, skippedExamples };
}

/**
 * Reads and validates a finished report.json (`reportPath`, or the directory holding one) without
 * its cases. `flag` names the input in every error (an InputError naming the file: exit 2).
 */
export async function readReportFile(reportPath: string, flag = "--baseline"): Promise<{ path: string; report: Report }> {
  let path = reportPath;
  try {
    if ((await stat(path)).isDirectory()) path = join(path, "report.json");
  } catch {
    throw new InputError(`${flag} ${reportPath}: no such file`);
  }
  let text: string;
  try {
    text = await readInputText(path);
  } catch (err) {
    if (err instanceof InputError) throw new InputError(`${flag} ${err.message}`);
    throw new InputError(`${flag} ${path}: cannot read: ${(err as Error).message}`);
  }
  let report: unknown;
  try {
    report = parseJsonDocument(text);
  } catch (err) {
    throw new InputError(located(path, undefined, `${flag} is not valid JSON: ${(err as Error).message}`));
  }
  if (!isJsonObject(report)) throw new InputError(located(path, undefined, `${flag} is not a mari report.json object`));
  // Loaded here, not at startup: the schema pulls in zod.
  const { validateReport } = await import("../report/schema.js");
  const problems = validateReport(report);
  if (problems.length > 0) {
    throw new InputError(located(path, undefined, `${flag} is not a valid mari report: ${problems.slice(0, 3).join("; ")}`));
  }
  const version = (report as { schema_version: string }).schema_version;
  if (version.split(".")[0] !== REPORT_SCHEMA_VERSION.split(".")[0]) {
    throw new InputError(located(path, undefined, `${flag} has schema_version ${version}; this mari reads ${REPORT_SCHEMA_VERSION.split(".")[0]}.x reports`));
  }
  return { path, report: report as Report };
}

/**
 * Reads a baseline: `reportPath` is a report.json, or the directory holding one. Its cases.jsonl
 * must sit beside it. Any problem is an InputError naming the file (exit 2).
 */
export async function loadBaseline(reportPath: string, convert: (line: JsonObject) => PairedOutcome | null = outcomeFromCaseLine): Promise<Baseline> {
  const { path, report } = await readReportFile(reportPath);
  const casesPath = join(dirname(path), "cases.jsonl");
  let casesIsFile = false;
  try {
    casesIsFile = (await stat(casesPath)).isFile();
  } catch {
    throw new InputError(`--baseline ${path}: the per-case results ${casesPath} are missing (they are needed to pair cases)`);
  }
  if (!casesIsFile) throw new InputError(`--baseline ${path}: the per-case results ${casesPath} are not a file`);
  await checkCasesHash(path, report, casesPath);
  const { side, skippedLines, skippedExamples } = await readPairedSide(casesPath, convert, caseReaderOf(report.task));
  if (side.size === 0) throw new InputError(`--baseline ${casesPath}: no usable per-case line`);
  return { path, report, casesPath, side, skippedLines, skippedExamples };
}

/**
 * Pairs the current outcomes with a loaded baseline and notes when the two were built from
 * different slices (the comparison then only covers the case ids they share).
 */
export function compareWithBaseline(current: PairedSide, baseline: Baseline, opts: PairedOptions & { currentSliceHash?: string }): BaselineComparison {
  const comparison = pairedSideComparison(current, baseline.side, { ...opts, baselinePath: opts.baselinePath ?? baseline.path });
  const notes: string[] = [];
  if (opts.currentSliceHash !== undefined && opts.currentSliceHash !== baseline.report.dataset.slice_hash) {
    notes.push("the baseline was scored on a different slice (slice_hash differs); only shared case ids are compared");
  }
  if (baseline.skippedLines > 0) {
    const examples = baseline.skippedExamples?.length ? ` (${baseline.skippedExamples.join("; ")})` : "";
    notes.push(`${baseline.skippedLines} baseline cases.jsonl lines were not compared${examples}`);
  }
  if (notes.length > 0) comparison.warning = notes.join("; ");
  return comparison;
}
