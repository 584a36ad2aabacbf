// view.html, the page of `mari view`: every report found under the folders given, one row each,
// newest first, checkpoint folders grouped under their trend. The rows are static HTML (the page
// reads without its script); the one inline script, allowed by its CSP hash, only filters and
// re-sorts them. Every string from a report or a path is escaped: report files are untrusted.
import { browserScript } from "./explorer.js";
import { formatInterval, formatNumber, formatSigned } from "./format.js";
import { escapeHtml } from "./escape.js";
import { htmlPage } from "./html.js";

export type ViewKind = "eval" | "pairs" | "evidence" | "sweep" | "diff" | "trend";

export interface ViewMetric {
  name: string;
  value: number | null;
  low?: number;
  high?: number;
  /** A difference (diff): shown with its sign. */
  signed?: boolean;
}

export interface ViewEntry {
  /** "unreadable": the file could not be read or is not a mari report (`problem` says why). */
  kind: ViewKind | "unreadable";
  /** The report file as found (for display). */
  file: string;
  /** The page to open, relative to view.html, or null when there is none beside the file. */
  link: string | null;
  /** The folder the file is in. */
  folder: string;
  task: string | null;
  model: string | null;
  slice: string | null;
  /** When the file was written (its modification time, ms since the epoch). */
  date: number;
  metrics: ViewMetric[];
  gates: { passed: number; failed: number };
  invalid: { count: number; total: number } | null;
  problem?: string;
}

/** Checkpoint reports shown together: under the trend that drew them, or under their common folder. */
export interface ViewGroup {
  title: string;
  /** The trend entry heading the group, if a trend.json names these checkpoints. */
  trend: number | null;
  /** Entry indices, in checkpoint order. */
  members: number[];
}

export interface ViewPage {
  roots: string[];
  entries: ViewEntry[];
  groups: ViewGroup[];
  /** Set when the walk stopped at the bound on reports (the page says so). */
  truncatedAt: number | null;
}

const e = escapeHtml;
/** Metrics shown per row: the report's headline ones (those with an interval) come first. */
const METRICS_SHOWN = 4;

export function verdictOf(entry: ViewEntry): "failed" | "passed" | "none" | "unreadable" {
  if (entry.kind === "unreadable") return "unreadable";
  if (entry.gates.failed > 0) return "failed";
  return entry.gates.passed > 0 ? "passed" : "none";
}

function dateText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

function metricHtml(m: ViewMetric): string {
  const value = m.signed === true && m.value !== null ? formatSigned(m.value) : formatNumber(m.value);
  const ci =
    m.low !== undefined && m.high !== undefined
      ? ` <small>${m.signed === true ? `[${formatSigned(m.low)}, ${formatSigned(m.high)}]` : formatInterval({ low: m.low, high: m.high, method: "wilson", n: 0 })}</small>`
      : "";
  return `<span class="m"><span class="mn">${e(m.name)}</span> ${value}${ci}</span>`;
}

function gatesHtml(entry: ViewEntry): string {
  const { passed, failed } = entry.gates;
  if (failed > 0) return `<span class="fail">FAIL</span> ${failed} of ${passed + failed}`;
  if (passed > 0) return `<span class="pass">pass</span> ${passed}`;
  return `<span class="none">no gates</span>`;
}

function invalidHtml(entry: ViewEntry): string {
  if (entry.invalid === null || entry.invalid.total === 0) return "n/a";
  const rate = entry.invalid.count / entry.invalid.total;
  return `${formatNumber(rate)} <small>${entry.invalid.count}/${entry.invalid.total}</small>`;
}

function rowHtml(entry: ViewEntry, member: boolean): string {
  const verdict = verdictOf(entry);
  const search = [entry.folder, entry.file, entry.task, entry.model, entry.slice, entry.kind]
    .filter((s) => s !== null)
    .join(" ")
    .toLowerCase();
  const name = entry.link === null ? e(entry.folder) : `<a href="${e(entry.link)}">${e(entry.folder)}</a>`;
  const what =
    entry.kind === "unreadable"
      ? `<span class="problem">${e(entry.problem ?? "unreadable")}</span>`
      : entry.metrics.slice(0, METRICS_SHOWN).map(metricHtml).join(" ");
  const cells = [
    `<td data-label="date"><time datetime="${new Date(entry.date).toISOString()}">${dateText(entry.date)}</time></td>`,
    `<td data-label="kind"><span class="kind k-${entry.kind}">${entry.kind}</span></td>`,
    `<td data-label="report" class="name">${name}<br><small title="${e(entry.file)}">${e(entry.file)}</small></td>`,
    `<td data-label="task">${e(entry.task ?? "")}</td>`,
    `<td data-label="model / dump">${e(entry.model ?? "")}</td>`,
    `<td data-label="slice">${e(entry.slice ?? "")}</td>`,
    `<td data-label="headline (95% CI)" class="metrics">${what}</td>`,
    `<td data-label="gates" class="v-${verdict}">${entry.kind === "unreadable" ? "" : gatesHtml(entry)}</td>`,
    `<td data-label="invalid">${entry.kind === "unreadable" ? "" : invalidHtml(entry)}</td>`,
  ];
  return `<tr class="entry${member ? " member" : ""}" data-kind="${entry.kind}" data-verdict="${verdict}" data-search="${e(search)}">${cells.join("")}</tr>`;
}

interface Unit {
  entries: number[];
  group: ViewGroup | null;
}

function unitDate(page: ViewPage, unit: Unit): number {
  let date = 0;
  for (const i of unit.entries) date = Math.max(date, page.entries[i]!.date);
  return date;
}

function unitHtml(page: ViewPage, unit: Unit): string {
  const newest = unit.entries.reduce((a, b) => (page.entries[b]!.date > page.entries[a]!.date ? b : a));
  const lead = page.entries[newest]!;
  const first = lead.metrics[0]?.value;
  const attrs =
    `data-date="${unitDate(page, unit)}" data-name="${e(lead.folder.toLowerCase())}" data-model="${e((lead.model ?? "").toLowerCase())}"` +
    ` data-metric="${first === null || first === undefined ? "" : first}"`;
  const rows: string[] = [];
  const group = unit.group;
  if (group !== null) {
    const n = group.members.length;
    const head =
      group.trend === null
        ? `<tr class="group-head"><td colspan="9">Checkpoints in <strong>${e(group.title)}</strong> (${n}, no trend.json names them)</td></tr>`
        : rowHtml(page.entries[group.trend]!, false);
    rows.push(head);
    if (group.trend !== null) rows.push(`<tr class="group-head"><td colspan="9">${n} checkpoint${n === 1 ? "" : "s"} of this trend:</td></tr>`);
    for (const i of group.members) rows.push(rowHtml(page.entries[i]!, true));
  } else rows.push(rowHtml(page.entries[unit.entries[0]!]!, false));
  return `<tbody class="unit${group !== null ? " group" : ""}" ${attrs}>\n${rows.join("\n")}\n</tbody>`;
}

/** The rows of the page in display order: each group once (where its newest report is), then the rest, newest first. */
function units(page: ViewPage): Unit[] {
  const grouped = new Set<number>();
  const out: Unit[] = [];
  for (const group of page.groups) {
    const entries = [...(group.trend === null ? [] : [group.trend]), ...group.members];
    for (const i of entries) grouped.add(i);
    out.push({ entries, group });
  }
  page.entries.forEach((_, i) => {
    if (!grouped.has(i)) out.push({ entries: [i], group: null });
  });
  const dates = out.map((u) => unitDate(page, u));
  const order = out.map((_, i) => i).sort((a, b) => dates[b]! - dates[a]! || a - b);
  return order.map((i) => out[i]!);
}

function countsLine(page: ViewPage): string {
  const byKind = new Map<string, number>();
  for (const entry of page.entries) byKind.set(entry.kind, (byKind.get(entry.kind) ?? 0) + 1);
  const failed = page.entries.filter((x) => verdictOf(x) === "failed").length;
  const parts = [...byKind].map(([kind, n]) => `${n} ${kind}`);
  return `${page.entries.length} report${page.entries.length === 1 ? "" : "s"} (${parts.join(", ") || "none"}); ${failed} with a failed gate.`;
}

const KINDS: readonly (ViewKind | "unreadable")[] = ["eval", "pairs", "evidence", "sweep", "diff", "trend", "unreadable"];

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1400px;padding:0 1em;color:#222}
h1{font-size:22px;margin:.2em 0}.note{color:#555;font-size:12px}
.controls{display:flex;flex-wrap:wrap;gap:.5em;align-items:center;margin:.8em 0}.controls input{min-width:16em}
table{border-collapse:collapse;width:100%;table-layout:fixed}th,td{border-bottom:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f4f4f4;position:sticky;top:0}small{color:#555}
.pass{color:#1a7f37;font-weight:bold}.fail{color:#cf222e;font-weight:bold}.none{color:#777}
.kind{display:inline-block;white-space:nowrap;overflow-wrap:normal;padding:0 .4em;border-radius:3px;background:#eef;font-size:12px}.k-unreadable{background:#ffebe9}.k-diff{background:#fff3d6}.k-trend{background:#e6f4ea}
.m{display:inline-block;margin-right:.8em;white-space:nowrap}.mn{color:#555}.problem{color:#cf222e}
tbody.group{border-left:3px solid #4a78c2}tr.member td:first-child{padding-left:1.2em}tr.group-head td{background:#f7f9fc;color:#333;font-size:12px}
.name small{word-break:break-all}time{white-space:nowrap}
@media (max-width:760px){table,thead,tbody,tr,td{display:block}colgroup{display:none}thead{display:none}tr.entry{border:1px solid #ddd;border-radius:4px;margin:.5em 0;padding:.3em}
td{border:none;padding:2px 4px}td:empty{display:none}td::before{content:attr(data-label) ": ";color:#777;font-size:12px}tr.group-head td::before{content:none}
tr.member td:first-child{padding-left:4px}.m{white-space:normal}}`;

export function renderViewHtml(page: ViewPage): string {
  const body: string[] = [];
  body.push(`<h1>mari view</h1>`);
  body.push(`<p>${e(countsLine(page))} Under ${page.roots.map((r) => `<code>${e(r)}</code>`).join(", ")}.</p>`);
  if (page.truncatedAt !== null)
    body.push(`<p class="note">The search stopped at ${page.truncatedAt} report files; give fewer or narrower folders to see the rest.</p>`);
  const kinds = KINDS.filter((k) => page.entries.some((x) => x.kind === k));
  body.push(`<div class="controls">
<label>Filter <input id="view-filter" type="search" placeholder="model, slice, folder, task"></label>
<label>Kind <select id="view-kind"><option value="">all</option>${kinds.map((k) => `<option>${k}</option>`).join("")}</select></label>
<label>Gates <select id="view-verdict"><option value="">any</option><option value="failed">failed</option><option value="passed">passed</option><option value="none">no gates</option><option value="unreadable">unreadable</option></select></label>
<label>Sort <select id="view-sort"><option value="date-desc">newest first</option><option value="date-asc">oldest first</option><option value="name">folder</option><option value="model">model</option><option value="metric-desc">first metric, highest first</option></select></label>
<span id="view-shown" class="note"></span>
</div>`);
  body.push(
    `<table id="view-runs">\n<colgroup><col style="width:10.5em"><col style="width:7em"><col style="width:14%"><col style="width:7em"><col style="width:12%"><col style="width:10%"><col><col style="width:6em"><col style="width:6em"></colgroup>\n<thead><tr><th>date (UTC)</th><th>kind</th><th>report</th><th>task</th><th>model / dump</th><th>slice</th><th>headline metrics (95% CI)</th><th>gates</th><th>invalid</th></tr></thead>`,
  );
  for (const unit of units(page)) body.push(unitHtml(page, unit));
  body.push(`</table>`);
  if (page.entries.length === 0) body.push(`<p>No report.json, diff.json or trend.json was found.</p>`);
  body.push(`<p class="note">Dates are the files' modification times. Each row links to its page; the page reads offline.</p>`);
  return htmlPage({ title: `mari view: ${page.entries.length} reports`, style: STYLE, body: body.join("\n"), script: browserScript("view.js") });
}
