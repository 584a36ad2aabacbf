// Writes a report in the formats the user asked for (docs/reports.md, "Output files"). Each file is written atomically
// (temp + rename) and scrubbed of secret values; report.json is always written, as every other
// format is a projection of it.
import { open, unlink } from "node:fs/promises";
import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { recordCasesDigests, type WrittenCaseFile } from "./cases-digest.js";
import { redactSecrets, redactStrings, secretEnvValues } from "./redact.js";
import type { ExplorerData } from "./explorer.js";
import type { Report, ReportFormat } from "./types.js";

export const REPORT_FORMATS: readonly ReportFormat[] = ["json", "md", "html", "junit"];
export const DEFAULT_REPORT_FORMATS: readonly ReportFormat[] = ["json", "md", "html", "junit"];

/** The file each format is written to inside `--out`. */
export const REPORT_FILE_NAMES: Readonly<Record<ReportFormat, string>> = {
  json: "report.json",
  md: "report.md",
  html: "report.html",
  junit: "report.junit.xml",
};

/**
 * Parses `--report json,md,html,junit` (also accepts `markdown` and `xml` as aliases, and an array
 * from the config file). Undefined gives the default set. json is always included.
 */
export function parseReportFormats(spec: string | readonly string[] | undefined, label = "--report"): ReportFormat[] {
  if (spec === undefined) return [...DEFAULT_REPORT_FORMATS];
  const names = (typeof spec === "string" ? spec.split(",") : [...spec]).map((name) => name.trim().toLowerCase()).filter((name) => name !== "");
  if (names.length === 0) throw new InputError(`${label}: expected a comma-separated list of ${REPORT_FORMATS.join(", ")}`);
  const chosen = new Set<ReportFormat>(["json"]);
  for (const name of names) {
    const format = name === "markdown" ? "md" : name === "xml" ? "junit" : name;
    if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
      throw new InputError(`${label}: unknown format "${name}" (choose from ${REPORT_FORMATS.join(", ")})`);
    }
    chosen.add(format as ReportFormat);
  }
  return REPORT_FORMATS.filter((format) => chosen.has(format));
}

export function renderReportJson(report: Report): string {
  try {
    return `${JSON.stringify(report, null, 2)}\n`;
  } catch (err) {
    // A report past V8's string limit (hundreds of thousands of runs, each listed under `runs`):
    // say so instead of crashing; the per-case results are in cases.jsonl already.
    if (err instanceof RangeError) {
      const runs = Object.keys(report.runs ?? {}).length;
      throw new InputError(
        `report.json would be larger than one JavaScript string can hold (${runs} runs listed); cases.jsonl is complete, but this many runs cannot be reported (see docs/eval.md)`,
      );
    }
    throw err;
  }
}

/** A format's rendering (report.html in pieces: renderHtmlPieces); each renderer is loaded only by a run that writes its format. */
async function render(format: ReportFormat, report: Report, inputErrors: readonly string[], explorer?: ExplorerData): Promise<string | string[]> {
  switch (format) {
    case "json":
      return renderReportJson(report);
    case "md":
      return (await import("./markdown.js")).renderMarkdown(report);
    case "html":
      return (await import("./html.js")).renderHtmlPieces(report, explorer);
    case "junit":
      return (await import("./junit.js")).renderJunit(report, inputErrors);
  }
}

/**
 * The UTF-8 bytes of a text in pieces: a page of megabytes whose few characters past U+00FF would
 * make it one two-byte string, encoded by the slow path, is encoded piece by piece instead.
 */
function utf8(pieces: readonly string[]): Buffer {
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece);
  const bytes = Buffer.allocUnsafe(length);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at);
  return bytes;
}

/** How each format's file begins when mari wrote it: only such a file is ever removed. */
const WRITTEN_BY_MARI: Readonly<Record<Exclude<ReportFormat, "json">, RegExp>> = {
  md: /^# mari /,
  html: /^<!DOCTYPE html>[\s\S]*Content-Security-Policy[\s\S]*<title>[^<]*mari [^<]*<\/title>/,
  junit: /^<\?xml[^>]*\?>\s*<testsuites name="mari"/,
};

/** The first bytes of a file, or null when there is no such file. */
async function headOf(path: string): Promise<string | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

/**
 * A run's report files replace the previous run's set: the files of formats not asked for this time
 * are found before anything is written. Those a mari run wrote are returned, to be removed once the
 * new set is in place; any other file under one of those names makes the run refuse, naming it, so a
 * user's own file is never deleted and `--out` never holds a mix of two runs.
 */
export async function staleReportFiles(outDir: string, formats: readonly ReportFormat[]): Promise<string[]> {
  const stale: string[] = [];
  const foreign: string[] = [];
  for (const format of REPORT_FORMATS) {
    if (format === "json" || formats.includes(format)) continue;
    const path = join(outDir, REPORT_FILE_NAMES[format]);
    const head = await headOf(path);
    if (head === null) continue;
    (WRITTEN_BY_MARI[format].test(head) ? stale : foreign).push(path);
  }
  if (foreign.length > 0)
    throw new InputError(
      `--out ${outDir} holds ${foreign.join(", ")}, which this run would leave beside its new report.json (not asked for by --report) and which mari did not write: move or delete ${foreign.length === 1 ? "it" : "them"}, add ${foreign.length === 1 ? "its format" : "their formats"} to --report, or choose another --out`,
    );
  return stale;
}

/**
 * Writes the report files into `outDir` and returns their paths (json first). Report files of an
 * earlier run in formats not asked for now are removed (staleReportFiles), so the folder holds one
 * run's set. `inputErrors` go
 * into the JUnit file as <error> cases. With `caseFiles` (the per-case files just committed:
 * cases.jsonl, located.jsonl), the report records each one's digest (`cases_xxh64`,
 * `located_xxh64`; cases-digest.ts), which every reader checks: a run killed between the renames
 * leaves files that do not match, never ones that silently disagree. report.json is written last,
 * so it is the run's commit point.
 */
export async function writeReportFiles(
  outDir: string,
  report: Report,
  formats: readonly ReportFormat[],
  options: {
    inputErrors?: readonly string[];
    explorer?: ExplorerData;
    caseFiles?: readonly WrittenCaseFile[];
  } = {},
): Promise<string[]> {
  const stale = await staleReportFiles(outDir, formats);
  const secrets = secretEnvValues();
  await recordCasesDigests(report, options.caseFiles ?? []);
  // Redacted before rendering, so every escaping sees "[redacted]"; the text scrub below is the backstop.
  const safeReport = redactStrings(report, secrets);
  const safeExplorer = options.explorer && redactStrings(options.explorer, secrets);
  const wanted = REPORT_FORMATS.filter((format) => format === "json" || formats.includes(format));
  const written: string[] = [];
  for (const format of [...wanted.filter((f) => f !== "json"), "json" as const]) {
    const path = join(outDir, REPORT_FILE_NAMES[format]);
    const text = await render(format, safeReport, redactStrings(options.inputErrors ?? [], secrets), safeExplorer);
    // A text in pieces is scrubbed whole (a secret may straddle two pieces); with nothing to scrub, each piece is encoded alone.
    await writeFileAtomic(
      path,
      typeof text === "string" || secrets.length > 0 ? redactSecrets(typeof text === "string" ? text : text.join(""), secrets) : utf8(text),
    );
    written.push(path);
  }
  for (const path of stale) await unlink(path).catch(() => {});
  return [written[written.length - 1]!, ...written.slice(0, -1)];
}
