// Writes the published JSON Schemas from their one definition each: report.json
// (src/report/schema.ts), sweep.json (src/report/sweep-schema.ts) and mari.config.json
// (src/gates/config.ts). Run after `npm run build`: `node scripts/write-schema.mjs`.
// test/report/schema.test.ts and test/gates/config-layout.test.ts fail when schema/*.schema.json are
// out of date.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { REPORT_JSON_SCHEMA } = await import(join(root, "dist/report/schema.js"));
const { SWEEP_JSON_SCHEMA } = await import(join(root, "dist/report/sweep-schema.js"));
const { configJsonSchema } = await import(join(root, "dist/gates/config.js"));
for (const [name, schema] of [
  ["report.schema.json", REPORT_JSON_SCHEMA],
  ["sweep.schema.json", SWEEP_JSON_SCHEMA],
  ["config.schema.json", await configJsonSchema()],
]) {
  const target = join(root, "schema", name);
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  process.stdout.write(`wrote ${target}\n`);
}
