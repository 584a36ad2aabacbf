// The short summary printed on stdout after a run: headline metrics with intervals, problems with
// the input, gate verdicts and where the files are. Colour comes from chalk (colour.ts), which
// honours FORCE_COLOR, NO_COLOR and whether the stream is a terminal.
import { chalkFor } from "./colour.js";
import { METRICS } from "../core/metrics/descriptors/index.js";
import { describePairing, formatInterval, formatNumber, formatSigned, gatesPassed, gatesVerdict, runCount, sortedRejections } from "../report/format.js";
import type { Report } from "../report/types.js";
import type { ReportOutcome } from "../tasks/outcome.js";
import { EXIT_GATE_FAILED, EXIT_INPUT_ERROR, EXIT_OK } from "./exit-codes.js";

/** Metrics shown first when a report has them (declared `summary`); others fill up to MAX_METRICS in report order. */
const PREFERRED = METRICS.filter((m) => m.summary).map((m) => m.name);
const MAX_METRICS = 6;
const MAX_GATES_LISTED = 10;

type Style = "green" | "red" | "yellow" | "bold" | "dim" | "cyan";

export interface SummaryOptions {
  quiet: boolean;
  outDir: string;
  /** Files written (from writeReportFiles); listed when given. */
  files?: readonly string[];
  /** One line saying what to do next (e.g. how to evaluate your own model), printed before the verdict. */
  next?: string;
  /** Input errors of the run (printed above the summary): the verdict then says the run failed on input. */
  inputErrors?: number;
  stream?: NodeJS.WritableStream;
}

function headlineNames(report: Report): string[] {
  const names = Object.keys(report.metrics);
  // Known headline metrics, then any other metric with an interval; counts and the long tail of
  // per-class numbers stay in report.md.
  const chosen = PREFERRED.filter((name) => names.includes(name));
  for (const name of names) if (report.ci[name] !== undefined && !chosen.includes(name)) chosen.push(name);
  if (chosen.length === 0) chosen.push(...names);
  return chosen.slice(0, MAX_METRICS);
}

export function renderSummary(report: Report, opts: Omit<SummaryOptions, "quiet">, color: (style: Style, text: string) => string): string {
  const lines: string[] = [];
  const runs = runCount(report);
  const source = report.predictions ? report.predictions.path : report.system.judge ? `judge ${report.system.judge}` : "no predictions";
  lines.push(color("bold", `mari ${report.task}: ${report.dataset.cases} cases, ${runs} run${runs === 1 ? "" : "s"} (${source})`));
  if (report.system.judge_note) lines.push(color("yellow", `  note: ${report.system.judge_note}`));
  for (const warning of report.warnings ?? []) lines.push(color("red", `  WARNING: ${warning}`));
  const names = headlineNames(report);
  const width = Math.max(0, ...names.map((name) => name.length));
  for (const name of names) {
    const ci = report.ci[name];
    const spread = runs > 1 ? report.spread?.[name] : undefined;
    let text = `  ${name.padEnd(width)}  ${formatNumber(report.metrics[name]).padStart(7)}`;
    if (ci) text += `  95% CI ${formatInterval(ci)} n=${ci.n}`;
    if (spread) text += color("dim", `  ±${formatNumber(spread.std)} over runs`);
    lines.push(text);
  }
  if (report.setcons && typeof report.setcons["judgment"] === "number") {
    lines.push(`  setcons.judgment  ${formatNumber(report.setcons["judgment"] as number)}`);
  }
  if (report.baseline) {
    const b = report.baseline;
    for (const [name, diff] of Object.entries(b.metrics).filter(([name]) => names.includes(name))) {
      lines.push(`  vs baseline ${name}: ${formatSigned(diff.difference)} [${formatSigned(diff.low)}, ${formatSigned(diff.high)}]`);
    }
    lines.push(`  McNemar p = ${formatNumber(b.mcnemar.p_value)}; ${describePairing(b)}`);
  }
  const rejections = sortedRejections(report);
  if (rejections.length > 0) {
    const total = rejections.reduce((sum, [, count]) => sum + count, 0);
    const top = rejections
      .slice(0, 4)
      .map(([reason, count]) => `${reason} ${count}`)
      .join(", ");
    lines.push(color("yellow", `  rejected/invalid: ${total} (${top}${rejections.length > 4 ? ", …" : ""})`));
  }
  if (report.orphans && report.orphans.count > 0) lines.push(color("yellow", `  orphans: ${report.orphans.count} predictions for unknown case ids`));
  for (const gate of report.gates.slice(0, MAX_GATES_LISTED)) {
    const mark = gate.passed ? color("green", "pass") : color("red", "FAIL");
    lines.push(`  ${mark} ${gate.name} (value ${formatNumber(gate.value)})${!gate.passed && gate.detail ? color("dim", ` ${gate.detail}`) : ""}`);
  }
  if (report.gates.length > MAX_GATES_LISTED) lines.push(`  … ${report.gates.length - MAX_GATES_LISTED} more gates in the report`);
  const files = opts.files && opts.files.length > 0 ? opts.files.join(", ") : opts.outDir;
  lines.push(color("cyan", `report: ${files}`));
  if (opts.next !== undefined) lines.push(`next: ${opts.next}`);
  // The verdict last, so it is the line left on the screen above the prompt.
  if (opts.inputErrors !== undefined && opts.inputErrors > 0) {
    lines.push(color("red", `input errors: ${opts.inputErrors} (above); exit 2`));
  } else if (report.gates.length > 0) {
    lines.push(
      gatesPassed(report) ? color("green", `gates: ${gatesVerdict(report)}`) : color("red", `gates: ${gatesVerdict(report).replace("failed", "FAILED")}`),
    );
  } else lines.push("gates: none set");
  return `${lines.join("\n")}\n`;
}

/** Prints the summary on stdout (or `stream`); nothing with `quiet`. */
export function printSummary(report: Report, opts: SummaryOptions): void {
  if (opts.quiet) return;
  const stream = opts.stream ?? process.stdout;
  const chalk = chalkFor(stream);
  const color = (style: Style, text: string) => chalk[style](text);
  stream.write(renderSummary(report, opts, color));
}

/**
 * The end of every report-writing command: `notes` (lines for stderr, e.g. rejected records) and
 * the run's input errors on stderr, then the summary on stdout, its verdict last; returns the exit
 * code (the exit codes in README.md, "Commands"): 2 when the run had input errors, else 1 when a
 * gate failed, else 0.
 */
export function finishReportRun(outcome: ReportOutcome, quiet: boolean, notes: readonly string[] = [], next?: string): number {
  for (const line of notes) process.stderr.write(`${line}\n`);
  for (const message of outcome.inputErrors) process.stderr.write(`mari: ${message}\n`);
  printSummary(outcome.report, {
    quiet,
    outDir: outcome.outDir,
    files: outcome.files,
    inputErrors: outcome.inputErrors.length,
    ...(next !== undefined ? { next } : {}),
  });
  return exitCodeOf(outcome);
}

/** The exit code a run's outcome maps onto (the exit codes in README.md, "Commands"): 2 input errors, else 1 a gate failed, else 0. */
export function exitCodeOf(outcome: ReportOutcome): number {
  if (outcome.inputErrors.length > 0) return EXIT_INPUT_ERROR;
  return gatesPassed(outcome.report) ? EXIT_OK : EXIT_GATE_FAILED;
}
