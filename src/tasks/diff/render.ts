// The files `mari diff` writes: diff.json (the whole result), diff.md (for a CI job summary: the
// deltas, gates and the changed cases) and diff.html (the same, with the case explorer of NEW).
import { basename, join } from "node:path";
import { writeFileAtomic } from "../../io/atomic-write.js";
import { explorerScript, EXPLORER_STYLE, explorerHtml } from "../../report/explorer.js";
import { describeMcNemar, describePairing, formatNumber, formatSigned } from "../../report/format.js";
import { escapeCell, escapeHtml } from "../../report/escape.js";
import { deltaChart, htmlPage, REPORT_STYLE, table } from "../../report/html.js";
import { redactSecrets, redactStrings, secretEnvValues } from "../../report/redact.js";
import type { GateResult } from "../../report/types.js";
import type { CaseChange } from "../../gates/changes.js";
import type { DiffOutcome, DiffResult } from "./run.js";

/** Changed cases listed in diff.md per status; diff.json and diff.html have all of them. */
export const MD_CASES = 100;

export function renderDiffJson(diff: DiffResult): string {
  return `${JSON.stringify(diff, null, 2)}\n`;
}

/** (metric, old, new, difference, 95% CI) as plain text, for every format to escape its own way. */
export function deltaRows(diff: DiffResult): string[][] {
  return Object.entries(diff.comparison.metrics).map(([name, d]) => [
    name,
    formatNumber(d.baseline),
    formatNumber(d.current),
    formatSigned(d.difference),
    `[${formatSigned(d.low)}, ${formatSigned(d.high)}]`,
  ]);
}

/** One sentence per fact of the comparison: pairing, McNemar, warnings. */
export function diffNotes(diff: DiffResult): string[] {
  const c = diff.comparison;
  const notes = [
    `OLD ${diff.old.path} (${diff.old.task}, ${diff.old.dataset}); NEW ${diff.new.path} (${diff.new.dataset}).`,
    `OLD is the baseline, NEW the current run: ${describePairing(c)}.`,
    `${describeMcNemar(c)}. Intervals: paired bootstrap over cases, B=${c.resamples}, seed=${c.seed}.`,
  ];
  if (!diff.same_slice) notes.push(`The reports were scored on different slices; ${diff.shared_cases} case ids are shared and compared.`);
  if (c.warning) notes.push(`Warning: ${c.warning}`);
  return notes;
}

export function mdTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

function mdCases(title: string, list: readonly CaseChange[]): string[] {
  if (list.length === 0) return [`## ${title}: none`, ""];
  const shown = list.slice(0, MD_CASES);
  const rows = shown.map((c) => [escapeCell(c.case_id), escapeCell(c.old), escapeCell(c.new)]);
  const more = list.length > shown.length ? [`${list.length - shown.length} more are in diff.json.`, ""] : [];
  return [`## ${title}: ${list.length}`, "", mdTable(["case", "OLD", "NEW"], rows), "", ...more];
}

/** "All N gates passed." / "**F of N gates failed.**" / "No gates." */
export function gatesVerdictMarkdown(gates: readonly GateResult[]): string {
  const failed = gates.filter((g) => !g.passed).length;
  return gates.length === 0 ? "No gates." : failed === 0 ? `All ${gates.length} gates passed.` : `**${failed} of ${gates.length} gates failed.**`;
}

/** A "## title" section with the gates' table (nothing without gates). */
export function gatesMarkdown(title: string, gates: readonly GateResult[]): string[] {
  if (gates.length === 0) return [];
  return [
    `## ${title}`,
    "",
    mdTable(
      ["result", "gate", "value", "detail"],
      gates.map((g) => [g.passed ? "pass" : "**FAIL**", escapeCell(g.name), formatNumber(g.value), escapeCell(g.detail ?? "")]),
    ),
    "",
  ];
}

export function gatesVerdictHtml(gates: readonly GateResult[]): string {
  const failed = gates.filter((g) => !g.passed).length;
  if (gates.length === 0) return "No gates.";
  return failed === 0 ? `<span class="pass">All ${gates.length} gates passed.</span>` : `<span class="fail">${failed} of ${gates.length} gates failed.</span>`;
}

export function gatesHtml(gates: readonly GateResult[]): string {
  return table(
    ["result", "gate", "value", "detail"],
    gates.map((g) => [
      g.passed ? `<span class="pass">pass</span>` : `<span class="fail">FAIL</span>`,
      escapeHtml(g.name),
      escapeHtml(formatNumber(g.value)),
      escapeHtml(g.detail ?? ""),
    ]),
  );
}

export function renderDiffMarkdown(diff: DiffResult): string {
  const out = [`# mari diff: ${diff.new.task}`, "", gatesVerdictMarkdown(diff.gates), "", ...diffNotes(diff).map((n) => `${escapeCell(n)}  `), ""];
  out.push(
    "## Metrics (NEW − OLD)",
    "",
    mdTable(
      ["metric", "OLD", "NEW", "difference", "95% CI"],
      deltaRows(diff).map((r) => r.map(escapeCell)),
    ),
    "",
  );
  out.push(...gatesMarkdown("Gates", diff.gates));
  out.push(...mdCases("Regressed", diff.regressed), ...mdCases("Fixed", diff.fixed));
  if (diff.mixed.length > 0) out.push(...mdCases("Regressed in some runs, fixed in others", diff.mixed));
  return out.join("\n");
}

function htmlCases(title: string, list: readonly CaseChange[]): string {
  const e = escapeHtml;
  if (list.length === 0) return `<h3>${e(title)}: none</h3>`;
  return `<h3>${e(title)}: ${list.length}</h3>\n${table(
    ["case", "OLD", "NEW"],
    list.map((c) => [`<code>${e(c.case_id)}</code>`, e(c.old), e(c.new)]),
  )}`;
}

export function renderDiffHtml(outcome: DiffOutcome): string {
  const { diff, explorer } = outcome;
  const e = escapeHtml;
  const gates = diff.gates.length === 0 ? "" : `<h2>Gates</h2>\n${gatesHtml(diff.gates)}`;
  const heading = `${basename(diff.old.predictions ?? "OLD")} → ${basename(diff.new.predictions ?? "NEW")}`;
  const body = `<h1>${e(heading)}</h1>
<p class="subject">mari diff: ${e(diff.new.task)}, ${e(basename(diff.new.dataset))}</p>
<p class="verdict">${gatesVerdictHtml(diff.gates)}</p>
${diffNotes(diff)
  .map((n) => `<p class="note">${e(n)}</p>`)
  .join("\n")}
${gates}
<h2>Metrics (NEW − OLD)</h2>
${deltaChart(Object.entries(diff.comparison.metrics).map(([name, d]) => ({ name, difference: d.difference, low: d.low, high: d.high })))}
${table(
  ["metric", "difference", "95% CI", "OLD", "NEW"],
  deltaRows(diff).map(([name, old, now, difference, ci]) => [name, difference, ci, old, now].map((cell) => e(cell ?? ""))),
)}
<h2>Changed cases</h2>
${htmlCases("Regressed", diff.regressed)}
${htmlCases("Fixed", diff.fixed)}
${diff.mixed.length ? htmlCases("Regressed in some runs, fixed in others", diff.mixed) : ""}
${explorer ? explorerHtml(explorer) : `<p class="note">${e(outcome.explorerNote ?? "No case explorer for this task.")}</p>`}`;
  return htmlPage({
    title: `${heading} · mari diff`,
    style: explorer ? `${REPORT_STYLE}\n${EXPLORER_STYLE}` : REPORT_STYLE,
    ...(explorer ? { script: explorerScript() } : {}),
    body,
  });
}

/** Writes diff.json, diff.md and diff.html atomically (scrubbed of secrets); returns their paths. */
export async function writeDiffFiles(outDir: string, outcome: DiffOutcome): Promise<string[]> {
  const secrets = secretEnvValues();
  // Redacted before rendering, as the report files are (src/report/write.ts).
  const safe = redactStrings(outcome, secrets);
  const files: Array<[string, string]> = [
    ["diff.json", renderDiffJson(safe.diff)],
    ["diff.md", renderDiffMarkdown(safe.diff)],
    ["diff.html", renderDiffHtml(safe)],
  ];
  const written: string[] = [];
  for (const [name, text] of files) {
    const path = join(outDir, name);
    await writeFileAtomic(path, redactSecrets(text, secrets));
    written.push(path);
  }
  return written;
}
