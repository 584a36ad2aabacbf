// The files a sweep writes (docs/pairs.md, "mari sweep PAIRS"): sweep.json (the source of truth), sweep.csv, report.md,
// report.html and pareto.svg (the plot of the front). None holds timings or the worker count, so every file is
// byte-identical for any --workers.
import { redactSecrets, secretEnvValues } from "../../report/redact.js";
import { join } from "node:path";
import type { ClassifierConfig } from "../../core/classifier/index.js";
import { costMatrix, PAIR_HEADLINE_METRICS, SWEEP_FIELDS, type Confusion, type UnitPrices } from "../../core/pairs/index.js";
import { writeFileAtomic } from "../../io/atomic-write.js";
import { escapeCell, escapeHtml, escapeXml } from "../../report/escape.js";
import { formatNumber } from "../../report/format.js";
import { htmlPage, REPORT_STYLE } from "../../report/html.js";
import type { DatasetInfo, GateResult, RejectionExample } from "../../report/types.js";

export const SWEEP_SCHEMA_VERSION = "1.0.0";

export interface SweepRow {
  index: number;
  config: ClassifierConfig;
  label: string;
  metrics: Record<string, number>;
  confusion: Confusion;
  gates: GateResult[];
  passed: boolean;
}

export interface SweepResult {
  dataset: DatasetInfo;
  system: { mari_version: string; git_commit: string | null; git_dirty: boolean | null; node: string; icu: string | null; platform: string };
  grid: string;
  unit_prices: UnitPrices;
  pairs: { records: number; labelled: number; unlabelled: number; rejected: number };
  rejections: Record<string, number>;
  rejection_examples: RejectionExample[];
  rows: SweepRow[];
  best: number | null;
  /** Row indexes, best recall first. */
  pareto_front: number[];
}

export const BEST_RULE =
  "lowest revision_cost among configs passing every gate; ties go to the config nearest the default: fewest fields differing from it, then the smallest sum over fields of |value - default| / default, then the earlier row";
export const PARETO_RULE =
  "configs that no other config beats on both update_recall (higher is better) and restatement_to_update_rate (lower is better), gates not considered; identical points are all kept";

export function renderSweepJson(result: SweepResult): string {
  const front = new Set(result.pareto_front);
  const json = {
    schema_version: SWEEP_SCHEMA_VERSION,
    task: "sweep",
    dataset: result.dataset,
    system: result.system,
    grid: result.grid,
    fields: SWEEP_FIELDS,
    unit_prices: result.unit_prices,
    cost_matrix: costMatrix(result.unit_prices),
    pairs: result.pairs,
    rejections: result.rejections,
    rejection_examples: result.rejection_examples,
    rows: result.rows.map((r) => ({
      index: r.index,
      label: r.label,
      config: r.config,
      metrics: r.metrics,
      confusion: r.confusion,
      gates: r.gates,
      passed: r.passed,
      best: r.index === result.best,
      pareto: front.has(r.index),
    })),
    best:
      result.best === null
        ? null
        : {
            index: result.best,
            label: result.rows[result.best]!.label,
            config: result.rows[result.best]!.config,
            revision_cost: result.rows[result.best]!.metrics.revision_cost,
          },
    best_rule: BEST_RULE,
    pareto_front: result.pareto_front.map((i) => ({
      index: i,
      label: result.rows[i]!.label,
      update_recall: result.rows[i]!.metrics.update_recall,
      restatement_to_update_rate: result.rows[i]!.metrics.restatement_to_update_rate,
    })),
    pareto_rule: PARETO_RULE,
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/**
 * One CSV cell (RFC 4180). Text that a spreadsheet would run as a formula (leading = + - @, tab or
 * CR) gets a leading apostrophe; numbers are written as numbers.
 */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return "";
  if (typeof value !== "string") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function renderSweepCsv(result: SweepResult): string {
  const front = new Set(result.pareto_front);
  const header = ["index", ...SWEEP_FIELDS, ...PAIR_HEADLINE_METRICS, "passed", "failed_gates", "best", "pareto"];
  const lines = [header.map(csvCell).join(",")];
  for (const r of result.rows) {
    const failed = r.gates
      .filter((g) => !g.passed)
      .map((g) => g.name)
      .join("; ");
    const cells = [
      r.index,
      ...SWEEP_FIELDS.map((f) => r.config[f]),
      ...PAIR_HEADLINE_METRICS.map((m) => r.metrics[m] ?? null),
      r.passed,
      failed,
      r.index === result.best,
      front.has(r.index),
    ];
    lines.push(cells.map(csvCell).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

function mdTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

const CONFIG_COLUMNS = [
  "#",
  ...SWEEP_FIELDS,
  "revision_cost",
  "update recall",
  "update precision",
  "rest→update (rate)",
  "dist→update (rate)",
  "macro-F1",
  "gates",
  "",
];

/** One config's row of the Markdown and HTML tables, as plain text (each format escapes it). */
function configRowCells(result: SweepResult, r: SweepRow): string[] {
  const m = r.metrics;
  const failed = r.gates.filter((g) => !g.passed).map((g) => g.name);
  return [
    String(r.index),
    ...SWEEP_FIELDS.map((f) => String(r.config[f])),
    formatNumber(m.revision_cost),
    formatNumber(m.update_recall),
    formatNumber(m.update_precision),
    `${formatNumber(m.restatement_to_update)} (${formatNumber(m.restatement_to_update_rate)})`,
    `${formatNumber(m.distinct_to_update)} (${formatNumber(m.distinct_to_update_rate)})`,
    formatNumber(m.macro_f1),
    r.passed ? "pass" : `fail: ${failed.join(", ")}`,
    [r.index === result.best ? "best" : "", result.pareto_front.includes(r.index) ? "pareto" : ""].filter(Boolean).join(", "),
  ];
}

export function renderSweepMarkdown(result: SweepResult): string {
  const passing = result.rows.filter((r) => r.passed).length;
  const out: string[] = [`# mari sweep: ${escapeCell(result.grid)} grid`, ""];
  out.push(
    `${result.rows.length} configs over ${result.pairs.labelled} labelled pairs of ${escapeCell(result.dataset.path)} ` +
      `(${result.pairs.unlabelled} unlabelled, ${result.pairs.rejected} rejected); ${passing} pass every gate.`,
    "",
  );
  if (result.best === null) out.push("**Best config: none** — no config passes every gate.", "");
  else {
    const b = result.rows[result.best]!;
    out.push(`**Best config:** row ${b.index}, \`${escapeCell(b.label)}\`, revision_cost ${formatNumber(b.metrics.revision_cost)}.`, "");
  }
  out.push(`Best = ${BEST_RULE}.`, "");
  out.push("## Configs", "");
  const rows = result.rows.map((r) => configRowCells(result, r).map(escapeCell));
  out.push(mdTable(CONFIG_COLUMNS.map(escapeCell), rows), "");
  out.push(
    "## Pareto front (update recall ↑, restatement→update ↓)",
    "",
    `Front = ${PARETO_RULE}.`,
    "",
    "The plot of the front is in report.html and pareto.svg beside this file (an image link would not resolve in a CI job summary).",
    "",
  );
  out.push(
    mdTable(
      ["#", "config", "update recall", "restatement→update rate"],
      result.pareto_front.map((i) => {
        const r = result.rows[i]!;
        return [String(i), `\`${escapeCell(r.label)}\``, formatNumber(r.metrics.update_recall), formatNumber(r.metrics.restatement_to_update_rate)];
      }),
    ),
    "",
  );
  const p = result.unit_prices;
  out.push(
    "## RevisionCost prices",
    "",
    `downrank_live ${p.downrank_live}, lost_corroboration ${p.lost_corroboration}, stale_kept ${p.stale_kept}, false_corroboration ${p.false_corroboration}.`,
    "",
  );
  const reasons = Object.entries(result.rejections).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (reasons.length > 0) {
    out.push(
      "## Rejected records",
      "",
      mdTable(
        ["reason", "count"],
        reasons.map(([r, n]) => [escapeCell(r), String(n)]),
      ),
      "",
    );
    for (const ex of result.rejection_examples.slice(0, 20)) out.push(`- ${escapeCell(ex.where)}: ${escapeCell(ex.reason)}: ${escapeCell(ex.message)}`);
    out.push("");
  }
  out.push(
    "## Provenance",
    "",
    `dataset sha256 ${result.dataset.sha256}, slice hash ${result.dataset.slice_hash}; mari ${escapeCell(result.system.mari_version)}, node ${escapeCell(result.system.node)}.`,
    "",
  );
  return out.join("\n");
}

/** The Pareto plot: every config a dot, the front joined as a staircase, the best config ringed. */
export function renderParetoSvg(result: SweepResult): string {
  const W = 520;
  const H = 380;
  const left = 60;
  const right = 20;
  const top = 30;
  const bottom = 50;
  const rates = result.rows.map((r) => r.metrics.restatement_to_update_rate!);
  const xMax = Math.max(0.05, ...rates) * 1.1;
  const x = (v: number) => (left + (v / xMax) * (W - left - right)).toFixed(1);
  const y = (v: number) => (H - bottom - v * (H - top - bottom)).toFixed(1);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<title>Pareto front: update recall vs restatement→update rate</title>`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<line x1="${left}" y1="${H - bottom}" x2="${W - right}" y2="${H - bottom}" stroke="black"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${H - bottom}" stroke="black"/>`,
  ];
  for (let i = 0; i <= 5; i++) {
    const v = i / 5;
    parts.push(`<text x="${left - 6}" y="${y(v)}" text-anchor="end" dominant-baseline="middle">${v.toFixed(1)}</text>`);
    const xv = (xMax * i) / 5;
    parts.push(`<text x="${x(xv)}" y="${H - bottom + 16}" text-anchor="middle">${xv.toFixed(3)}</text>`);
  }
  parts.push(`<text x="${(left + W - right) / 2}" y="${H - 12}" text-anchor="middle">restatement→update rate (lower is better)</text>`);
  parts.push(
    `<text x="16" y="${(top + H - bottom) / 2}" text-anchor="middle" transform="rotate(-90 16 ${(top + H - bottom) / 2})">update recall (higher is better)</text>`,
  );
  // 1/36: the default restatement→update gate.
  parts.push(`<line x1="${x(1 / 36)}" y1="${top}" x2="${x(1 / 36)}" y2="${H - bottom}" stroke="#c33" stroke-dasharray="4 3"/>`);
  const frontPoints = [...result.pareto_front].sort(
    (a, b) => result.rows[a]!.metrics.restatement_to_update_rate! - result.rows[b]!.metrics.restatement_to_update_rate! || a - b,
  );
  if (frontPoints.length > 1) {
    let d = "";
    frontPoints.forEach((i, k) => {
      const m = result.rows[i]!.metrics;
      d += k === 0 ? `M${x(m.restatement_to_update_rate!)} ${y(m.update_recall!)}` : ` H${x(m.restatement_to_update_rate!)} V${y(m.update_recall!)}`;
    });
    parts.push(`<path d="${d}" fill="none" stroke="#36c" stroke-width="1.5"/>`);
  }
  const front = new Set(result.pareto_front);
  // Front configs at the same point share one label ("#9–#14"); labels that would still touch
  // are moved down until they do not.
  const labelAt = new Map<string, { cx: string; cy: string; indices: number[] }>();
  for (const r of result.rows) {
    const cx = x(r.metrics.restatement_to_update_rate!);
    const cy = y(r.metrics.update_recall!);
    const fill = front.has(r.index) ? "#36c" : "#999";
    parts.push(`<circle cx="${cx}" cy="${cy}" r="4" fill="${fill}"><title>${escapeXml(`#${r.index} ${r.label}`)}</title></circle>`);
    if (front.has(r.index)) {
      const key = `${cx},${cy}`;
      const at = labelAt.get(key) ?? { cx, cy, indices: [] };
      at.indices.push(r.index);
      labelAt.set(key, at);
    }
    if (r.index === result.best) parts.push(`<circle cx="${cx}" cy="${cy}" r="8" fill="none" stroke="#090" stroke-width="2"/>`);
  }
  const placed: Array<{ x: number; y: number; w: number }> = [];
  for (const { cx, cy, indices } of labelAt.values()) {
    const text = indices.length === 1 ? `#${indices[0]}` : `#${indices[0]}–#${indices[indices.length - 1]} (${indices.length})`;
    const lx = Number(cx) + 6;
    const w = text.length * 6.5;
    let ly = Number(cy) - 6;
    while (placed.some((p) => lx < p.x + p.w && p.x < lx + w && Math.abs(ly - p.y) < 12)) ly += 12;
    placed.push({ x: lx, y: ly, w });
    parts.push(`<text x="${lx.toFixed(1)}" y="${ly.toFixed(1)}">${escapeXml(text)}</text>`);
  }
  parts.push(`<text x="${left}" y="18">blue: Pareto front; ring: best config; dashed: default gate 1/36</text>`, "</svg>");
  return `${parts.join("\n")}\n`;
}

/** report.html: one self-contained page (no network) with the Pareto plot inline and the config table. */
export function renderSweepHtml(result: SweepResult): string {
  const e = escapeHtml;
  const rows = result.rows.map((r) => {
    const cells = configRowCells(result, r).map((c) => `<td>${e(c)}</td>`);
    return `<tr${r.index === result.best ? ' class="best"' : ""}>${cells.join("")}</tr>`;
  });
  const best = result.best === null ? "none: no config passes every gate" : `row ${result.best}, ${result.rows[result.best]!.label}`;
  return htmlPage({
    title: `mari sweep: ${result.grid}`,
    style: `${REPORT_STYLE}\ntr.best{background:#e6f4e6}`,
    body: `<h1>mari sweep: ${e(result.grid)} grid</h1>
<p>${result.rows.length} configs over ${result.pairs.labelled} labelled pairs of ${e(result.dataset.path)}. Best config: ${e(best)}.</p>
<p>${e(`Best = ${BEST_RULE}.`)}</p>
<h2>Pareto front (update recall ↑, restatement→update ↓)</h2>
<div class="plot">${renderParetoSvg(result)}</div><p>${e(`Front = ${PARETO_RULE}.`)}</p>
<h2>Configs</h2>
<div class="scroll"><table>
<thead><tr>${CONFIG_COLUMNS.map((h) => `<th>${e(h)}</th>`).join("")}</tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table></div>`,
  });
}

/** Writes the sweep's files atomically; returns their paths. */
export async function writeSweepOutputs(outDir: string, result: SweepResult): Promise<string[]> {
  const files: [string, string][] = [
    ["sweep.json", renderSweepJson(result)],
    ["sweep.csv", renderSweepCsv(result)],
    ["report.md", renderSweepMarkdown(result)],
    ["report.html", renderSweepHtml(result)],
    ["pareto.svg", renderParetoSvg(result)],
  ];
  const written: string[] = [];
  // The same scrubbing as the report files (src/report/redact.ts): a secret that reached an input id never reaches a sweep file.
  const secrets = secretEnvValues();
  for (const [name, text] of files) {
    const path = join(outDir, name);
    await writeFileAtomic(path, redactSecrets(text, secrets));
    written.push(path);
  }
  return written;
}
