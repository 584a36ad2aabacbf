// The case explorer of report.html and diff.html: every case (or a bounded, documented selection)
// with its text and what each run said, filterable by outcome, facet and text. The cases travel as
// JSON in a non-executable <script type="application/json"> block (every `<` escaped, so no text
// can close it); the page's one inline script renders them with textContent and createElement
// only, never as HTML, and the page's Content-Security-Policy allows that script by its hash.
import { readFileSync } from "node:fs";
import { createPrng } from "../core/metrics/prng.js";
import { UNITS_PER_CASE } from "../core/limits.js";
import { RUN_OPTIONS } from "../core/options/run.js";
import { embedJsonPieces } from "./escape.js";

/** What one run said about a document case. */
export interface ExplorerRun {
  run: string;
  /** null when the prediction was format-invalid (it has no judgment). */
  judgment: boolean | null;
  /** tp, fp, fn, tn or invalid. */
  outcome: string;
  reason: string | null;
  evidence: number[];
  reward: number | null;
  coverage: number | null;
  localization_hit: boolean | null;
  /** The reasoning, from the dump (absent when the dump could not be read). */
  reasoning?: string;
  /** The model's raw text: a `<think>…<answer>` completion, or an answer the judge could not read. */
  raw?: string;
  /** The dump line this run was read from. */
  line?: number;
  /** Why the run is format-invalid, in the scorer's words (with `reason`). */
  message?: string;
  /** A format-invalid run's fields as the dump gave them; `bad` marks the one the reason is about. */
  given?: GivenField[];
}

export interface GivenField {
  field: string;
  /** The value as written (JSON, long text truncated). */
  value: string;
  bad: boolean;
}

export interface DocumentCaseView {
  label: boolean | null;
  sentences: string[];
  gold: number[];
  runs: ExplorerRun[];
  /** Set (to the sentence count) when the document's text was left out to bound the page. */
  text_left_out?: number;
  /** diff.html, a changed case: OLD's runs, shown beside NEW's (and OLD's run count when it carries fewer). */
  old_runs?: ExplorerRun[];
  old_runs_total?: number;
}

export interface ExplorerCase {
  id: string;
  /** Filter tags ("fn", "invalid:bad_judgment", "flipped", "regressed", …). */
  tags: string[];
  /** Facet name → value (scope, doc_type, contra_type; kind, domain; …). */
  facets: Record<string, string>;
  /** What "sort by reward" sorts on (mean reward over runs; negative cost for pairs). */
  score: number | null;
  /** Documents: the document and its runs; pairs and evidence: the case's cases.jsonl line. */
  doc?: DocumentCaseView;
  record?: Record<string, unknown>;
  /** Against a baseline or an older report: the outcome before and after. */
  change?: { status: "regressed" | "fixed" | "mixed"; old: string; new: string };
  /** Documents: the case's runs in all, when the page carries fewer of them (failing runs first). */
  runs_total?: number;
}

export interface ExplorerData {
  kind: "documents" | "pairs" | "evidence";
  /** Cases in the report, and how many the page carries. */
  total: number;
  shown: number;
  /** One sentence on what was selected and what was left out. */
  selection: string;
  /** Where every case is (e.g. "cases.jsonl beside this page"). */
  rest: string;
  /** How many runs the report has (their keys are in report.json). */
  runs: number;
  /** The prediction dump the runs' `line` numbers point into, as the report names it. */
  dump?: string;
  /** diff.html: OLD's dump, for OLD's runs. */
  old_dump?: string;
  /** Facet names in display order. */
  facets: string[];
  /** Filter and facet counts over all `total` cases. */
  counts: ExplorerCounts;
  cases: ExplorerCase[];
}

/**
 * The page's bounds. At most `caseCap` cases (`--explorer-cases`, default EXPLORER_CASE_CAP), at
 * most UNITS_PER_CASE × caseCap (case, run) entries over all of them, and at most
 * EXPLORER_TEXT_CHARS characters of model text (each text at most EXPLORER_TEXT_CHARS_EACH):
 * so a page stays a few megabytes whatever the numbers of cases and runs.
 */
export const EXPLORER_CASE_CAP: number = RUN_OPTIONS.explorerCases.default;
export const EXPLORER_UNIT_CAP = UNITS_PER_CASE * EXPLORER_CASE_CAP;
export const EXPLORER_TEXT_CHARS = 8_000_000;
export const EXPLORER_TEXT_CHARS_EACH = 20_000;
/** Characters of document text (the slice's sentences) the page carries in all. */
export const EXPLORER_DOCUMENT_CHARS = 16_000_000;

/** The page's case cap for a report with `runs` runs: `caseCap`, lowered so cases × runs ≤ its unit cap (at least 10 cases). */
export function explorerCap(runs: number, caseCap = EXPLORER_CASE_CAP): number {
  return Math.max(Math.min(10, caseCap), Math.min(caseCap, Math.floor((UNITS_PER_CASE * caseCap) / Math.max(1, runs))));
}

/** Runs a case carries on the page when `cases` cases are shown: the unit cap shared out (at least 1). */
export function explorerRunsPerCase(cases: number, caseCap = EXPLORER_CASE_CAP): number {
  return Math.max(1, Math.floor((UNITS_PER_CASE * caseCap) / Math.max(1, cases)));
}

/** Filter and facet counts over every case of the report (the page may carry fewer cases). */
export interface ExplorerCounts {
  tags: Record<string, number>;
  facets: Record<string, Record<string, number>>;
}

export function emptyCounts(): ExplorerCounts {
  return { tags: Object.create(null), facets: Object.create(null) };
}

/** Counts one case: its tags and its facet values. */
export function countCase(counts: ExplorerCounts, tags: Iterable<string>, facets: Record<string, string>): void {
  countTags(counts, tags, 1);
  countFacets(counts, facets, 1);
}

/** Counts the tags of `times` cases that have these tags. */
export function countTags(counts: ExplorerCounts, tags: Iterable<string>, times: number): void {
  for (const tag of tags) counts.tags[tag] = (counts.tags[tag] ?? 0) + times;
}

/** Counts the facet values of `times` cases that have these facets. */
export function countFacets(counts: ExplorerCounts, facets: Record<string, string>, times: number): void {
  for (const name of Object.keys(facets)) {
    const values = (counts.facets[name] ??= Object.create(null) as Record<string, number>);
    const value = facets[name]!;
    values[value] = (values[value] ?? 0) + times;
  }
}

/** A model text as the page carries it: at most EXPLORER_TEXT_CHARS_EACH characters, saying how many were cut. */
export function pageText(text: string): string {
  if (text.length <= EXPLORER_TEXT_CHARS_EACH) return text;
  return `${text.slice(0, EXPLORER_TEXT_CHARS_EACH)}… (${text.length - EXPLORER_TEXT_CHARS_EACH} more characters in the dump)`;
}

/**
 * Which cases the page carries: all of them when they fit; else every failure (in input order) up
 * to `cap`, then a seeded sample (without replacement, in input order) of the others to fill it.
 * `failed[i]` is 1 for a failing case. Returns the chosen indices in input order and the counts.
 */
export function selectCases(failed: Uint8Array, cap: number, seed: number): { chosen: number[]; failures: number; failuresShown: number; sampled: number } {
  const n = failed.length;
  let failures = 0;
  for (let i = 0; i < n; i++) failures += failed[i]!;
  if (n <= cap) return { chosen: Array.from({ length: n }, (_, i) => i), failures, failuresShown: failures, sampled: n - failures };
  const take = new Uint8Array(n);
  let room = cap;
  for (let i = 0; i < n && room > 0; i++) {
    if (failed[i]) {
      take[i] = 1;
      room--;
    }
  }
  const failuresShown = cap - room;
  const passing: number[] = [];
  for (let i = 0; i < n; i++) if (!failed[i]) passing.push(i);
  // Partial Fisher–Yates: the first `room` slots become a uniform sample of the passing cases.
  const prng = createPrng(seed, 0x5e1ec7);
  const k = Math.min(room, passing.length);
  for (let j = 0; j < k; j++) {
    const r = j + prng.nextBelow(passing.length - j);
    const t = passing[j]!;
    passing[j] = passing[r]!;
    passing[r] = t;
    take[passing[j]!] = 1;
  }
  const chosen: number[] = [];
  for (let i = 0; i < n; i++) if (take[i]) chosen.push(i);
  return { chosen, failures, failuresShown, sampled: k };
}

/** The page's sentence on the selection (shown above the case list). */
export function describeSelection(
  total: number,
  s: { chosen: number[]; failures: number; failuresShown: number; sampled: number },
  cap: number,
  seed: number,
): string {
  if (s.chosen.length === total) return `All ${total} cases are shown.`;
  return (
    `${s.chosen.length} of ${total} cases are shown (cap ${cap}): ${s.failuresShown} of ${s.failures} failing cases` +
    (s.failuresShown < s.failures ? " (the first ones, in input order)" : "") +
    `, and ${s.sampled} of ${total - s.failures} passing cases sampled with seed ${seed}.`
  );
}

/** The explorer's HTML (controls filled by the script) and the data block. */
export function explorerHtml(data: ExplorerData): string {
  return explorerHtmlPieces(data).join("");
}

/** explorerHtml in pieces that join to it, a few cases' data a piece (embedJsonPieces). */
export function explorerHtmlPieces(data: ExplorerData): string[] {
  const pieces = embedJsonPieces(data, "cases");
  pieces[0] = `<section id="cases">
<h2>Cases</h2>
<p class="note" id="explorer-selection"></p>
<div id="mari-explorer"><p class="note">The case explorer needs JavaScript; every case is in ${data.rest.replace(/[<>&"']/g, "")}.</p></div>
<script type="application/json" id="mari-explorer-data">${pieces[0]}`;
  pieces[pieces.length - 1] = `${pieces[pieces.length - 1]}</script>
</section>`;
  return pieces;
}

export const EXPLORER_STYLE = `#mari-explorer .controls{display:flex;flex-wrap:wrap;gap:.4em;align-items:center;margin:.5em 0}
#mari-explorer button{font:inherit;font-size:12px;padding:2px 8px;border:1px solid #bbb;background:#f6f8fa;border-radius:3px;cursor:pointer}
#mari-explorer button[aria-pressed=true]{background:#4a78c2;color:#fff;border-color:#4a78c2}
#mari-explorer select,#mari-explorer input{font:inherit;font-size:12px}
details.case{border:1px solid #ddd;border-radius:3px;margin:.3em 0;padding:.2em .5em}details.case>summary{cursor:pointer}
.tag{display:inline-block;font-size:11px;padding:0 5px;margin-left:4px;border-radius:8px;background:#eee}
.tag.fn,.tag.fp,.tag.invalid,.tag.regressed,.tag.wrong,.tag.rejected{background:#ffd8d3}.tag.tp,.tag.tn,.tag.fixed,.tag.correct,.tag.accepted{background:#d3f5d8}
ol.sentences{list-style:none;padding-left:.5em}ol.sentences li{padding:1px 4px;margin:1px 0}ol.sentences li:target{outline:2px solid #4a78c2}
li.gold{background:#fff3b0}li.cited{background:#ffe0c2}li.both{background:#bdf0c4}.marks{color:#555;font-size:11px;margin-left:.5em}
.legend span{padding:0 6px;margin-right:6px}.legend .gold{background:#fff3b0}.legend .cited{background:#ffe0c2}.legend .both{background:#bdf0c4}
.reasoning{white-space:pre-wrap;background:#f6f8fa;padding:4px 6px;border-radius:3px}pre.raw{white-space:pre-wrap;font-size:12px}
mark{background:#ffe58a}.pairtext{white-space:pre-wrap}
.run-failure{border-left:3px solid #e5533d;padding:2px 8px;margin:.5em 0}.run-failure h4{margin:.2em 0}ul.given{margin:.2em 0}ul.given mark,ul.given code{font-family:monospace;overflow-wrap:anywhere}
.sides{display:flex;flex-wrap:wrap;gap:1em}.sides>.side{flex:1 1 320px;min-width:0}`;

const scripts = new Map<string, string>();

/**
 * A page's inline script (allowed by its hash): a file of src/report/browser/ of its own, so that
 * the linter and the type checker read it. The build copies it beside this module; its leading `//`
 * comment lines (what the file is) are not shipped.
 */
export function browserScript(file: string): string {
  let script = scripts.get(file);
  if (script === undefined) {
    const source = readFileSync(new URL(`./browser/${file}`, import.meta.url), "utf8");
    const lines = source.split("\n");
    let first = 0;
    while (first < lines.length && lines[first]?.startsWith("//")) first++;
    script = lines.slice(first).join("\n").trimEnd();
    scripts.set(file, script);
  }
  return script;
}

/** The case explorer's script: src/report/browser/explorer.js. */
export function explorerScript(): string {
  return browserScript("explorer.js");
}
