// Writes the published JSON Schemas from their one definition each: report.json
// (src/report/schema.ts), sweep.json (src/report/sweep-schema.ts), mari.config.json
// (src/gates/run-config.ts), the lines of a document eval's cases.jsonl (src/report/cases-schema.ts) and
// trend.json (src/report/trend-schema.ts).
// Run after `npm run build`: `node scripts/write-schema.mjs`. test/report/schema.test.ts,
// test/gates/config-layout.test.ts, test/document-eval/cases-layout.test.ts and
// test/trend/trend.test.ts fail when
// schema/*.schema.json are out of date.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { REPORT_JSON_SCHEMA } = await import(join(root, "dist/report/schema.js"));
const { SWEEP_JSON_SCHEMA } = await import(join(root, "dist/report/sweep-schema.js"));
const { configJsonSchema } = await import(join(root, "dist/gates/run-config.js"));
const { DOCUMENT_CASES_JSON_SCHEMA } = await import(join(root, "dist/report/cases-schema.js"));
const { TREND_JSON_SCHEMA } = await import(join(root, "dist/report/trend-schema.js"));
for (const [name, schema] of [
  ["report.schema.json", REPORT_JSON_SCHEMA],
  ["sweep.schema.json", SWEEP_JSON_SCHEMA],
  ["config.schema.json", await configJsonSchema()],
  ["document-cases.schema.json", DOCUMENT_CASES_JSON_SCHEMA],
  ["trend.schema.json", TREND_JSON_SCHEMA],
]) {
  const target = join(root, "schema", name);
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  process.stdout.write(`wrote ${target}\n`);
}
