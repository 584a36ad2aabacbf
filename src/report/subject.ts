// What a report is about, in the words a reader looks for first: the model (or dump) that was
// judged and the slice it was judged on. report.html's title and heading and `mari view` read these.
import { basename } from "node:path";
import type { Report } from "./types.js";

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/**
 * The model behind a report: the model `mari predict` asked (DUMP.meta.json), else the dump's file
 * name, else the built-in judge or classifier ("lexical", "contradict"), else null.
 */
export function modelName(report: Pick<Report, "system" | "predictions">): string | null {
  const run = report.system?.judge_run;
  const model = run !== undefined && run !== null && typeof run === "object" ? text((run as Record<string, unknown>)["model"]) : null;
  if (model !== null) return model;
  const dump = text(report.predictions?.path);
  if (dump !== null) return basename(dump);
  return text(report.system?.judge);
}

/** The slice's file name (its path is in the provenance). */
export function sliceName(report: Pick<Report, "dataset">): string | null {
  const path = text(report.dataset?.path);
  return path === null ? null : basename(path);
}

/** "lexical.predictions.jsonl on contradoc-160.jsonl", for titles. */
export function subjectLine(report: Pick<Report, "system" | "predictions" | "dataset">): string {
  const model = modelName(report);
  const slice = sliceName(report);
  if (model !== null && slice !== null) return `${model} on ${slice}`;
  return model ?? slice ?? "";
}
