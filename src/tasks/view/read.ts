// One report file → one row of `mari view`. Report files are untrusted (a folder may hold anything
// named report.json): a file too large, not JSON, nested too deep or not shaped like a mari report
// becomes an "unreadable" row saying why, never an exception. Only the few fields a row shows are
// read, each checked for its type, and the parsed value is dropped as soon as the row is made. A
// row's metrics follow the declared order (src/core/metrics/descriptors/), whatever file it came from.
import { readFile, stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { MAX_VIEW_FILE_BYTES } from "../../core/limits.js";
import { inDeclaredOrder } from "../../core/metrics/descriptors/index.js";
import { parseJsonDocument } from "../../io/json-file.js";
import { modelName, sliceName } from "../../report/subject.js";
import type { Report } from "../../report/types.js";
import type { ViewEntry, ViewKind, ViewMetric } from "../../report/view-page.js";

type Json = Record<string, unknown>;

/** Longest string kept from a report file (a name, a problem): rows stay small whatever the file holds. */
const MAX_TEXT = 300;

function obj(value: unknown): Json | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value.slice(0, MAX_TEXT) : null;
}

function fileName(value: unknown): string | null {
  const path = str(value);
  return path === null ? null : basename(path);
}

const TASK_KINDS: Readonly<Record<string, ViewKind>> = { documents: "eval", pairs: "pairs", evidence: "evidence", sweep: "sweep" };

function gateCounts(value: unknown): { passed: number; failed: number } {
  let passed = 0;
  let failed = 0;
  if (Array.isArray(value))
    for (const gate of value) {
      const g = obj(gate);
      if (g === null) continue;
      if (g["passed"] === true) passed++;
      else failed++;
    }
  return { passed, failed };
}

/** Headline metrics: those the report gives an interval for, in the declared order (as a trend's series), then nothing else. */
function headline(metrics: Json, ci: Json | null): ViewMetric[] {
  const out: ViewMetric[] = [];
  const intervals = ci ?? {};
  for (const name of inDeclaredOrder(Object.keys(intervals))) {
    if (!Object.hasOwn(metrics, name)) continue;
    const c = obj(intervals[name]);
    const low = num(c?.["low"]);
    const high = num(c?.["high"]);
    out.push({ name: name.slice(0, MAX_TEXT), value: num(metrics[name]), ...(low !== null && high !== null ? { low, high } : {}) });
  }
  if (out.length === 0)
    for (const [name, value] of Object.entries(metrics).slice(0, 4))
      if (typeof value === "number") out.push({ name: name.slice(0, MAX_TEXT), value: num(value) });
  return out;
}

function invalidOf(value: unknown): { count: number; total: number } | null {
  const v = obj(value);
  const count = num(v?.["count"]);
  const total = num(v?.["total"]);
  return count !== null && total !== null && count >= 0 && total >= count ? { count, total } : null;
}

export interface ReadEntry {
  entry: ViewEntry;
  /** trend.json only: the report.json paths of its points, as the trend recorded them. */
  points: string[];
}

function fromReport(json: Json, base: Omit<ViewEntry, "kind" | "task" | "model" | "slice" | "metrics" | "gates" | "invalid">): ViewEntry | string {
  const task = str(json["task"]);
  const metrics = obj(json["metrics"]);
  const kind = task === null ? undefined : TASK_KINDS[task];
  if (kind === undefined || metrics === null) return "not a mari report (no known task and metrics)";
  const subject = { system: obj(json["system"]) ?? {}, predictions: obj(json["predictions"]), dataset: obj(json["dataset"]) ?? {} } as unknown as Report;
  return {
    ...base,
    kind,
    task,
    model: str(modelName(subject)),
    slice: str(sliceName(subject)),
    metrics: headline(metrics, obj(json["ci"])),
    gates: gateCounts(json["gates"]),
    invalid: invalidOf(json["invalid"]),
  };
}

function fromDiff(json: Json, base: Omit<ViewEntry, "kind" | "task" | "model" | "slice" | "metrics" | "gates" | "invalid">): ViewEntry | string {
  const oldSide = obj(json["old"]);
  const newSide = obj(json["new"]);
  const comparison = obj(json["comparison"]);
  if (oldSide === null || newSide === null || comparison === null) return "not a mari diff (no old, new and comparison)";
  const metrics: ViewMetric[] = [];
  const compared = obj(comparison["metrics"]) ?? {};
  for (const name of inDeclaredOrder(Object.keys(compared))) {
    const d = obj(compared[name]);
    const low = num(d?.["low"]);
    const high = num(d?.["high"]);
    metrics.push({
      name: `Δ ${name.slice(0, MAX_TEXT)}`,
      value: num(d?.["difference"]),
      signed: true,
      ...(low !== null && high !== null ? { low, high } : {}),
    });
  }
  const from = fileName(oldSide["predictions"]) ?? "?";
  const to = fileName(newSide["predictions"]) ?? "?";
  return {
    ...base,
    kind: "diff",
    task: str(newSide["task"]),
    model: `${from} → ${to}`,
    slice: fileName(newSide["dataset"]),
    metrics,
    gates: gateCounts(json["gates"]),
    invalid: null,
  };
}

function fromTrend(json: Json, base: Omit<ViewEntry, "kind" | "task" | "model" | "slice" | "metrics" | "gates" | "invalid">): ReadEntry | string {
  const points = Array.isArray(json["points"]) ? json["points"].map(obj).filter((p): p is Json => p !== null) : null;
  if (points === null || points.length === 0 || !Array.isArray(json["series"])) return "not a mari trend (no points and series)";
  const last = points.at(-1)!;
  const values = obj(last["values"]) ?? {};
  const keep = obj(json["keep"]);
  const kept = obj(keep?.["kept"]);
  const metrics: ViewMetric[] = [];
  const names = json["series"].map((s) => str(obj(s)?.["metric"])).filter((name): name is string => name !== null);
  for (const name of inDeclaredOrder(names)) {
    const c = obj(obj(last["ci"])?.[name]);
    const low = num(c?.["low"]);
    const high = num(c?.["high"]);
    metrics.push({ name: `last ${name}`, value: num(values[name]), ...(low !== null && high !== null ? { low, high } : {}) });
  }
  const keepName = str(kept?.["name"]);
  const entry: ViewEntry = {
    ...base,
    kind: "trend",
    task: str(json["task"]),
    model: `${points.length} checkpoints${keepName === null ? "" : `, keep ${keepName}`}`,
    slice: fileName(obj(last["dataset"])?.["path"]),
    metrics,
    gates: gateCounts(json["gates"]),
    invalid: null,
  };
  return { entry, points: points.map((p) => str(p["path"])).filter((p): p is string => p !== null) };
}

/** Reads one report.json / diff.json / trend.json into its row; `link` is the page beside it, if any. */
export async function readViewEntry(file: string, link: string | null): Promise<ReadEntry> {
  const base = { file, link, folder: basename(dirname(file)) || file, date: 0 };
  const unreadable = (problem: string): ReadEntry => ({
    entry: {
      ...base,
      kind: "unreadable",
      task: null,
      model: null,
      slice: null,
      metrics: [],
      gates: { passed: 0, failed: 0 },
      invalid: null,
      problem: problem.slice(0, MAX_TEXT),
    },
    points: [],
  });
  let json: Json | null;
  try {
    const info = await stat(file);
    base.date = info.mtimeMs;
    if (info.size > MAX_VIEW_FILE_BYTES) return unreadable(`${info.size} bytes, larger than the ${MAX_VIEW_FILE_BYTES / 1024 / 1024} MB read for a row`);
    json = obj(parseJsonDocument(await readFile(file, "utf8")));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return unreadable(typeof code === "string" ? `cannot read it (${code})` : `not valid JSON: ${(err as Error).message}`);
  }
  if (json === null) return unreadable("not a JSON object");
  const name = basename(file);
  const made = name === "diff.json" ? fromDiff(json, base) : name === "trend.json" ? fromTrend(json, base) : fromReport(json, base);
  if (typeof made === "string") return unreadable(made);
  return "entry" in made ? made : { entry: made, points: [] };
}
