// The files `mari trend` writes: trend.json (the whole result), trend.md (tables, for a CI job
// summary) and trend.html (one chart per metric with its interval band, best and kept points
// marked, a table under each). The page has no script at all; its CSP forbids any, and every name
// from the reports (directory names, paths) is escaped.
import { join } from "node:path";
import { writeFileAtomic } from "../../io/atomic-write.js";
import { formatInterval, formatNumber, formatSigned } from "../../report/format.js";
import { escapeCell, escapeHtml } from "../../report/escape.js";
import { htmlPage, REPORT_STYLE, table } from "../../report/html.js";
import { renderJunit } from "../../report/junit.js";
import { redactSecrets, secretEnvValues } from "../../report/redact.js";
import type { ReportFormat } from "../../report/types.js";
import { gatesHtml, gatesMarkdown, gatesVerdictHtml, gatesVerdictMarkdown, mdTable } from "../diff/render.js";
import type { TrendKeep, TrendOutcome, TrendPoint, TrendResult, TrendSeries } from "./run.js";

export function renderTrendJson(trend: TrendResult): string {
  return `${JSON.stringify(trend, null, 2)}\n`;
}

/** The x label of a point: its step, else its name. */
function xLabel(trend: TrendResult, p: TrendPoint): string {
  return trend.x === "step" && p.step !== null ? String(p.step) : p.name;
}

/** "5 checkpoints (ckpt-100 … ckpt-500)", "1 checkpoint (ckpt-300)". */
export function checkpointSpan(trend: TrendResult): string {
  const n = trend.points.length;
  const names = n === 1 ? trend.points[0]!.name : `${trend.points[0]!.name} … ${trend.points.at(-1)!.name}`;
  return `${n} checkpoint${n === 1 ? "" : "s"} (${names})`;
}

/** One sentence on the checkpoint to keep (or why there is none). */
export function keepSentence(trend: TrendResult): string {
  const k = trend.keep;
  if (k === null) return `No checkpoint to keep: ${trend.keep_note ?? "no metric to choose by"}.`;
  const best = `best by ${k.metric}: ${k.best.name} (${formatNumber(k.best.value)})`;
  if (k.kept.index === k.best.index) {
    const why =
      k.best.index === 0
        ? "it is the first checkpoint"
        : `no earlier checkpoint qualifies (${k.comparisons.length} paired and significantly worse, ${k.screen.skipped} outside the best's interval)`;
    return `Checkpoint to keep: ${k.best.name}, the ${best}; ${why}.`;
  }
  const c = k.comparisons.find((x) => x.index === k.kept.index)!;
  return (
    `Checkpoint to keep: ${k.kept.name} (${k.metric} ${formatNumber(k.kept.value)}), the earliest not significantly worse than the ${best}: ` +
    `paired difference ${formatSigned(c.difference)}, 95% CI [${formatSigned(c.low)}, ${formatSigned(c.high)}] on ${c.matched_cases} cases, McNemar p = ${formatNumber(c.mcnemar_p)}.`
  );
}

/** Which checkpoints the kept-checkpoint scan paired with the best. */
export function screenSentence(k: TrendKeep): string {
  const paired = `${k.comparisons.length} checkpoint${k.comparisons.length === 1 ? " was" : "s were"} paired with the best`;
  if (k.screen.interval === null) return `${paired}.`;
  const { low, high } = k.screen.interval;
  return `${paired}; ${k.screen.skipped} earlier checkpoint${k.screen.skipped === 1 ? " lies" : "s lie"} outside the best's own interval [${formatNumber(low)}, ${formatNumber(high)}] and ${k.screen.skipped === 1 ? "was" : "were"} not paired.`;
}

/** Marks of a point in a metric's table: best, kept. */
function marks(trend: TrendResult, s: TrendSeries, p: TrendPoint): string[] {
  const out: string[] = [];
  if (s.best?.index === p.index) out.push("best");
  if (trend.keep?.metric === s.metric && trend.keep.kept.index === p.index) out.push("kept");
  return out;
}

export function renderTrendMarkdown(trend: TrendResult): string {
  const out = [
    `# mari trend: ${trend.task}, ${escapeCell(checkpointSpan(trend))}`,
    "",
    gatesVerdictMarkdown(trend.gates),
    "",
    escapeCell(keepSentence(trend)),
    "",
  ];
  for (const w of trend.warnings) out.push(`Warning: ${escapeCell(w)}  `);
  if (trend.warnings.length > 0) out.push("");
  const metrics = trend.series.map((s) => s.metric);
  out.push(
    "## Metrics per checkpoint",
    "",
    mdTable(
      ["checkpoint", trend.x, ...metrics.map(escapeCell)],
      trend.points.map((p) => [
        escapeCell(p.name),
        escapeCell(xLabel(trend, p)),
        ...trend.series.map((s) => {
          const m = marks(trend, s, p);
          return `${formatNumber(p.values[s.metric])}${m.length ? ` (${m.join(", ")})` : ""}`;
        }),
      ]),
    ),
    "",
    "## Best per metric",
    "",
    mdTable(
      ["metric", "best", "value", "last − best"],
      trend.series.map((s) => [
        escapeCell(s.metric),
        s.best ? escapeCell(s.best.name) : "n/a",
        formatNumber(s.best?.value),
        s.last_minus_best === null ? "n/a" : formatSigned(s.last_minus_best),
      ]),
    ),
    "",
  );
  if (trend.keep !== null) {
    out.push("## Checkpoint to keep", "", escapeCell(trend.keep.rule), "", escapeCell(screenSentence(trend.keep)), "");
    if (trend.keep.comparisons.length > 0)
      out.push(
        mdTable(
          ["checkpoint", `${escapeCell(trend.keep.metric)} − best`, "95% CI", "McNemar p", "significantly worse"],
          trend.keep.comparisons.map((c) => [
            escapeCell(c.name),
            formatSigned(c.difference),
            `[${formatSigned(c.low)}, ${formatSigned(c.high)}]`,
            formatNumber(c.mcnemar_p),
            c.significantly_worse ? "yes" : "no",
          ]),
        ),
        "",
      );
  }
  out.push(...gatesMarkdown("Gates (on the last checkpoint)", trend.gates));
  return out.join("\n");
}

// The chart's drawing area in SVG units; the SVG scales to the page width (viewBox).
const W = 480;
const H = 200;
const LEFT = 44;
const RIGHT = 12;
const TOP = 10;
const BOTTOM = 26;
const INSET = 10;
/** Longest x-axis label in characters (two of them fit side by side at 11 px). */
const AXIS_LABEL = 24;

/** Round tick values covering [lo, hi]. */
function ticks(lo: number, hi: number): number[] {
  const span = hi - lo;
  const raw = span / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** An SVG line chart of one metric over the checkpoints: band = the reports' own intervals. */
export function trendChart(trend: TrendResult, s: TrendSeries): string {
  const e = escapeHtml;
  const pts = trend.points;
  const lows: number[] = [];
  const highs: number[] = [];
  for (const p of pts) {
    const v = p.values[s.metric];
    if (v === null || v === undefined) continue;
    const ci = p.ci[s.metric];
    lows.push(ci ? Math.min(ci.low, v) : v);
    highs.push(ci ? Math.max(ci.high, v) : v);
  }
  if (lows.length === 0) return `<p class="note">No checkpoint has a value for ${e(s.metric)}.</p>`;
  let lo = Math.min(...lows);
  let hi = Math.max(...highs);
  if (hi - lo < 1e-9) {
    lo -= 0.05;
    hi += 0.05;
  }
  const pad = (hi - lo) * 0.08;
  const tickValues = ticks(lo - pad, hi + pad);
  const yMin = Math.min(lo - pad, tickValues[0]!);
  const yMax = Math.max(hi + pad, tickValues.at(-1)!);
  const y = (v: number) => TOP + ((yMax - v) / (yMax - yMin)) * (H - TOP - BOTTOM);
  // Along steps when the axis is steps (a gap in training shows as a gap), else evenly.
  const xs = pts.map((p, i) => (trend.x === "step" && p.step !== null ? p.step : i));
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs);
  // Points sit INSET inside the grid lines, clear of the tick labels.
  const x = (i: number) => (x1 === x0 ? (LEFT + W - RIGHT) / 2 : LEFT + INSET + ((xs[i]! - x0) / (x1 - x0)) * (W - LEFT - RIGHT - 2 * INSET));
  const f = (n: number) => n.toFixed(2);
  const parts: string[] = [];
  for (const t of tickValues) {
    parts.push(`<line class="tick" data-value="${t}" x1="${LEFT}" x2="${W - RIGHT}" y1="${f(y(t))}" y2="${f(y(t))}" stroke="#e4e4e4"/>`);
    parts.push(`<text x="${LEFT - 4}" y="${f(y(t) + 4)}" text-anchor="end">${e(String(t))}</text>`);
  }
  // The band: upper edge left to right, lower edge back, over runs of points that have an interval.
  let run: number[] = [];
  const bands: string[] = [];
  const flush = () => {
    if (run.length > 0) {
      const upper = run.map((i) => `${f(x(i))},${f(y(pts[i]!.ci[s.metric]!.high))}`);
      const lower = run.reverse().map((i) => `${f(x(i))},${f(y(pts[i]!.ci[s.metric]!.low))}`);
      bands.push(`<polygon class="band" points="${[...upper, ...lower].join(" ")}" fill="#4a78c2" fill-opacity="0.18" stroke="none"/>`);
    }
    run = [];
  };
  pts.forEach((p, i) => {
    if (p.ci[s.metric] !== undefined && p.values[s.metric] !== null) run.push(i);
    else flush();
  });
  flush();
  parts.push(...bands);
  const line = pts.flatMap((p, i) => (p.values[s.metric] === null || p.values[s.metric] === undefined ? [] : [`${f(x(i))},${f(y(p.values[s.metric]!))}`]));
  if (line.length > 1) parts.push(`<polyline points="${line.join(" ")}" fill="none" stroke="#4a78c2" stroke-width="2"/>`);
  pts.forEach((p, i) => {
    const v = p.values[s.metric];
    if (v === null || v === undefined) return;
    const m = marks(trend, s, p);
    const cls = ["point", ...m].join(" ");
    const r = m.includes("best") ? 5 : 3;
    const fill = m.includes("best") ? "#1a7f37" : "#4a78c2";
    const ci = p.ci[s.metric];
    const title = `${p.name}: ${formatNumber(v)}${ci ? ` ${formatInterval(ci)}` : ""}${m.length ? ` (${m.join(", ")})` : ""}`;
    parts.push(
      `<circle class="${cls}" data-index="${p.index}" data-value="${v}" cx="${f(x(i))}" cy="${f(y(v))}" r="${r}" fill="${fill}"><title>${e(title)}</title></circle>`,
    );
    if (m.includes("kept")) parts.push(`<circle class="kept-ring" cx="${f(x(i))}" cy="${f(y(v))}" r="8" fill="none" stroke="#bf8700" stroke-width="2"/>`);
  });
  // x labels: first and last only, each cut to AXIS_LABEL characters, so they never overlap.
  const label = (p: TrendPoint) => {
    const text = xLabel(trend, p);
    return text.length > AXIS_LABEL ? `${text.slice(0, AXIS_LABEL - 1)}…` : text;
  };
  const lastIndex = pts.length - 1;
  parts.push(`<text x="${f(x(0))}" y="${H - 8}" text-anchor="${lastIndex === 0 ? "middle" : "start"}">${e(label(pts[0]!))}</text>`);
  if (lastIndex > 0) parts.push(`<text x="${f(x(lastIndex))}" y="${H - 8}" text-anchor="end">${e(label(pts[lastIndex]!))}</text>`);
  return `<svg class="trend" viewBox="0 0 ${W} ${H}" role="img" aria-label="${e(`${s.metric} over ${pts.length} checkpoints`)}" font-size="11">${parts.join("")}</svg>`;
}

/** Tables under the charts start open up to this many checkpoints (longer ones one click away). */
const OPEN_TABLE_POINTS = 20;

function seriesSection(trend: TrendResult, s: TrendSeries): string {
  const e = escapeHtml;
  const direction = s.higher_is_better ? "higher is better" : "lower is better";
  const best = s.best ? `best ${e(s.best.name)} (${e(formatNumber(s.best.value))})` : "no value";
  const drop = s.last_minus_best === null ? "" : `, last − best ${e(formatSigned(s.last_minus_best))}`;
  const rows = trend.points.map((p) => {
    const m = marks(trend, s, p);
    const ci = p.ci[s.metric];
    return [e(p.name), e(xLabel(trend, p)), e(formatNumber(p.values[s.metric])), e(formatInterval(ci)), ci ? String(ci.n) : "", e(m.join(", "))];
  });
  return `<section class="series">
<h2>${e(s.metric)}</h2>
<p class="note">${direction}; ${best}${drop}. Band: each report's own 95% interval, where it has one.</p>
${trendChart(trend, s)}
<details${trend.points.length <= OPEN_TABLE_POINTS ? " open" : ""}><summary>Table</summary>
${table(["checkpoint", e(trend.x), "value", "95% CI", "n", ""], rows)}
</details>
</section>`;
}

const TREND_STYLE = `svg.trend{width:100%;max-width:720px;height:auto;display:block}.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,480px),1fr));gap:0 2em}
.series{min-width:0}details{margin:.3em 0 1em}.keep{background:#f3f8f0;border:1px solid #1a7f37;padding:.5em}
.legend{font-size:12px;color:#555}@media (max-width:500px){body{margin:.5em auto;padding:0 .5em}h1{font-size:20px}}`;

/** The failed gates by name under the verdict, linked to their details at the end of the page. */
function failedGates(trend: TrendResult): string {
  const failed = trend.gates.filter((g) => !g.passed);
  if (failed.length === 0) return "";
  return `\n<p>Failed: ${failed.map((g) => `<span class="fail">${escapeHtml(g.name)}</span> (${escapeHtml(formatNumber(g.value))})`).join(", ")}; <a href="#gates">details</a>.</p>`;
}

export function renderTrendHtml(trend: TrendResult): string {
  const e = escapeHtml;
  const gates = trend.gates.length === 0 ? "" : `<section id="gates"><h2>Gates (on the last checkpoint)</h2>\n${gatesHtml(trend.gates)}</section>`;
  const k = trend.keep;
  const comparisons =
    k === null || k.comparisons.length === 0
      ? ""
      : table(
          ["checkpoint", `${e(k.metric)} − best`, "95% CI", "McNemar p", "significantly worse"],
          k.comparisons.map((c) => [
            e(c.name),
            e(formatSigned(c.difference)),
            e(`[${formatSigned(c.low)}, ${formatSigned(c.high)}]`),
            e(formatNumber(c.mcnemar_p)),
            c.significantly_worse ? "yes" : "no",
          ]),
        );
  const keep = k
    ? `<section><h2>How the checkpoint to keep was chosen</h2>
<p class="note">Rule: ${e(k.rule)} Paired bootstrap B=${k.resamples}, seed=${k.seed}.</p>
<p class="note">${e(screenSentence(k))}</p>
${comparisons}</section>`
    : "";
  const x = trend.points.map((p) => p.step);
  const range = trend.x === "step" ? `steps ${x[0]} to ${x.at(-1)}` : `ordered by ${trend.x}`;
  const body = `<h1>mari trend: ${e(trend.task)}</h1>
<p class="verdict">${gatesVerdictHtml(trend.gates)}</p>${failedGates(trend)}
<p>${e(checkpointSpan(trend))}, ${e(range)}.</p>
${trend.warnings.map((w) => `<p class="banner warning"><strong>WARNING:</strong> ${e(w)}</p>`).join("\n")}
<p class="keep">${e(keepSentence(trend))}</p>
<p class="legend">In each chart: the line joins the checkpoints' values, the band is each report's own 95% interval, the large green point is the best, the ringed point the checkpoint to keep.</p>
<div class="charts">
${trend.series.map((s) => seriesSection(trend, s)).join("\n")}
</div>
${keep}
${gates}`;
  return htmlPage({ title: `mari trend: ${trend.task}`, style: `${REPORT_STYLE}\n${TREND_STYLE}`, body });
}

/** Writes trend.json, trend.md, trend.html (and trend.junit.xml when asked) atomically, scrubbed of secrets; returns their paths. */
export async function writeTrendFiles(outDir: string, outcome: TrendOutcome, formats: readonly ReportFormat[] = ["json", "md", "html"]): Promise<string[]> {
  const secrets = secretEnvValues();
  const files: Array<[ReportFormat, string, () => string]> = [
    ["json", "trend.json", () => renderTrendJson(outcome.trend)],
    ["md", "trend.md", () => renderTrendMarkdown(outcome.trend)],
    ["html", "trend.html", () => renderTrendHtml(outcome.trend)],
    ["junit", "trend.junit.xml", () => renderJunit(outcome.last)],
  ];
  const written: string[] = [];
  for (const [format, name, render] of files) {
    if (!formats.includes(format)) continue;
    const path = join(outDir, name);
    await writeFileAtomic(path, redactSecrets(render(), secrets));
    written.push(path);
  }
  return written;
}
