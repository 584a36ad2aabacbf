// `--baseline REPORT.json`: a previous run to compare against, pairing per case. The report gives
// provenance (slice hash, seed); the cases.jsonl written beside it gives the per-case outcomes.
import { casesDigestCheck, checkCasesDigest } from "../report/cases-digest.js";
import { readInputText, STDIN_REFUSED } from "../io/input-file.js";
import { parseJsonDocument } from "../io/json-file.js";
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { InputError, located } from "../io/errors.js";
import { isJsonObject, type JsonObject } from "../io/records.js";
import { REPORT_SCHEMA_VERSION, type BaselineComparison, type Report } from "../report/types.js";
import { pairedSideComparison, type PairedOptions } from "./paired.js";
import type { PairedOutcome, PairedSide } from "./paired-side.js";
import { caseReaderOf, outcomeFromCaseLine, readPairedSide, type SideExtras } from "./side-reader.js";

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
  /** What the same reading of a document cases.jsonl gave besides the side, when asked for. */
  extras?: SideExtras;
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
    throw new InputError(reportPath === "-" ? `${flag} ${STDIN_REFUSED}` : `${flag} ${reportPath}: no such file`);
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
 * must sit beside it. Any problem is an InputError naming the file (exit 2). `extrasFor` asks the
 * same reading of a document cases.jsonl for more (SideExtras, made once the report is known).
 */
export async function loadBaseline(
  reportPath: string,
  convert: (line: JsonObject) => PairedOutcome | null = outcomeFromCaseLine,
  extrasFor?: (report: Report) => SideExtras,
): Promise<Baseline> {
  const { path, report } = await readReportFile(reportPath);
  const casesPath = join(dirname(path), "cases.jsonl");
  let casesIsFile = false;
  try {
    casesIsFile = (await stat(casesPath)).isFile();
  } catch {
    throw new InputError(`--baseline ${path}: the per-case results ${casesPath} are missing (they are needed to pair cases)`);
  }
  if (!casesIsFile) throw new InputError(`--baseline ${path}: the per-case results ${casesPath} are not a file`);
  const extras = extrasFor?.(report);
  const digests = await casesDigestCheck(path, report, casesPath);
  // The document reader hashes the file as it reads it; the digest is checked first all the same: a
  // file that does not match is reported as such, whatever else the reading found wrong with it.
  let read: Awaited<ReturnType<typeof readPairedSide>>;
  try {
    read = await readPairedSide(casesPath, convert, caseReaderOf(report.task), { ...extras, ...(digests ? { hash: digests } : {}) });
  } catch (err) {
    await checkCasesDigest(path, report, casesPath);
    throw err;
  }
  if (read.hashed) digests!.check();
  else await checkCasesDigest(path, report, casesPath);
  const { side, skippedLines, skippedExamples } = read;
  if (side.size === 0) throw new InputError(`--baseline ${casesPath}: no usable per-case line`);
  return { path, report, casesPath, side, skippedLines, skippedExamples, ...(extras ? { extras } : {}) };
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
