// report.junit.xml: one <testcase> per gate, so CI systems that read JUnit (GitLab, Jenkins,
// GitHub test reporters) show gate failures next to unit tests. A failed gate is a <failure>
// (the model got worse); an input problem is an <error> (the run itself is broken), as promptfoo does.
import { escapeXml } from "./escape.js";
import { formatNumber } from "./format.js";
import type { Report } from "./types.js";

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
    .join("");
}

/**
 * `inputErrors` are problems that made records unusable or the run fail (e.g. `slice.jsonl:3:
 * duplicate id`); each becomes an errored test case so that CI shows the run is broken.
 */
export function renderJunit(report: Report, inputErrors: readonly string[] = []): string {
  const suiteName = `mari ${report.task}`;
  const className = `mari.${report.task}.gates`;
  const failures = report.gates.filter((gate) => !gate.passed).length;
  const cases: string[] = [];
  for (const gate of report.gates) {
    const summary = `value ${formatNumber(gate.value)}, threshold ${formatNumber(gate.threshold)}`;
    const detail = gate.detail ? `${summary}; ${gate.detail}` : summary;
    const open = `    <testcase${attrs({ name: gate.name, classname: className, time: 0 })}`;
    if (gate.passed) {
      cases.push(`${open}>\n      <system-out>${escapeXml(detail)}</system-out>\n    </testcase>`);
    } else {
      cases.push(
        `${open}>\n      <failure${attrs({ message: `gate failed: ${gate.name} (${summary})`, type: gate.kind })}>${escapeXml(detail)}</failure>\n    </testcase>`,
      );
    }
  }
  inputErrors.forEach((message, index) => {
    cases.push(
      `    <testcase${attrs({ name: `input error ${index + 1}`, classname: `mari.${report.task}.input`, time: 0 })}>\n` +
        `      <error${attrs({ message, type: "input_error" })}>${escapeXml(message)}</error>\n    </testcase>`,
    );
  });
  const counts = { tests: cases.length, failures, errors: inputErrors.length, skipped: 0 };
  // Who produced the predictions travels with the gates, so a baseline judge is never mistaken
  // for a model in a CI dashboard.
  const properties = [
    `    <properties>`,
    `      <property${attrs({ name: "mari_version", value: report.system.mari_version })}/>`,
    `      <property${attrs({ name: "judge", value: report.system.judge ?? "user predictions" })}/>`,
    ...(report.system.judge_note ? [`      <property${attrs({ name: "judge_note", value: report.system.judge_note })}/>`] : []),
    `    </properties>`,
  ];
  const time = report.elapsed_seconds.toFixed(3);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites${attrs({ name: "mari", ...counts, time })}>`,
    `  <testsuite${attrs({ name: suiteName, ...counts, time })}>`,
    ...properties,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
