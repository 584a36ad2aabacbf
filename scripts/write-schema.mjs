// Writes the published JSON Schema of report.json from its one definition (src/report/schema.ts).
// Run after `npm run build`: `node scripts/write-schema.mjs`. test/report/schema.test.ts fails
// when schema/report.schema.json is out of date.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { REPORT_JSON_SCHEMA } = await import(join(root, "dist/report/schema.js"));
const target = join(root, "schema/report.schema.json");
writeFileSync(target, `${JSON.stringify(REPORT_JSON_SCHEMA, null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
