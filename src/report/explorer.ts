// The case explorer of report.html and diff.html: every case (or a bounded, documented selection)
// with its text and what each run said, filterable by outcome, facet and text. The cases travel as
// JSON in a non-executable <script type="application/json"> block (every `<` escaped, so no text
// can close it); the page's one inline script renders them with textContent and createElement
// only, never as HTML, and the page's Content-Security-Policy allows that script by its hash.
import { createPrng } from "../core/metrics/prng.js";

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
export const EXPLORER_CASE_CAP = 2000;
export const MAX_EXPLORER_CASES = 100_000;
export const UNITS_PER_CASE = 10;
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
  for (const tag of tags) counts.tags[tag] = (counts.tags[tag] ?? 0) + 1;
  for (const [name, value] of Object.entries(facets)) {
    const values = (counts.facets[name] ??= Object.create(null) as Record<string, number>);
    values[value] = (values[value] ?? 0) + 1;
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

/** JSON for a <script type="application/json"> block: no `<` survives, so nothing can end the block. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The explorer's HTML (controls filled by the script) and the data block. */
export function explorerHtml(data: ExplorerData): string {
  return `<section id="cases">
<h2>Cases</h2>
<p class="note" id="explorer-selection"></p>
<div id="mari-explorer"><p class="note">The case explorer needs JavaScript; every case is in ${data.rest.replace(/[<>&"']/g, "")}.</p></div>
<script type="application/json" id="mari-explorer-data">${embedJson(data)}</script>
</section>`;
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

/**
 * The page's inline script (allowed by its hash): builds the controls and the case list from the
 * JSON block. Text is only ever put into the page with textContent; the only links it makes point
 * at sentence anchors it numbered itself.
 */
export const EXPLORER_SCRIPT = String.raw`(function () {
"use strict";
var PAGE = 50;
var LABELS = { tp: "true positives", fp: "false positives", fn: "false negatives", tn: "true negatives", loc_miss: "localization misses", invalid: "format-invalid", flipped: "flipped across runs", regressed: "regressed", fixed: "fixed", mixed: "regressed and fixed", failure: "any failure", correct: "correct", wrong: "wrong", accepted: "accepted", rejected: "rejected" };
var ORDER = ["failure", "tp", "fp", "fn", "tn", "loc_miss", "invalid", "flipped", "regressed", "fixed", "mixed", "correct", "wrong", "accepted", "rejected"];
var source = document.getElementById("mari-explorer-data");
var root = document.getElementById("mari-explorer");
if (!source || !root) return;
var data = JSON.parse(source.textContent);
var cases = data.cases;
var state = { tag: null, facets: {}, q: "", sort: "input", limit: PAGE };
function el(tag, cls, text) {
  var n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined && text !== null) n.textContent = String(text);
  return n;
}
// Appends the children and returns the last one.
function add(parent) { var last = null; for (var i = 1; i < arguments.length; i++) if (arguments[i]) last = parent.appendChild(arguments[i]); return last; }
function label(tag) {
  if (LABELS[tag]) return LABELS[tag];
  var i = tag.indexOf(":");
  return i < 0 ? tag : (LABELS[tag.slice(0, i)] || tag.slice(0, i)) + ": " + tag.slice(i + 1);
}
function fmt(v) { return v === null || v === undefined ? "n/a" : typeof v === "number" && !Number.isInteger(v) ? v.toFixed(4) : String(v); }
// Counts over every case of the report; when the page carries fewer, each also says how many are here.
var counts = {};
cases.forEach(function (c) { c.tags.forEach(function (t) { counts[t] = (counts[t] || 0) + 1; }); });
var partial = data.shown < data.total;
function own(o, k) { return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : 0; }
function countText(all, here) { return partial ? all + "; " + here + " on this page" : String(here); }
var tags = Object.keys(data.counts.tags).sort(function (a, b) {
  var ia = ORDER.indexOf(a.split(":")[0]), ib = ORDER.indexOf(b.split(":")[0]);
  ia = ia < 0 ? 99 : ia; ib = ib < 0 ? 99 : ib;
  return ia - ib || (a < b ? -1 : a > b ? 1 : 0);
});
document.getElementById("explorer-selection").textContent = data.selection + " Every case is in " + data.rest + ".";
root.textContent = "";
var controls = add(root, el("div", "controls"));
var buttons = [];
function tagButton(tag, text) {
  var b = el("button", null, text);
  b.type = "button";
  b.setAttribute("data-filter", tag === null ? "all" : tag);
  b.setAttribute("aria-pressed", String(tag === state.tag));
  b.addEventListener("click", function () { state.tag = tag; state.limit = PAGE; update(); });
  buttons.push(b);
  controls.appendChild(b);
}
tagButton(null, "all (" + countText(data.total, cases.length) + ")");
tags.forEach(function (t) { tagButton(t, label(t) + " (" + countText(own(data.counts.tags, t), own(counts, t)) + ")"); });
var row2 = add(root, el("div", "controls"));
data.facets.forEach(function (name) {
  var values = {}, all = own(data.counts.facets, name) || {};
  cases.forEach(function (c) { var v = c.facets[name]; if (v !== undefined) values[v] = (values[v] || 0) + 1; });
  var keys = Object.keys(all).sort();
  if (keys.length === 0) return;
  var s = el("select");
  s.setAttribute("data-facet", name);
  add(s, el("option", null, name + ": all")).value = "";
  keys.forEach(function (k) { add(s, el("option", null, name + ": " + k + " (" + countText(own(all, k), own(values, k)) + ")")).value = k; });
  s.addEventListener("change", function () { state.facets[name] = s.value; state.limit = PAGE; update(); });
  row2.appendChild(s);
});
var search = el("input");
search.type = "search";
search.placeholder = "search ids and text";
search.setAttribute("data-search", "");
search.addEventListener("input", function () { state.q = search.value.toLowerCase(); state.limit = PAGE; update(); });
row2.appendChild(search);
var sort = el("select");
sort.setAttribute("data-sort", "");
[["input", "input order"], ["score-asc", "reward: lowest first"], ["score-desc", "reward: highest first"]].forEach(function (o) { add(sort, el("option", null, o[1])).value = o[0]; });
sort.addEventListener("change", function () { state.sort = sort.value; update(); });
row2.appendChild(sort);
var count = add(root, el("p", "note"));
count.id = "explorer-count";
var list = add(root, el("div"));
list.id = "explorer-list";
var more = add(root, el("button", null, "show more"));
more.type = "button";
more.addEventListener("click", function () { state.limit += PAGE; update(); });
function haystack(c) {
  if (c._text === undefined) {
    var parts = [c.id];
    if (c.doc) { parts = parts.concat(c.doc.sentences); c.doc.runs.forEach(function (r) { if (r.reasoning) parts.push(r.reasoning); if (r.raw) parts.push(r.raw); if (r.message) parts.push(r.message); }); }
    if (c.record) parts.push(JSON.stringify(c.record));
    c._text = parts.join("\n").toLowerCase();
  }
  return c._text;
}
function matches(c) {
  if (state.tag !== null && c.tags.indexOf(state.tag) < 0) return false;
  for (var f in state.facets) if (state.facets[f] && c.facets[f] !== state.facets[f]) return false;
  return state.q === "" || haystack(c).indexOf(state.q) >= 0;
}
function linked(text, anchor) {
  var box = el("div", "reasoning");
  var re = /\[(\d+)\]/g, last = 0, m;
  while ((m = re.exec(text)) !== null) {
    box.appendChild(document.createTextNode(text.slice(last, m.index)));
    var a = el("a", null, m[0]);
    a.setAttribute("href", "#" + anchor + "-s" + Number(m[1]));
    box.appendChild(a);
    last = m.index + m[0].length;
  }
  box.appendChild(document.createTextNode(text.slice(last)));
  return box;
}
function table(header, rows) {
  var t = el("table"), h = add(t, el("thead")), hr = add(h, el("tr"));
  header.forEach(function (x) { add(hr, el("th", null, x)); });
  var b = add(t, el("tbody"));
  rows.forEach(function (r) { var tr = add(b, el("tr")); r.forEach(function (x) { add(tr, el("td", null, x)); }); });
  var box = el("div", "scroll");
  box.appendChild(t);
  return box;
}
function runsTable(runs) {
  return table(["run", "dump line", "judgment", "outcome", "evidence", "reward", "coverage", "localization"], runs.map(function (r) {
    return [r.run, fmt(r.line), r.judgment === null ? "n/a" : String(r.judgment), r.outcome + (r.reason ? " (" + r.reason + ")" : ""), r.evidence.map(function (i) { return "[" + i + "]"; }).join(" "), fmt(r.reward), fmt(r.coverage), r.localization_hit === null ? "n/a" : r.localization_hit ? "hit" : "miss"];
  }));
}
// One side's runs: how many the page carries, the table, each failed run explained, then (below the
// sentences on a one-sided page) the reasoning and raw completions.
function runsPart(runs, total, dump, prefix, box) {
  if (total !== undefined) add(box, el("p", "note", runs.length + " of this case's " + total + " runs are on this page (its failing runs first); every run is in " + (prefix === "OLD " ? "OLD's cases.jsonl" : data.rest) + "."));
  add(box, runsTable(runs));
  runs.forEach(function (r) { if (r.reason) failureBody(r, box, dump, prefix); });
}
function runTexts(runs, box, anchor, prefix) {
  runs.forEach(function (r) {
    if (r.reasoning !== undefined) { add(box, el("h4", null, prefix + "run " + r.run + " reasoning")); add(box, linked(r.reasoning, anchor)); }
    if (r.raw !== undefined && !r.reason) { var raw = add(box, el("details")); add(raw, el("summary", null, prefix + "run " + r.run + " raw completion"), el("pre", "raw", r.raw)); }
  });
}
function documentBody(c, body, n) {
  var d = c.doc, anchor = "c" + n;
  add(body, el("p", null, "gold: " + (d.label === null ? "n/a" : d.label ? "contradiction" : "no contradiction") + (d.gold.length ? ", gold sentences " + d.gold.map(function (i) { return "[" + i + "]"; }).join(" ") : "")));
  if (d.old_runs) {
    // diff.html, a changed case: OLD and NEW side by side (one above the other on a narrow screen).
    var sides = add(body, el("div", "sides"));
    [["OLD", d.old_runs, d.old_runs_total, data.old_dump, c.change.old], ["NEW", d.runs, c.runs_total, data.dump, c.change.new]].forEach(function (s) {
      var col = add(sides, el("div", "side"));
      col.setAttribute("data-side", s[0].toLowerCase());
      add(col, el("h4", null, s[0] + ": " + s[4]));
      runsPart(s[1], s[2], s[3], s[0] + " ", col);
      runTexts(s[1], col, anchor, s[0] + " ");
    });
  } else {
    runsPart(d.runs, c.runs_total, data.dump, "", body);
  }
  var legend = add(body, el("p", "legend note"));
  add(legend, el("span", "gold", "gold"), el("span", "cited", "cited, not gold"), el("span", "both", "gold and cited"));
  var gold = {};
  d.gold.forEach(function (i) { gold[i] = true; });
  if (d.text_left_out !== undefined) add(body, el("p", "note", "This document's " + d.text_left_out + " sentences are left out to keep the page small; they are in the slice."));
  var ol = add(body, el("ol", "sentences"));
  d.sentences.forEach(function (s, k) {
    var i = k + 1, by = [];
    d.runs.forEach(function (r) { if (r.evidence.indexOf(i) >= 0) by.push(r.run); });
    var li = el("li", gold[i] ? (by.length ? "both" : "gold") : by.length ? "cited" : "");
    li.id = anchor + "-s" + i;
    li.value = i;
    add(li, el("span", null, "[" + i + "] " + s));
    if (by.length) add(li, el("span", "marks", (d.old_runs ? "NEW: " : "") + (d.runs.length > 1 ? "cited by run " + by.join(", ") : "cited")));
    ol.appendChild(li);
  });
  if (!d.old_runs) runTexts(d.runs, body, anchor, "");
}
// A format-invalid run: the reason and the scorer's message, where in the dump, and what the model said.
function failureBody(r, body, dump, prefix) {
  var box = add(body, el("div", "run-failure"));
  box.setAttribute("data-failed-run", r.run);
  add(box, el("h4", null, prefix + "run " + r.run + " is format-invalid" + (r.line !== undefined && dump ? " (" + dump + ":" + r.line + ")" : "")));
  var why = add(box, el("p"));
  add(why, el("code", null, r.reason), r.message ? document.createTextNode(": " + r.message) : null);
  if (r.given) {
    add(box, el("p", "note", "the prediction as the dump gave it (the field the reason is about marked):"));
    var ul = add(box, el("ul", "given"));
    r.given.forEach(function (g) { var li = add(ul, el("li")); add(li, el("code", null, g.field + ": "), el(g.bad ? "mark" : "code", null, g.value)); });
  }
  if (r.raw !== undefined) add(box, el("p", "note", "the model's raw text:"), el("pre", "raw", r.raw));
}
function words(text) { return String(text || "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean); }
function marked(text, other) {
  var known = {};
  words(other).forEach(function (w) { known[w] = true; });
  var p = el("div", "pairtext");
  String(text || "").split(/([\p{L}\p{N}]+)/u).forEach(function (part, k) {
    if (k % 2 === 1 && !known[part.toLowerCase()]) p.appendChild(el("mark", null, part));
    else p.appendChild(document.createTextNode(part));
  });
  return p;
}
function pairBody(c, body) {
  var r = c.record;
  add(body, el("p", null, "gold " + fmt(r.gold) + ", verdict " + fmt(r["class"]) + ", cost " + fmt(r.cost) + ". Classifier: " + fmt(r.reason)));
  add(body, el("h4", null, "new (words not in old marked)"), marked(r["new"], r.old), el("h4", null, "old (words not in new marked)"), marked(r.old, r["new"]));
}
function evidenceBody(c, body) {
  var r = c.record;
  add(body, el("p", null, r.accepted ? "accepted" : "rejected" + (r.error ? ": " + r.error.code + " (" + r.error.message + ")" : "")));
  if (r.freshness) add(body, el("p", null, "freshness: " + r.freshness));
  (r.facts || []).forEach(function (f) {
    add(body, el("h4", null, "claim: " + f.claim + " (" + fmt(f.state) + ", grounding " + fmt(f.grounding) + ")"));
    (f.evidence || []).forEach(function (ev) {
      var p = add(body, el("p"));
      add(p, el("span", "note", ev.document_id + "@" + ev.revision + " " + (ev.section_id || "") + " [" + ev.start + ", " + ev.end + "): "), el("mark", null, ev.quote));
      if (Array.isArray(ev.context)) {
        var section = add(body, el("div", "reasoning"));
        section.setAttribute("data-section", ev.section_id || "");
        add(section, document.createTextNode(ev.context[0]), el("mark", null, ev.context[1]), document.createTextNode(ev.context[2]));
      }
    });
  });
  if (Array.isArray(r.issues)) {
    add(body, el("p", null, fmt(r.valid) + " of " + fmt(r.items) + " citations hold"));
    if (r.issues.length) add(body, table(["citation", "issue", "detail"], r.issues.map(function (i) { return [fmt(i.index), fmt(i.kind), fmt(i.detail)]; })));
  }
  if (Array.isArray(r.given)) {
    var given = add(body, el("div", "given-input"));
    if (Array.isArray(r.issues)) {
      add(given, el("h4", null, "citations as given"));
      var ul = add(given, el("ul", "given"));
      r.given.forEach(function (g, k) {
        var li = add(ul, el("li"));
        add(li, el("span", "note", "citation " + k + ": "), el("code", null, "ref " + g.ref + (g.locator !== null ? ", locator " + g.locator : "")));
        if (g.quote !== null) add(li, document.createTextNode(", quote "), el("mark", null, g.quote));
      });
    } else {
      add(given, el("h4", null, "the output as given (refused whole, so no claim was scored)"));
      r.given.forEach(function (f) {
        if (f.raw !== undefined) { add(given, el("pre", "raw", f.raw)); return; }
        add(given, el("p", null, "claim: " + f.claim));
        f.evidence.forEach(function (ev) { var p = add(given, el("p")); add(p, el("span", "note", ev.document_id + (ev.section_id !== null ? " " + ev.section_id : "") + ": "), el("mark", null, ev.quote)); });
      });
    }
  }
  if (Array.isArray(r.gold) && r.gold.length) add(body, table(["claim", "gold", "predicted"], r.gold.map(function (g) { return [g.claim, fmt(g.gold), fmt(g.predicted)]; })));
  if (r.dependency_error) add(body, el("p", null, "dependency error: " + JSON.stringify(r.dependency_error)));
}
function card(c, n) {
  var d = el("details", "case");
  d.setAttribute("data-case", c.id);
  var s = add(d, el("summary"));
  add(s, el("code", null, c.id));
  c.tags.forEach(function (t) { add(s, el("span", "tag " + t.split(":")[0], label(t))); });
  if (c.change) add(s, el("span", "note", " " + c.change.old + " → " + c.change.new));
  if (c.score !== null) add(s, el("span", "note", " reward " + fmt(c.score)));
  d.addEventListener("toggle", function () {
    if (!d.open || d._built) return;
    d._built = true;
    var body = add(d, el("div"));
    if (c.doc) documentBody(c, body, n); else if (data.kind === "pairs") pairBody(c, body); else evidenceBody(c, body);
  });
  return d;
}
function update() {
  buttons.forEach(function (b) { b.setAttribute("aria-pressed", String(b.getAttribute("data-filter") === (state.tag === null ? "all" : state.tag))); });
  var shown = [];
  for (var i = 0; i < cases.length; i++) if (matches(cases[i])) shown.push(i);
  if (state.sort !== "input") {
    var sign = state.sort === "score-asc" ? 1 : -1;
    shown.sort(function (a, b) {
      var x = cases[a].score, y = cases[b].score;
      if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
      return sign * (x - y) || a - b;
    });
  }
  count.textContent = shown.length + " of " + cases.length + " cases " + (partial ? "on this page " : "") + "match" + (shown.length > state.limit ? "; the first " + state.limit + " are listed" : "") + ".";
  list.textContent = "";
  shown.slice(0, state.limit).forEach(function (i) { list.appendChild(card(cases[i], i)); });
  more.hidden = shown.length <= state.limit;
}
// A link can preselect a filter and open the first case: report.html#filter=fn&open=1.
var wanted = /^#filter=([^&]+)(&open=1)?$/.exec(location.hash);
if (wanted && own(counts, decodeURIComponent(wanted[1]))) state.tag = decodeURIComponent(wanted[1]);
update();
if (wanted) {
  if (wanted[2] && list.firstChild) list.firstChild.open = true;
  document.getElementById("cases").scrollIntoView();
}
})();`;
