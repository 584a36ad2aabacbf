// The evidence task's extra sections (claim states, errors by code, dependencies, freshness) in
// report.md and report.html, rendered from a hand-built report.
import { describe, expect, it } from "vitest";
import { renderHtml } from "../../src/report/html.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import type { Report } from "../../src/report/types.js";
import { fixtureReport } from "./fixture.js";

function evidenceReport(extra: Record<string, unknown> = {}): Report {
  return fixtureReport({
    task: "evidence",
    metrics: { cases: 4, accepted_rate: 0.5, claim_state_accuracy: 0.75, claim_state_gold: 4 },
    ci: { claim_state_accuracy: { low: 0.3, high: 0.95, method: "wilson", n: 4 } },
    claim_states: { supported: 3, contradicted: 1, uncertain: 0, insufficient_evidence: 4 },
    claim_state_confusion: { supported: { supported: 2, uncertain: 1 }, "gold|<b>": { "gold|<b>": 1 } },
    errors: { unknown_document: 1, quote_not_in_document: 3 },
    error_examples: {
      quote_not_in_document: [
        { case_id: "c|1", where: "facts.jsonl:2", message: "quote <img src=x> is not present" },
        { case_id: "c2", where: "facts.jsonl:5", message: "second" },
        { case_id: "c3", where: "facts.jsonl:7", message: "third" },
        { case_id: "c4", where: "facts.jsonl:9", message: "fourth" },
      ],
      unknown_document: [{ case_id: "c5", where: "facts.jsonl:11", message: "references an unknown document" }],
    },
    dependencies: [{ document_id: "kb/a", revision: "v3", section_id: "s", section_revision: "0123456789abcdef", dependency_id: "kb/a#s", cases: 2 }],
    dependency_conflicts: { count: 1, examples: [{ case_id: "c6", where: "facts.jsonl:13", message: "kb/a cited at v2 and v3" }] },
    freshness: { current: 1, stale: 2, "<missing>": 1 },
    ...extra,
  });
}

describe("evidence sections in report.md", () => {
  const md = renderMarkdown(evidenceReport());

  it("shows claim-state counts with shares, and accuracy against gold with its interval and confusion", () => {
    expect(md).toContain("## Claim states");
    expect(md).toContain("| supported | 3 | 0.3750 |");
    expect(md).toContain("| uncertain | 0 | 0 |");
    expect(md).toContain("Accuracy against gold: 0.7500 [0.3000, 0.9500] over 4 claims with a gold state.");
    expect(md).toContain("| **supported** | 2 | 0 | 1 |");
    expect(md).toContain("| **gold\\|&lt;b>** | 0 | 1 | 0 |");
  });

  it("lists errors per code, most frequent first, with at most three file:line examples each, escaped", () => {
    const section = md.slice(md.indexOf("## Errors by code"), md.indexOf("## Dependencies"));
    expect(section.indexOf("| quote_not_in_document | 3 |")).toBeLessThan(section.indexOf("| unknown_document | 1 |"));
    expect(section).toContain('facts.jsonl:2 (case "c\\|1"): quote &lt;img src=x> is not present<br>facts.jsonl:5');
    expect(section).toContain("facts.jsonl:7");
    expect(section).not.toContain("facts.jsonl:9");
    expect(section).toContain('facts.jsonl:11 (case "c5"): references an unknown document');
    expect(md).not.toContain("<img");
  });

  it("shows the dependency list, conflicts with examples, and freshness per status", () => {
    expect(md).toContain("1 distinct dependencies cited by accepted cases.");
    expect(md).toContain("| kb/a#s | v3 | 0123456789ab | 2 |");
    expect(md).toContain("Dependency conflicts: 1 cases.");
    expect(md).toContain('- facts.jsonl:13 (case "c6"): kb/a cited at v2 and v3');
    expect(md).toContain("## Freshness");
    expect(md).toMatch(/\| stale \| 2 \|\n\| &lt;missing> \| 1 \|\n\| current \| 1 \|/);
  });

  it("says so when there is no gold, no error and no conflict", () => {
    const plain = renderMarkdown(
      evidenceReport({
        metrics: { claim_state_accuracy: null, claim_state_gold: 0 },
        ci: {},
        claim_state_confusion: undefined,
        errors: {},
        error_examples: {},
        dependency_conflicts: { count: 0, examples: [] },
      }),
    );
    expect(plain).toContain("No gold states were given, so there is no accuracy.");
    expect(plain).not.toContain("gold \\ predicted");
    expect(plain).toContain("## Errors by code\n\nNone: every case was accepted.");
    expect(plain).toContain("Dependency conflicts: none.");
  });

  it("renders none of these sections for a report without the keys", () => {
    const other = renderMarkdown(fixtureReport());
    for (const title of ["## Claim states", "## Errors by code", "## Dependencies", "## Freshness"]) expect(other).not.toContain(title);
  });
});

describe("evidence sections in report.html", () => {
  const html = renderHtml(evidenceReport());

  it("has the four sections with escaped text", () => {
    expect(html).toContain("<h2>Claim states</h2>");
    expect(html).toContain("<b>0.7500</b> [0.3000, 0.9500] over 4 claims");
    expect(html).toContain("<th>gold|&lt;b&gt;</th>");
    expect(html).toContain("<h2>Errors by code</h2>");
    expect(html).toContain("<li><code>facts.jsonl:2</code> case <code>c|1</code>: quote &lt;img src=x&gt; is not present</li>");
    expect(html).not.toContain("<img");
    expect(html).toContain("<code>facts.jsonl:9</code> case <code>c4</code>: fourth");
    expect(html).toContain("<td><code>kb/a#s</code></td><td>v3</td><td><code>0123456789ab</code></td><td>2</td>");
    expect(html).toContain("Dependency conflicts: 1 cases.");
    expect(html).toContain("<td>&lt;missing&gt;</td><td>1</td>");
  });

  it("renders none of them for a report without the keys", () => {
    const other = renderHtml(fixtureReport());
    for (const title of ["Claim states", "Errors by code", "Dependencies", "Freshness"]) expect(other).not.toContain(`<h2>${title}`);
  });
});
