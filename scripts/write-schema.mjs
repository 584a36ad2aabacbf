// Writes the published JSON Schemas of report.json and sweep.json from their one definitions
// (src/report/schema.ts, src/report/sweep-schema.ts).
// Run after `npm run build`: `node scripts/write-schema.mjs`. test/report/schema.test.ts fails
// when schema/report.schema.json is out of date.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { REPORT_JSON_SCHEMA } = await import(join(root, "dist/report/schema.js"));
const { SWEEP_JSON_SCHEMA } = await import(join(root, "dist/report/sweep-schema.js"));
for (const [name, schema] of [["report.schema.json", REPORT_JSON_SCHEMA], ["sweep.schema.json", SWEEP_JSON_SCHEMA]]) {
  const target = join(root, "schema", name);
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  process.stdout.write(`wrote ${target}\n`);
}
