import { describe, expect, it } from "vitest";
import { escapeCell, escapeHtml, escapeXml } from "../../src/report/escape.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import { renderJunit } from "../../src/report/junit.js";
import { renderHtml } from "../../src/report/html.js";
import { fixtureReport, fixtureComparison } from "./fixture.js";

describe("markdown", () => {
  const md = renderMarkdown(fixtureReport());

  it("shows the verdict, gates and headline metrics with intervals and n", () => {
    expect(md).toMatch(/^# mari report: documents — gates FAILED\n/);
    expect(md).toContain("**FAILED**: 1 of 2 gates failed.");
    expect(md).toContain("| ✅ pass | accuracy>=0.6 | 0.7500 | 0.6000 |  |");
    expect(md).toContain("| ❌ fail | macro_f1>=0.8 | 0.7333 | 0.8000 | below &lt;threshold> & falling |");
    expect(md).toContain("| accuracy | 0.7500 | [0.3000, 0.9500] | 4 | 0.2500 | 0.5000 | 1 |");
    expect(md).toContain("| macro_f1 | 0.7333 | [0.2000, 1] | 4 |");
    expect(md).toContain("Intervals: Wilson; bootstrap B=1000 seed=0.");
    expect(md).toContain("Headline = mean over 2 runs");
  });

  it("has per-run, breakdown, SetCons, majority, rejection, orphan and provenance sections", () => {
    expect(md).toContain("| metric | run 0 | run 1 |");
    expect(md).toContain("| accuracy | 0.5000 | 1 |");
    expect(md).toContain("### By scope");
    expect(md).toContain("| wiki\\|pipe | 0.5000 | n/a |");
    expect(md).toContain("| judgment | 0.5000 |");
    expect(md).toContain("Flipped cases: case-2, case<3>");
    expect(md).toContain("## Majority vote");
    expect(md).toContain("### reward_accuracy\n\n| bin | count | share |");
    expect(md).toContain("| <2 | 2 | 0.2500 |");
    expect(md).toContain("| bad_judgment | 2 |");
    expect(md).not.toContain("| missing_prediction | 0 |");
    expect(md).toContain("- dump.jsonl:3: malformed_json: Unexpected token \\| in<br>JSON");
    expect(md).toContain("&lt;script>alert(1)&lt;/script>");
    expect(md).not.toContain("<script>");
    expect(md).toContain("1 predictions name a case id that is not in the slice (not scored). Examples: ghost\\|id");
    expect(md).toContain("| git commit | 0123456789abcdef0123456789abcdef01234567 (dirty) |");
    expect(md).toContain("| seed / workers | 0 / 1 |");
  });

  it("renders a pairs confusion matrix, a judge note and a baseline comparison", () => {
    const text = renderMarkdown(
      fixtureReport({
        task: "pairs",
        gates: [],
        confusion: { update: { update: 5, distinct: 1 }, distinct: { update: 2, distinct: 7 } },
        system: { ...fixtureReport().system, judge: "lexical", judge_note: "The lexical judge is a baseline." },
        baseline: fixtureComparison(
          { accuracy: { current: 0.75, baseline: 0.5, difference: 0.25, low: -0.25, high: 0.75 } },
          {
            path: "old/report.json",
            units: { current: 4, baseline: 4 },
            matched_cases: 4,
            unmatched_baseline: 1,
            resamples: 200,
            mcnemar: { baseline_only: 0, current_only: 1, p_value: 1, method: "exact_binomial" },
          },
        ),
      }),
    );
    expect(text).toMatch(/^# mari report: pairs\n/);
    expect(text).toContain("> **Note:** The lexical judge is a baseline.");
    expect(text).toContain("No gates were set.");
    expect(text).toContain("| gold \\ predicted | update | distinct |");
    expect(text).toContain("| **update** | 5 | 1 |");
    expect(text).toContain("| **distinct** | 2 | 7 |");
    expect(text).toContain("| accuracy | 0.5000 | 0.7500 | +0.2500 | [-0.2500, +0.7500] |");
    expect(text).toContain(
      "McNemar (exact binomial) on cases: baseline-only right 0, current-only right 1, p = 1; a case is right on a side when more than half",
    );
    expect(text).toContain(
      "Paired on 4 cases (not compared: 0 cases only in the current run, 1 only in the baseline); each side's per-case value is the mean over its runs: current 1 run (0), baseline 1 run (0).",
    );
  });

  it("escapes pipes, newlines and HTML in cells", () => {
    expect(escapeCell("a|b\nc\r\nd <i>& &amp; `x` \\")).toBe("a\\|b<br>c<br>d &lt;i>& &amp;amp; \\`x\\` \\\\");
    expect(escapeCell("![x](https://t.example/p.png) [a]")).toBe("!\\[x\\](https&#58;//t.example/p.png) \\[a\\]");
    expect(escapeCell("cost<=0.4 </b> <!-- x --> <?php <https://x> 1 < 2")).toBe("cost<=0.4 &lt;/b> &lt;!-- x --> &lt;?php &lt;https&#58;//x> 1 < 2");
  });

  it("keeps a bare URL, www. host or e-mail address in an id from becoming a link", () => {
    const cell = escapeCell("case-https://evil.example/x www.evil.example a@evil.example");
    expect(cell).toBe("case-https&#58;//evil.example/x www&#46;evil.example a&#64;evil.example");
    expect(cell).not.toMatch(/:\/\/|www\.|@/);
  });

  it("says SetCons is unavailable for one run", () => {
    expect(renderMarkdown(fixtureReport({ setcons: null }))).toContain("Not available: it needs at least two runs.");
  });
});

describe("junit", () => {
  it("has one testcase per gate, failures as <failure>, input errors as <error>", () => {
    const xml = renderJunit(fixtureReport(), ['slice.jsonl:3: duplicate id "x"']);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="mari" tests="3" failures="1" errors="1" skipped="0" time="1.250">/);
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml).toContain('<testcase name="accuracy&gt;=0.6" classname="mari.documents.gates" time="0">');
    expect(xml).toContain('<failure message="gate failed: macro_f1&gt;=0.8 (value 0.7333, threshold 0.8000)" type="min">');
    expect(xml).toContain("below &lt;threshold&gt; &amp; falling");
    expect(xml).toContain('<error message="slice.jsonl:3: duplicate id &quot;x&quot;" type="input_error">');
  });

  it("strips characters XML 1.0 forbids and escapes markup", () => {
    expect(escapeXml("a\u0000b\u0007c\uFFFEd\uD800e<&>\"'\t\n")).toBe("abcde&lt;&amp;&gt;&quot;&apos;\t\n");
    const xml = renderJunit(
      fixtureReport({ gates: [{ name: "x\u0001", metric: "x", kind: "min", threshold: 1, value: null, passed: false, detail: "\u001b[31mred" }] }),
    );
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(xml).toContain('name="x"');
  });

  it("is a valid empty suite without gates", () => {
    const xml = renderJunit(fixtureReport({ gates: [] }));
    expect(xml).toContain('tests="0" failures="0" errors="0"');
  });
});

describe("html", () => {
  const html = renderHtml(fixtureReport({ confusion: { update: { update: 3, distinct: 1 } } }));

  it("is one self-contained page without scripts or network references", () => {
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\//);
    expect(html).toContain("default-src 'none'");
  });

  it("escapes all report text", () => {
    expect(html).toContain("judgment &lt;script&gt;alert(1)&lt;/script&gt; is not yes/no");
    expect(html).toContain("<code>case&lt;3&gt;</code>");
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("has the metric table with CIs, gates, confusion matrix, SetCons and bars", () => {
    expect(html).toContain("<td>accuracy</td><td>0.7500</td><td>[0.3000, 0.9500]</td><td>4</td>");
    expect(html).toContain('<span class="fail">1 of 2 gates failed.</span>');
    expect(html).toContain("Confusion matrix");
    expect(html).toContain(">3</span>");
    expect(html).toContain("SetCons (run-to-run consistency)");
    expect(html).toContain("<h3>reward_accuracy</h3>");
    expect(html).toContain('text-anchor="middle">&lt;2</text>');
    expect(html).toMatch(
      /<svg class="bar" width="200" height="12" role="img" aria-label="0.7500"><rect width="200" height="12" fill="#eee"\/><rect width="150"/,
    );
    // Counts get no bar: `tp` in the metric table, a `cases` column in a breakdown.
    expect(html).toContain("<td>tp</td><td>2</td><td></td><td></td><td></td>");
    const counted = renderHtml(fixtureReport({ breakdowns: { scope: { news: { cases: 24, accuracy: 0.5 } } } }));
    expect(counted).toContain('<td>news</td><td>24</td><td><span class="barred"><span class="num">0.5000</span><svg');
  });
});

describe("the gates' verdict in words", () => {
  it("says 'the gate' for one gate, on every rendering", () => {
    const one = fixtureReport({ gates: [{ name: "accuracy>=0.5", metric: "accuracy", kind: "min", threshold: 0.5, value: 0.75, passed: true }] });
    expect(renderHtml(one)).toContain('<span class="pass">The gate passed.</span>');
    expect(renderMarkdown(one)).toContain("**PASSED**: the gate passed.");
    const failedOne = fixtureReport({ gates: [{ name: "accuracy>=0.9", metric: "accuracy", kind: "min", threshold: 0.9, value: 0.75, passed: false }] });
    expect(renderHtml(failedOne)).toContain('<span class="fail">The gate failed.</span>');
    expect(renderHtml(fixtureReport())).toContain('<span class="fail">1 of 2 gates failed.</span>');
  });
});
