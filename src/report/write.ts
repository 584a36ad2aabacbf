// Writes a report in the formats the user asked for (docs/reports.md, "Output files"). Each file is written atomically
// (temp + rename) and scrubbed of secret values; report.json is always written, as every other
// format is a projection of it.
import { sha256Written } from "../io/hashing.js";
import { join } from "node:path";
import { InputError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { renderHtml } from "./html.js";
import { renderJunit } from "./junit.js";
import { renderMarkdown } from "./markdown.js";
import { redactSecrets, redactStrings, secretEnvValues } from "./redact.js";
import type { ExplorerData } from "./explorer.js";
import type { Report, ReportFormat } from "./types.js";

export { renderHtml } from "./html.js";
export { renderJunit } from "./junit.js";
export { renderMarkdown } from "./markdown.js";

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

function render(format: ReportFormat, report: Report, inputErrors: readonly string[], explorer?: ExplorerData): string {
  switch (format) {
    case "json":
      return renderReportJson(report);
    case "md":
      return renderMarkdown(report);
    case "html":
      return renderHtml(report, explorer);
    case "junit":
      return renderJunit(report, inputErrors);
  }
}

/**
 * Writes the report files into `outDir` and returns their paths (json first). `inputErrors` go
 * into the JUnit file as <error> cases. With `casesFile` (the cases.jsonl just committed), the
 * report records its sha256 (`cases_sha256`), which every reader checks: a run killed between the
 * two renames leaves a pair that does not match, never one that silently disagrees. report.json
 * is written last, so it is the run's commit point.
 */
export async function writeReportFiles(
  outDir: string,
  report: Report,
  formats: readonly ReportFormat[],
  options: { inputErrors?: readonly string[]; explorer?: ExplorerData; casesFile?: string } = {},
): Promise<string[]> {
  const secrets = secretEnvValues();
  if (options.casesFile !== undefined) report.cases_sha256 = await sha256Written(options.casesFile);
  // Redacted before rendering, so every escaping sees "[redacted]"; the text scrub below is the backstop.
  const safeReport = redactStrings(report, secrets);
  const safeExplorer = options.explorer && redactStrings(options.explorer, secrets);
  const wanted = REPORT_FORMATS.filter((format) => format === "json" || formats.includes(format));
  const written: string[] = [];
  for (const format of [...wanted.filter((f) => f !== "json"), "json" as const]) {
    const path = join(outDir, REPORT_FILE_NAMES[format]);
    await writeFileAtomic(path, redactSecrets(render(format, safeReport, redactStrings(options.inputErrors ?? [], secrets), safeExplorer), secrets));
    written.push(path);
  }
  return [written[written.length - 1]!, ...written.slice(0, -1)];
}
