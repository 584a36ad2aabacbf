// report.md: a projection of report.json meant to be pasted into a CI job summary
// ($GITHUB_STEP_SUMMARY) or read in a terminal. Every value comes from the report; nothing is recomputed.
import {
  claimStatesView,
  dependenciesView,
  describeInterval,
  errorCodesView,
  extraKeys,
  flippedCases,
  formatInterval,
  formatNumber,
  formatSigned,
  freshnessView,
  describeMcNemar,
  describePairing,
  gatesPassed,
  metricNames,
  provenanceRows,
  moreRunsNote,
  runCount,
  runKeys,
  setconsRows,
  sortedRejections,
  gatesVerdict,
} from "./format.js";
import type { ExampleLine } from "./format.js";
import { escapeCell } from "./escape.js";
import type { Report } from "./types.js";

/** Per-run tables get one column per run; beyond this many, report.json has the rest. */
const MAX_RUN_COLUMNS = 12;
const MAX_EXAMPLES = 20;
const ERROR_EXAMPLES_PER_CODE = 3;

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

function section(title: string, ...body: string[]): string {
  return [`## ${title}`, "", ...body.filter((part) => part !== "").flatMap((part) => [part, ""])].join("\n");
}

function gatesSection(report: Report): string {
  if (report.gates.length === 0) return section("Gates", "No gates were set.");
  const failed = report.gates.filter((gate) => !gate.passed).length;
  const verdict = `${failed === 0 ? "**PASSED**" : "**FAILED**"}: ${gatesVerdict(report)}.`;
  const rows = report.gates.map((gate) => [
    gate.passed ? "✅ pass" : "❌ fail",
    escapeCell(gate.name),
    formatNumber(gate.value),
    formatNumber(gate.threshold),
    escapeCell(gate.detail ?? ""),
  ]);
  return section("Gates", verdict, table(["result", "gate", "value", "threshold", "detail"], rows));
}

function headlineSection(report: Report): string {
  const names = metricNames(report);
  if (names.length === 0) return section("Metrics", "No metrics.");
  const runs = runCount(report);
  const withSpread = report.spread !== undefined && runs > 1;
  const header = ["metric", "value", "95% CI", "n"];
  if (withSpread) header.push("std", "min", "max");
  const rows = names.map((name) => {
    const ci = report.ci[name];
    const row = [escapeCell(name), formatNumber(report.metrics[name]), formatInterval(ci), ci ? String(ci.n) : ""];
    if (withSpread) {
      const spread = report.spread?.[name];
      row.push(formatNumber(spread?.std), formatNumber(spread?.min), formatNumber(spread?.max));
    }
    return row;
  });
  const methods = [...new Set(Object.values(report.ci).map(describeInterval))];
  const notes: string[] = [];
  if (runs > 1) notes.push(`Headline = mean over ${runs} runs; std is the population standard deviation over runs.`);
  if (methods.length > 0) notes.push(`Intervals: ${methods.join("; ")}.`);
  return section("Metrics", table(header, rows), notes.join(" "));
}

function runsSection(report: Report): string {
  const keys = runKeys(report);
  if (keys.length < 2) return "";
  const shown = keys.slice(0, MAX_RUN_COLUMNS);
  const names = [...new Set(shown.flatMap((key) => Object.keys(report.runs[key] ?? {})))];
  const rows = names.map((name) => [escapeCell(name), ...shown.map((key) => formatNumber(report.runs[key]?.[name]))]);
  return section("Runs", table(["metric", ...shown.map((key) => `run ${escapeCell(key)}`)], rows), moreRunsNote(report, shown.length));
}

function baselineSection(report: Report): string {
  const comparison = report.baseline;
  if (!comparison) return "";
  const rows = Object.entries(comparison.metrics).map(([name, diff]) => [
    escapeCell(name),
    formatNumber(diff.baseline),
    formatNumber(diff.current),
    formatSigned(diff.difference),
    `[${formatSigned(diff.low)}, ${formatSigned(diff.high)}]`,
  ]);
  const lines = [
    `${escapeCell(capitalise(describePairing(comparison)))}.`,
    `${escapeCell(describeMcNemar(comparison))}.`,
    `Difference intervals: paired percentile bootstrap over cases, B=${comparison.resamples}, seed=${comparison.seed}.`,
  ];
  if (comparison.warning) lines.push(`**Warning:** ${escapeCell(comparison.warning)}`);
  const source = comparison.path ? `Baseline: ${escapeCell(comparison.path)}` : "";
  return section("Baseline comparison", source, table(["metric", "baseline", "current", "difference", "95% CI"], rows), lines.join("  \n"));
}

function breakdownsSection(report: Report): string {
  const breakdowns = report.breakdowns;
  if (!breakdowns || Object.keys(breakdowns).length === 0) return "";
  const parts = Object.entries(breakdowns).map(([dimension, groups]) => {
    const names = [...new Set(Object.values(groups).flatMap((metrics) => Object.keys(metrics)))];
    const rows = Object.entries(groups).map(([group, metrics]) => [escapeCell(group), ...names.map((name) => formatNumber(metrics[name]))]);
    return `### By ${escapeCell(dimension)}\n\n${table([escapeCell(dimension), ...names.map(escapeCell)], rows)}`;
  });
  const multi = report.dataset.multi_type_cases;
  const note =
    multi !== undefined && multi > 0
      ? `${multi} case${multi === 1 ? " has" : "s have"} several contra_types: each counts under every one of its types, so the contra_type rows add up to more than the cases.`
      : "";
  return section("Breakdowns", note, ...parts);
}

function setconsSection(report: Report): string {
  if (report.setcons === undefined) return "";
  if (report.setcons === null) return section("SetCons (run-to-run consistency)", "Not available: it needs at least two runs.");
  const rows = setconsRows(report.setcons).map(([key, value]) => [escapeCell(key), escapeCell(value)]);
  const flipped = flippedCases(report.setcons);
  const list = flipped.length
    ? `Flipped cases${flipped.length > MAX_EXAMPLES ? ` (first ${MAX_EXAMPLES})` : ""}: ${flipped.slice(0, MAX_EXAMPLES).map(escapeCell).join(", ")}`
    : "";
  return section("SetCons (run-to-run consistency)", table(["measure", "value"], rows), list);
}

function majoritySection(report: Report): string {
  if (!report.majority) return "";
  const rows = Object.entries(report.majority).map(([name, value]) => [escapeCell(name), formatNumber(value)]);
  return section("Majority vote", table(["metric", "value"], rows));
}

function confusionTable(confusion: Record<string, Record<string, number>>): string {
  const gold = Object.keys(confusion);
  const predicted = [...new Set([...gold, ...gold.flatMap((g) => Object.keys(confusion[g] ?? {}))])];
  const rows = gold.map((g) => [`**${escapeCell(g)}**`, ...predicted.map((p) => String(confusion[g]?.[p] ?? 0))]);
  return table(["gold \\ predicted", ...predicted.map(escapeCell)], rows);
}

function confusionSection(report: Report): string {
  const confusion = report.confusion;
  if (!confusion || Object.keys(confusion).length === 0) return "";
  return section("Confusion matrix", "Rows: gold class; columns: predicted class.", confusionTable(confusion));
}

/** "- file:line (case "id"): message", one bullet per example. */
function exampleList(examples: readonly ExampleLine[]): string {
  return examples
    .slice(0, MAX_EXAMPLES)
    .map((ex) => `- ${escapeCell(ex.where)} (case ${escapeCell(JSON.stringify(ex.case_id))}): ${escapeCell(ex.message)}`)
    .join("\n");
}

function claimStatesSection(report: Report): string {
  const view = claimStatesView(report);
  if (view === null) return "";
  const rows = view.states.map(({ state, count, share }) => [escapeCell(state), String(count), formatNumber(share)]);
  const accuracy =
    view.gold > 0
      ? `Accuracy against gold: ${formatNumber(view.accuracy)} ${formatInterval(view.ci)} over ${view.gold} claims with a gold state.`
      : "No gold states were given, so there is no accuracy.";
  const confusion = view.gold > 0 && view.confusion ? `Rows: gold state; columns: predicted state.\n\n${confusionTable(view.confusion)}` : "";
  return section("Claim states", table(["state", "claims", "share"], rows), accuracy, confusion);
}

function errorCodesSection(report: Report): string {
  const view = errorCodesView(report);
  if (view === null) return "";
  if (view.length === 0) return section("Errors by code", "None: every case was accepted.");
  const rows = view.map(({ code, count, examples }) => [
    escapeCell(code),
    String(count),
    examples
      .slice(0, ERROR_EXAMPLES_PER_CODE)
      .map((ex) => `${escapeCell(ex.where)} (case ${escapeCell(JSON.stringify(ex.case_id))}): ${escapeCell(ex.message)}`)
      .join("<br>"),
  ]);
  return section("Errors by code", table(["code", "cases", "examples (file:line)"], rows));
}

function dependenciesSection(report: Report): string {
  const view = dependenciesView(report);
  if (view === null) return "";
  const shown = view.list.slice(0, MAX_EXAMPLES);
  const rows = shown.map((d) => [escapeCell(d.dependency_id), escapeCell(d.revision), escapeCell(d.section_revision.slice(0, 12)), String(d.cases)]);
  const more = view.list.length > shown.length ? `${view.list.length - shown.length} more dependencies are in report.json.` : "";
  const conflicts =
    view.conflicts === 0 ? "Dependency conflicts: none." : `Dependency conflicts: ${view.conflicts} cases.\n\n${exampleList(view.conflictExamples)}`;
  return section(
    "Dependencies",
    `${view.list.length} distinct dependencies cited by accepted cases.`,
    shown.length ? table(["dependency", "document revision", "section revision", "cases"], rows) : "",
    more,
    conflicts,
  );
}

function freshnessSection(report: Report): string {
  const view = freshnessView(report);
  if (view === null) return "";
  if (view.length === 0) return section("Freshness", "No case had dependencies to assess.");
  return section(
    "Freshness",
    "Cases per status against the current documents.",
    table(
      ["status", "cases"],
      view.map(([status, n]) => [escapeCell(status), String(n)]),
    ),
  );
}

function histogramsSection(report: Report): string {
  const histograms = report.histograms;
  if (!histograms || Object.keys(histograms).length === 0) return "";
  const parts = Object.entries(histograms).map(([name, bins]) => {
    const total = bins.reduce((sum, b) => sum + b.count, 0);
    const rows = bins.map((b) => [escapeCell(b.bin), String(b.count), total > 0 ? formatNumber(b.count / total) : "0"]);
    return `### ${escapeCell(name)}\n\n${table(["bin", "count", "share"], rows)}`;
  });
  return section("Distributions", ...parts);
}

function rejectionsSection(report: Report): string {
  const counts = sortedRejections(report);
  if (counts.length === 0 && report.rejection_examples.length === 0) return section("Rejections", "None: every input record was usable.");
  const rows = counts.map(([reason, count]) => [escapeCell(reason), String(count)]);
  const examples = report.rejection_examples
    .slice(0, MAX_EXAMPLES)
    .map((ex) => `- ${escapeCell(ex.where)}: ${escapeCell(ex.reason)}: ${escapeCell(ex.message)}`)
    .join("\n");
  return section("Rejections", table(["reason", "count"], rows), examples ? `Examples:\n\n${examples}` : "");
}

function orphansSection(report: Report): string {
  if (!report.orphans || report.orphans.count === 0) return "";
  const examples = report.orphans.examples.slice(0, MAX_EXAMPLES).map(escapeCell).join(", ");
  return section("Orphans", `${report.orphans.count} predictions name a case id that is not in the slice (not scored). Examples: ${examples}`);
}

function provenanceSection(report: Report): string {
  return section(
    "Provenance",
    table(
      ["field", "value"],
      provenanceRows(report).map(([field, value]) => [field, escapeCell(value)]),
    ),
  );
}

export function renderMarkdown(report: Report): string {
  const verdict = report.gates.length === 0 ? "" : gatesPassed(report) ? " — gates passed" : " — gates FAILED";
  const intro = [`# mari report: ${escapeCell(report.task)}${verdict}`, ""];
  if (report.system.judge_note) intro.push(`> **Note:** ${escapeCell(report.system.judge_note)}`, "");
  for (const warning of report.warnings ?? []) intro.push(`> **WARNING:** ${escapeCell(warning)}`, "");
  const extras = extraKeys(report);
  const parts = [
    gatesSection(report),
    headlineSection(report),
    baselineSection(report),
    runsSection(report),
    breakdownsSection(report),
    setconsSection(report),
    majoritySection(report),
    confusionSection(report),
    histogramsSection(report),
    claimStatesSection(report),
    errorCodesSection(report),
    dependenciesSection(report),
    freshnessSection(report),
    rejectionsSection(report),
    orphansSection(report),
    extras.length ? section("More in report.json", extras.map((key) => `\`${key.replace(/`/g, "")}\``).join(", ")) : "",
    provenanceSection(report),
  ].filter((part) => part !== "");
  return `${intro.join("\n")}\n${parts.join("\n")}`.replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
