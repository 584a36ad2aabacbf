// A document eval's report.json without what names or hashes its input files, so two runs over the
// same data in different files (a Parquet dump and its JSONL twin) can be compared whole.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export function comparableReport(dir: string): unknown {
  const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
  for (const key of ["path", "sha256"]) {
    delete report.dataset[key];
    delete report.predictions[key];
  }
  delete report.system.config.slice;
  delete report.system.config.predictions;
  delete report.system.config_hash;
  delete report.elapsed_seconds;
  report.rejection_examples = report.rejection_examples.map((e: { where: string }) => ({ ...e, where: e.where.replace(/^.*[\\/](dump|slice)[^:]*/, "$1") }));
  return report;
}
