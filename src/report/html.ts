// report.html: one self-contained page (no network; inline CSS and SVG; one inline script, the case explorer, allowed by its CSP hash), safe to
// open from a CI artifact. Every string from the report is HTML-escaped, since case ids, messages
// and model text are untrusted.
import {
  claimStatesView,
  dependenciesView,
  describeInterval,
  errorCodesView,
  flippedCases,
  formatInterval,
  formatNumber,
  describeMcNemar,
  describePairing,
  formatSigned,
  freshnessView,
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
import { createHash } from "node:crypto";
import { escapeHtml } from "./escape.js";
import { isShare } from "../core/metrics/descriptors/index.js";
import { explorerScript, EXPLORER_STYLE, explorerHtmlPieces, type ExplorerData } from "./explorer.js";
import { subjectLine } from "./subject.js";
import type { Report } from "./types.js";

const MAX_EXAMPLES = 50;
const ERROR_EXAMPLES_PER_CODE = 5;
const MAX_RUN_COLUMNS = 20;

/**
 * The shell of every page mari writes: self-contained, and a Content-Security-Policy that forbids
 * any network fetch and every script but the page's own `script` (allowed by its sha256 hash
 * only, so a script that escaping were ever to let through would still not run). `body` is HTML.
 */
export function htmlPage(page: { title: string; style: string; body: string; script?: string }): string {
  return htmlPagePieces({ ...page, body: [page.body] }).join("");
}

/** htmlPage in pieces that join to it, its body given in pieces (a page of megabytes is written so: embedJsonPieces). */
export function htmlPagePieces(page: { title: string; style: string; body: readonly string[]; script?: string }): string[] {
  const scriptSrc = page.script === undefined ? "" : ` script-src 'sha256-${createHash("sha256").update(page.script, "utf8").digest("base64")}';`;
  const script = page.script === undefined ? "" : `<script>${page.script}</script>\n`;
  const head = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none';${scriptSrc} style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(page.title)}</title>
<style>${page.style}</style>
</head>
<body>
`;
  return [
    head,
    ...page.body,
    `
${script}</body>
</html>
`,
  ];
}

const e = escapeHtml;

/** A row header cell: table() puts it in the row as it is (every other cell goes into a <td>). */
function rowHeader(html: string): string {
  return `<th scope="row">${html}</th>`;
}

/** A table inside a horizontal scroll container, so a wide one scrolls instead of running off the page. */
export function table(header: string[], rows: string[][], className = ""): string {
  const head = `<tr>${header.map((cell) => `<th>${cell}</th>`).join("")}</tr>`;
  const body = rows.map((row) => `<tr>${row.map((cell) => (cell.startsWith("<th ") ? cell : `<td>${cell}</td>`)).join("")}</tr>`).join("\n");
  return `<div class="scroll"><table${className ? ` class="${className}"` : ""}>\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table></div>`;
}

function section(title: string, body: string): string {
  return body === "" ? "" : `<section>\n<h2>${e(title)}</h2>\n${body}\n</section>`;
}

/** A number and its bar, the bars of a column starting at the same x (the number in a fixed-width box). */
function barred(value: number | null | undefined): string {
  return `<span class="barred"><span class="num">${e(formatNumber(value))}</span>${bar(value)}</span>`;
}

/** A horizontal bar for a value in [0, 1] (values outside are clamped for drawing only). */
function bar(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "";
  const width = Math.round(Math.min(1, Math.max(0, value)) * 200);
  return `<svg class="bar" width="200" height="12" role="img" aria-label="${e(formatNumber(value))}"><rect width="200" height="12" fill="#eee"/><rect width="${width}" height="12" fill="#4a78c2"/></svg>`;
}

function gates(report: Report): string {
  // No gates: the verdict line under the heading says so, once.
  if (report.gates.length === 0) return "";
  const rows = report.gates.map((gate) => [
    gate.passed ? `<span class="pass">pass</span>` : `<span class="fail">FAIL</span>`,
    e(gate.name),
    e(formatNumber(gate.value)),
    e(formatNumber(gate.threshold)),
    e(gate.detail ?? ""),
  ]);
  return section("Gates", table(["result", "gate", "value", "threshold", "detail"], rows));
}

function metrics(report: Report): string {
  const names = metricNames(report);
  if (names.length === 0) return "";
  const multi = runCount(report) > 1 && report.spread !== undefined;
  const header = ["metric", "value", "95% CI", "n", ""];
  if (multi) header.push("std", "min", "max");
  const rows = names.map((name) => {
    const value = report.metrics[name];
    const ci = report.ci[name];
    // Bars for shares only (declared with bounds [0, 1]; an interval is only ever given for one):
    // revision_cost, a reward mean from -1 to 2 and counts get none, whatever value they happen to have.
    const proportion = ci !== undefined || isShare(name);
    const row = [e(name), e(formatNumber(value)), e(formatInterval(ci)), ci ? String(ci.n) : "", proportion ? bar(value) : ""];
    if (multi) {
      const spread = report.spread?.[name];
      row.push(e(formatNumber(spread?.std)), e(formatNumber(spread?.min)), e(formatNumber(spread?.max)));
    }
    return row;
  });
  const methods = [...new Set(Object.values(report.ci).map(describeInterval))];
  const note = methods.length ? `<p class="note">Intervals: ${e(methods.join("; "))}.</p>` : "";
  return section("Metrics", table(header, rows) + note);
}

function baseline(report: Report): string {
  const comparison = report.baseline;
  if (!comparison) return "";
  const rows = Object.entries(comparison.metrics).map(([name, diff]) => [
    e(name),
    e(formatNumber(diff.baseline)),
    e(formatNumber(diff.current)),
    e(formatSigned(diff.difference)),
    e(`[${formatSigned(diff.low)}, ${formatSigned(diff.high)}]`),
  ]);
  const notes = [`${describePairing(comparison)}.`, `${describeMcNemar(comparison)}.`];
  if (comparison.warning) notes.push(`Warning: ${comparison.warning}`);
  return section(
    "Baseline comparison",
    table(["metric", "baseline", "current", "difference", "95% CI"], rows) + notes.map((n) => `<p class="note">${e(n)}</p>`).join(""),
  );
}

/** Metrics drawn per run: the headline ones (those with an interval), else the first few. */
function plottedRunMetrics(report: Report, names: readonly string[]): string[] {
  const headline = Object.keys(report.ci).filter((name) => names.includes(name));
  return (headline.length > 0 ? headline : names).slice(0, 4);
}

// A per-run plot's drawing area in SVG units; it scales down to the page width (viewBox).
const RUN_PLOT = { width: 480, height: 110, left: 46, right: 8, top: 8, bottom: 20 };

/** One metric over the listed runs as dots (run order left to right), its mean as a dashed line: SVG, no script. */
function runPlot(report: Report, name: string, keys: readonly string[]): string {
  const { width: W, height: H, left: L, right: R, top: T, bottom: B } = RUN_PLOT;
  const points: Array<[number, number]> = [];
  keys.forEach((key, i) => {
    const v = report.runs[key]?.[name];
    if (typeof v === "number" && Number.isFinite(v)) points.push([i, v]);
  });
  if (points.length === 0) return "";
  const values = points.map(([, v]) => v);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 1e-9) {
    lo -= 0.05;
    hi += 0.05;
  }
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const y = (v: number) => T + ((hi - v) / (hi - lo)) * (H - T - B);
  const x = (i: number) => L + (keys.length === 1 ? (W - L - R) / 2 : (i / (keys.length - 1)) * (W - L - R));
  const f = (n: number) => n.toFixed(1);
  const radius = keys.length > 300 ? 1.3 : 2.5;
  const dots = points.map(([i, v]) => `<circle cx="${f(x(i))}" cy="${f(y(v))}" r="${radius}"/>`).join("");
  const label = `${name} over ${keys.length} runs: min ${formatNumber(Math.min(...values))}, mean ${formatNumber(mean)}, max ${formatNumber(Math.max(...values))}`;
  return (
    `<figure class="runplot"><figcaption>${e(label)}</figcaption>` +
    `<svg class="runs" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${e(label)}" font-size="10">` +
    `<line x1="${L}" x2="${W - R}" y1="${f(y(hi))}" y2="${f(y(hi))}" stroke="#e4e4e4"/><line x1="${L}" x2="${W - R}" y1="${f(y(lo))}" y2="${f(y(lo))}" stroke="#e4e4e4"/>` +
    `<text x="${L - 4}" y="${f(y(hi) + 4)}" text-anchor="end">${e(formatNumber(hi))}</text><text x="${L - 4}" y="${f(y(lo) + 4)}" text-anchor="end">${e(formatNumber(lo))}</text>` +
    `<line class="mean" x1="${L}" x2="${W - R}" y1="${f(y(mean))}" y2="${f(y(mean))}" stroke="#cf222e" stroke-dasharray="4 3"/>` +
    `<g fill="#4a78c2">${dots}</g>` +
    `<text x="${L}" y="${H - 4}">run ${e(keys[0]!)}</text><text x="${W - R}" y="${H - 4}" text-anchor="end">run ${e(keys.at(-1)!)}</text>` +
    `</svg></figure>`
  );
}

function runs(report: Report): string {
  const keys = runKeys(report);
  if (keys.length < 2) return "";
  const names = [...new Set(keys.slice(0, MAX_RUN_COLUMNS).flatMap((key) => Object.keys(report.runs[key] ?? {})))];
  const plots = plottedRunMetrics(report, names)
    .map((name) => runPlot(report, name, keys))
    .join("\n");
  const shown = keys.slice(0, MAX_RUN_COLUMNS);
  const rows = names.map((name) => [e(name), ...shown.map((key) => e(formatNumber(report.runs[key]?.[name])))]);
  const note = moreRunsNote(report, shown.length);
  const more = note ? `<p class="note">${e(note)}</p>` : "";
  const folded = `<details><summary>Every metric per run (table of the first ${shown.length} runs)</summary>\n${table(["metric", ...shown.map((key) => `run ${e(key)}`)], rows)}${more}</details>`;
  return section("Runs", `<div class="runplots">${plots}</div>\n${folded}`);
}

function breakdowns(report: Report): string {
  if (!report.breakdowns) return "";
  const parts = Object.entries(report.breakdowns).map(([dimension, groups]) => {
    const names = [...new Set(Object.values(groups).flatMap((m) => Object.keys(m)))];
    // A column gets bars when it is a declared share and all its values lie in [0, 1].
    const withBars = new Set(
      names.filter(
        (name) => isShare(name) && Object.values(groups).every((m) => m[name] === null || m[name] === undefined || (m[name]! >= 0 && m[name]! <= 1)),
      ),
    );
    const rows = Object.entries(groups).map(([group, m]) => [
      e(group),
      ...names.map((name) => (withBars.has(name) ? barred(m[name]) : e(formatNumber(m[name])))),
    ]);
    return `<h3>By ${e(dimension)}</h3>\n${table([e(dimension), ...names.map(e)], rows)}`;
  });
  return section("Breakdowns", parts.join("\n"));
}

function setcons(report: Report): string {
  if (report.setcons === undefined) return "";
  if (report.setcons === null) return section("SetCons", "<p>Not available: it needs at least two runs.</p>");
  const rows = setconsRows(report.setcons).map(([k, v]) => [e(k), e(v)]);
  const flipped = flippedCases(report.setcons);
  const list = flipped.length
    ? `<p>Flipped cases: ${flipped
        .slice(0, MAX_EXAMPLES)
        .map((id) => `<code>${e(id)}</code>`)
        .join(", ")}</p>`
    : "";
  return section("SetCons (run-to-run consistency)", table(["measure", "value"], rows) + list);
}

function majority(report: Report): string {
  if (!report.majority) return "";
  return section(
    "Majority vote",
    table(
      ["metric", "value"],
      Object.entries(report.majority).map(([k, v]) => [e(k), e(formatNumber(v))]),
    ),
  );
}

/** Documents: the 2×2 matrix from the tp/fp/fn/tn counts (format-invalid predictions are in neither column). */
function documentConfusion(report: Report): Record<string, Record<string, number>> | undefined {
  const { tp, fp, fn, tn } = report.metrics;
  if (report.task !== "documents" || [tp, fp, fn, tn].some((v) => typeof v !== "number")) return undefined;
  return { contradiction: { contradiction: tp!, none: fn! }, none: { contradiction: fp!, none: tn! } };
}

function confusion(report: Report): string {
  const matrix = report.confusion ?? documentConfusion(report);
  if (!matrix || Object.keys(matrix).length === 0) return "";
  const note =
    report.confusion === undefined && (report.metrics["format_invalid"] ?? 0)! > 0
      ? `<p class="note">Format-invalid predictions (${report.metrics["format_invalid"]}) have no judgment and are in no column.</p>`
      : "";
  return section("Confusion matrix (rows gold, columns predicted)", confusionTable(matrix) + note);
}

function confusionTable(matrix: Record<string, Record<string, number>>): string {
  const gold = Object.keys(matrix);
  const predicted = [...new Set([...gold, ...gold.flatMap((g) => Object.keys(matrix[g] ?? {}))])];
  const max = Math.max(1, ...gold.flatMap((g) => predicted.map((p) => matrix[g]?.[p] ?? 0)));
  const rows = gold.map((g) => [
    rowHeader(e(g)),
    ...predicted.map((p) => {
      const count = matrix[g]?.[p] ?? 0;
      const shade = Math.round(255 - (count / max) * 140);
      return `<span class="cell" style="background:rgb(${shade},${shade},255)">${e(formatNumber(count))}</span>`;
    }),
  ]);
  return table(["gold \\ predicted", ...predicted.map(e)], rows, "confusion");
}

function exampleList(examples: readonly ExampleLine[]): string {
  if (examples.length === 0) return "";
  const items = examples.slice(0, MAX_EXAMPLES).map((ex) => `<li><code>${e(ex.where)}</code> case <code>${e(ex.case_id)}</code>: ${e(ex.message)}</li>`);
  return `<ul>\n${items.join("\n")}\n</ul>`;
}

function claimStates(report: Report): string {
  const view = claimStatesView(report);
  if (view === null) return "";
  const rows = view.states.map(({ state, count, share }) => [e(state), String(count), barred(share)]);
  const accuracy =
    view.gold > 0
      ? `<p>Accuracy against gold: <b>${e(formatNumber(view.accuracy))}</b> ${e(formatInterval(view.ci))} over ${view.gold} claims with a gold state.</p>`
      : `<p class="note">No gold states were given, so there is no accuracy.</p>`;
  const matrix = view.gold > 0 && view.confusion ? `<h3>Gold (rows) against predicted (columns)</h3>\n${confusionTable(view.confusion)}` : "";
  return section("Claim states", table(["state", "claims", "share"], rows) + accuracy + matrix);
}

function errorCodes(report: Report): string {
  const view = errorCodesView(report);
  if (view === null) return "";
  if (view.length === 0) return section("Errors by code", "<p>None: every case was accepted.</p>");
  const rows = view.map(({ code, count, examples }) => [`<code>${e(code)}</code>`, String(count), exampleList(examples.slice(0, ERROR_EXAMPLES_PER_CODE))]);
  return section("Errors by code", table(["code", "cases", "examples"], rows));
}

function dependencies(report: Report): string {
  const view = dependenciesView(report);
  if (view === null) return "";
  const shown = view.list.slice(0, MAX_EXAMPLES);
  const rows = shown.map((d) => [`<code>${e(d.dependency_id)}</code>`, e(d.revision), `<code>${e(d.section_revision.slice(0, 12))}</code>`, String(d.cases)]);
  const more = view.list.length > shown.length ? `<p class="note">${view.list.length - shown.length} more dependencies are in report.json.</p>` : "";
  const conflicts =
    view.conflicts === 0 ? "<p>Dependency conflicts: none.</p>" : `<p>Dependency conflicts: ${view.conflicts} cases.</p>${exampleList(view.conflictExamples)}`;
  const list = shown.length ? table(["dependency", "document revision", "section revision", "cases"], rows) : "";
  return section("Dependencies", `<p>${view.list.length} distinct dependencies cited by accepted cases.</p>${list}${more}${conflicts}`);
}

function freshness(report: Report): string {
  const view = freshnessView(report);
  if (view === null) return "";
  if (view.length === 0) return section("Freshness", "<p>No case had dependencies to assess.</p>");
  return section(
    "Freshness (cases per status against the current documents)",
    table(
      ["status", "cases"],
      view.map(([status, n]) => [e(status), String(n)]),
    ),
  );
}

/** A column chart of one histogram (inline SVG, counts labelled above the columns). */
function histogramSvg(name: string, bins: readonly { bin: string; count: number }[]): string {
  // Wide enough for the longest label at ~6 px per character (10 px font), so labels never overlap.
  const colWidth = Math.max(44, 12 + 6 * Math.max(0, ...bins.map((b) => b.bin.length)));
  const height = 120;
  const max = Math.max(1, ...bins.map((b) => b.count));
  const width = Math.max(1, bins.length) * colWidth;
  const cols = bins.map((b, i) => {
    const h = Math.round((b.count / max) * (height - 40));
    const x = i * colWidth + 4;
    return (
      `<rect x="${x}" y="${height - 20 - h}" width="${colWidth - 8}" height="${h}" fill="#4a78c2"/>` +
      `<text x="${x + (colWidth - 8) / 2}" y="${height - 24 - h}" text-anchor="middle">${b.count}</text>` +
      `<text x="${x + (colWidth - 8) / 2}" y="${height - 6}" text-anchor="middle">${e(b.bin)}</text>`
    );
  });
  // Scaled down (viewBox) on a screen narrower than the chart, never wider than drawn.
  return `<h3>${e(name)}</h3>\n<div class="plot"><svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${e(name)}" font-size="10">${cols.join("")}</svg></div>`;
}

function histograms(report: Report): string {
  if (!report.histograms || Object.keys(report.histograms).length === 0) return "";
  return section(
    "Distributions",
    Object.entries(report.histograms)
      .map(([name, bins]) => histogramSvg(name, bins))
      .join("\n"),
  );
}

function rejections(report: Report): string {
  const counts = sortedRejections(report);
  if (counts.length === 0 && report.rejection_examples.length === 0) return section("Rejections", "<p>None.</p>");
  const examples = report.rejection_examples
    .slice(0, MAX_EXAMPLES)
    .map((ex) => `<li><code>${e(ex.where)}</code> ${e(ex.reason)}: ${e(ex.message)}</li>`)
    .join("\n");
  return section(
    "Rejections",
    table(
      ["reason", "count"],
      counts.map(([r, c]) => [e(r), String(c)]),
    ) + (examples ? `<ul>\n${examples}\n</ul>` : ""),
  );
}

function orphans(report: Report): string {
  if (!report.orphans || report.orphans.count === 0) return "";
  const list = report.orphans.examples
    .slice(0, MAX_EXAMPLES)
    .map((id) => `<code>${e(id)}</code>`)
    .join(", ");
  return section("Orphans", `<p>${report.orphans.count} predictions name a case id not in the slice: ${list}</p>`);
}

function provenance(report: Report): string {
  return section(
    "Provenance",
    table(
      ["field", "value"],
      provenanceRows(report).map(([k, v]) => [e(k), e(v)]),
    ),
  );
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:middle}
th{background:#f4f4f4}.pass{color:#1a7f37;font-weight:bold}.fail{color:#cf222e;font-weight:bold}
.note{color:#555;font-size:12px}.verdict{font-size:18px}.banner{background:#fff8c5;border:1px solid #d4a72c;padding:.5em}.warning{background:#ffebe9;border-color:#cf222e;font-size:16px}
.confusion td{text-align:right}.cell{display:inline-block;min-width:3em;padding:2px 4px}code{font-size:12px}
.scroll{overflow-x:auto;max-width:100%}svg{max-width:none}.plot svg{max-width:100%;height:auto}
.barred{white-space:nowrap}.num{display:inline-block;min-width:4.5em;margin-right:.3em}
.runplots{display:flex;flex-wrap:wrap;gap:.5em 1.5em}.runplot{margin:0;max-width:480px;width:100%}.runplot figcaption{font-size:12px;color:#555}.runplot svg{width:100%;height:auto;max-width:480px}
.subject{margin:.2em 0 0;color:#555}details summary{cursor:pointer;margin:.4em 0}.deltas{max-width:100%;height:auto}
@media (max-width:500px){body{padding:0 .5em}th,td{padding:2px 4px}}`;

/** One metric's paired difference and its interval, for deltaChart. */
export interface DeltaRow {
  name: string;
  difference: number;
  low: number;
  high: number;
}

/**
 * The paired differences as a chart (inline SVG, no script): one row per metric, its 95% interval as
 * a line, the difference as a dot, zero marked; green when the interval is above zero, red below.
 * Drawn in a 400-unit viewBox, so it fits a phone's width.
 */
export function deltaChart(rows: readonly DeltaRow[]): string {
  if (rows.length === 0) return "";
  const W = 400;
  const LABEL = 150;
  const ROW = 22;
  const TOP = 18;
  const span = Math.max(0.01, ...rows.flatMap((r) => [Math.abs(r.low), Math.abs(r.high), Math.abs(r.difference)])) * 1.1;
  const x = (v: number) => LABEL + ((v + span) / (2 * span)) * (W - LABEL - 8);
  const f = (n: number) => n.toFixed(1);
  const H = TOP + rows.length * ROW + 4;
  const parts = [
    `<line x1="${f(x(0))}" x2="${f(x(0))}" y1="${TOP - 4}" y2="${H - 2}" stroke="#999"/>`,
    `<text x="${f(x(-span))}" y="11">${e(formatSigned(-span))}</text><text x="${f(x(0))}" y="11" text-anchor="middle">0</text><text x="${f(x(span))}" y="11" text-anchor="end">${e(formatSigned(span))}</text>`,
  ];
  rows.forEach((r, i) => {
    const y = TOP + i * ROW + ROW / 2;
    const colour = r.low > 0 ? "#1a7f37" : r.high < 0 ? "#cf222e" : "#4a78c2";
    const label = `${r.name}: ${formatSigned(r.difference)} [${formatSigned(r.low)}, ${formatSigned(r.high)}]`;
    parts.push(
      `<g class="delta" data-metric="${e(r.name)}" data-difference="${r.difference}"><title>${e(label)}</title>` +
        `<text x="${LABEL - 6}" y="${f(y + 4)}" text-anchor="end">${e(r.name.length > 24 ? `${r.name.slice(0, 23)}…` : r.name)}</text>` +
        `<line x1="${f(x(r.low))}" x2="${f(x(r.high))}" y1="${f(y)}" y2="${f(y)}" stroke="${colour}" stroke-width="3"/>` +
        `<circle cx="${f(x(r.difference))}" cy="${f(y)}" r="4" fill="${colour}"/></g>`,
    );
  });
  return `<div class="plot"><svg class="deltas" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="paired differences with 95% intervals" font-size="11">${parts.join("")}</svg></div>`;
}

/** The eval page's style, for other pages (the sweep's) to look the same. */
export const REPORT_STYLE = STYLE;

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** report.html; with `explorer`, the case explorer (and its script) follows the confusion matrix. */
export function renderHtml(report: Report, explorer?: ExplorerData): string {
  return renderHtmlPieces(report, explorer).join("");
}

/** renderHtml in pieces that join to it (the case explorer's cases a few a piece: explorerHtmlPieces). */
export function renderHtmlPieces(report: Report, explorer?: ExplorerData): string[] {
  const verdict =
    report.gates.length === 0
      ? "No gates."
      : gatesPassed(report)
        ? `<span class="pass">${capitalized(gatesVerdict(report))}.</span>`
        : `<span class="fail">${capitalized(gatesVerdict(report))}.</span>`;
  const note = [
    ...(report.system.judge_note ? [`<p class="banner">${e(report.system.judge_note)}</p>`] : []),
    ...(report.warnings ?? []).map((warning) => `<p class="banner warning"><strong>WARNING:</strong> ${e(warning)}</p>`),
  ].join("\n");
  // The answer first: verdict, the gates, headline metrics, rejections; the detail after.
  const before = [
    gates(report),
    metrics(report),
    rejections(report),
    orphans(report),
    baseline(report),
    runs(report),
    breakdowns(report),
    setcons(report),
    majority(report),
    confusion(report),
  ].filter((part) => part !== "");
  const after = [histograms(report), claimStates(report), errorCodes(report), dependencies(report), freshness(report), provenance(report)].filter(
    (part) => part !== "",
  );
  // The sections one after the other, a newline between two: the explorer's pieces between those before and after it.
  const sections = explorer
    ? [before.map((part) => `${part}\n`).join(""), ...explorerHtmlPieces(explorer), after.map((part) => `\n${part}`).join("")]
    : [[...before, ...after].join("\n")];
  const subject = subjectLine(report);
  const heading = subject === "" ? `mari report: ${report.task}` : subject;
  sections[0] = `<h1>${e(heading)}</h1>
<p class="subject">mari report: ${e(report.task)}</p>
<p class="verdict">${verdict}</p>${explorer ? `\n<p><a href="#cases">Cases: ${explorer.shown} of ${explorer.total}</a></p>` : ""}
${note}
${sections[0]}`;
  return htmlPagePieces({
    title: `${heading} · mari ${report.task}`,
    style: explorer ? `${STYLE}\n${EXPLORER_STYLE}` : STYLE,
    ...(explorer ? { script: explorerScript() } : {}),
    body: sections,
  });
}
