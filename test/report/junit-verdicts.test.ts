// report.junit.xml's counts when every gate passes and when every gate fails: CI dashboards read
// `failures` to colour a run, so it must count the failed gates and nothing else.
import { describe, expect, it } from "vitest";
import { renderJunit } from "../../src/report/junit.js";
import type { GateResult } from "../../src/report/types.js";
import { fixtureReport } from "./fixture.js";

function gates(passed: boolean): GateResult[] {
  return [
    { name: "accuracy>=0.6", metric: "accuracy", kind: "min", threshold: 0.6, value: passed ? 0.7 : 0.5, passed },
    { name: "macro_f1>=0.5", metric: "macro_f1", kind: "min", threshold: 0.5, value: passed ? 0.6 : 0.4, passed },
    { name: "revision_cost<=0.4", metric: "revision_cost", kind: "max", threshold: 0.4, value: passed ? 0.3 : 0.5, passed },
  ];
}

const suiteCounts = (xml: string) => /<testsuites name="mari" tests="(\d+)" failures="(\d+)" errors="(\d+)"/.exec(xml)?.slice(1).map(Number);

describe("junit verdicts", () => {
  it("all gates passing: no failure anywhere", () => {
    const xml = renderJunit(fixtureReport({ gates: gates(true) }));
    expect(suiteCounts(xml)).toEqual([3, 0, 0]);
    expect(xml).toMatch(/<testsuite [^>]*tests="3" failures="0" errors="0"/);
    expect(xml).not.toContain("<failure");
    expect(xml.match(/<system-out>/g)).toHaveLength(3);
  });

  it("all gates failing: every testcase a failure, counted", () => {
    const xml = renderJunit(fixtureReport({ gates: gates(false) }));
    expect(suiteCounts(xml)).toEqual([3, 3, 0]);
    expect(xml).toMatch(/<testsuite [^>]*tests="3" failures="3" errors="0"/);
    expect(xml.match(/<failure /g)).toHaveLength(3);
    expect(xml).not.toContain("<system-out>");
  });

  it("failing gates and input errors are counted apart", () => {
    const xml = renderJunit(fixtureReport({ gates: gates(false) }), ["dump.jsonl:2: malformed_json", "dump.jsonl:5: blank_line"]);
    expect(suiteCounts(xml)).toEqual([5, 3, 2]);
  });
});
