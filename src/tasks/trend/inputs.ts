// Which report.json files a `mari trend` run reads, and in what order: arguments are report.json
// files, directories holding one, directories of such directories (`reports/`), or globs the shell
// did not expand (`'reports/ckpt-*'`). Each point is named by the directory its report.json is in.
import { readdir, realpath, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { InputError } from "../../io/errors.js";
import { STDIN_REFUSED } from "../../io/input-file.js";

export type TrendAxis = "step" | "name" | "time";

export interface TrendInput {
  /** The report.json to read. */
  path: string;
  /** The directory the report is in (its base name). */
  name: string;
  /** The step number in the name (`ckpt-400`, `global_step_400`, `step400`, `checkpoint-400`), else null. */
  step: number | null;
}

// A checkpoint marker, not preceded by a letter (so "timestep3" is not a step), then its number.
const STEP = /(?:^|[^A-Za-z])(?:ckpt|checkpoint|global_step|step)[-_]?(\d+)(?!\d)/i;

/** The step number a checkpoint's name carries, or null. */
export function stepOf(name: string): number | null {
  const match = STEP.exec(name);
  if (match === null) return null;
  const step = Number(match[1]);
  return Number.isSafeInteger(step) ? step : null;
}

/** Names with their digit runs compared as numbers: ckpt-9 before ckpt-10. */
export function naturalCompare(a: string, b: string): number {
  const split = (s: string) => s.match(/\d+|\D+/g) ?? [];
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i]!;
    const q = y[i]!;
    if (p === q) continue;
    const digits = /^\d/.test(p) && /^\d/.test(q);
    if (digits && Number(p) !== Number(q)) return Number(p) < Number(q) ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return x.length - y.length || (a < b ? -1 : a > b ? 1 : 0);
}

const GLOB_CHARS = /[*?[]/;

function segmentPattern(segment: string): RegExp {
  let source = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end < 0) source += "\\[";
      else {
        const body = segment.slice(i + 1, end).replace(/\\/g, "\\\\");
        source += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else source += c.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  try {
    return new RegExp(`^${source}$`);
  } catch {
    // A bracket expression the shell would not accept either, such as a reversed range `[z-a]`.
    throw new InputError(`trend: the glob segment '${segment}' is not a valid pattern (a range such as [a-z] must run from low to high)`);
  }
}

/** Paths matching a shell-style pattern (`*`, `?`, `[…]` within one path segment), sorted. */
async function expandGlob(pattern: string): Promise<string[]> {
  const absolute = pattern.startsWith("/");
  let found = [absolute ? "/" : ""];
  for (const segment of pattern.split("/").filter((s) => s !== "")) {
    const next: string[] = [];
    for (const base of found) {
      if (!GLOB_CHARS.test(segment)) {
        next.push(join(base, segment));
        continue;
      }
      const re = segmentPattern(segment);
      let names: string[];
      try {
        names = await readdir(base === "" ? "." : base);
      } catch {
        continue;
      }
      for (const name of names.sort(naturalCompare)) if (re.test(name) && (segment.startsWith(".") || !name.startsWith("."))) next.push(join(base, name));
    }
    found = next;
  }
  return found;
}

async function kind(path: string): Promise<"file" | "dir" | null> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? "dir" : "file";
  } catch {
    return null;
  }
}

/** The report.json files one argument names. */
async function reportsOf(arg: string): Promise<string[]> {
  const k = await kind(arg);
  if (k === "file") return [arg];
  if (k === "dir") {
    if ((await kind(join(arg, "report.json"))) === "file") return [join(arg, "report.json")];
    const subdirs = (await readdir(arg, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    const found: string[] = [];
    for (const sub of subdirs.sort(naturalCompare)) if ((await kind(join(arg, sub, "report.json"))) === "file") found.push(join(arg, sub, "report.json"));
    if (found.length === 0) throw new InputError(`trend ${arg}: no report.json in this directory or in its subdirectories`);
    return found;
  }
  if (GLOB_CHARS.test(arg)) {
    const matches = await expandGlob(arg);
    if (matches.length === 0) throw new InputError(`trend ${arg}: matches no file or directory`);
    const found: string[] = [];
    for (const match of matches) {
      const m = await kind(match);
      if (m === "file") found.push(match);
      else if (m === "dir" && (await kind(join(match, "report.json"))) === "file") found.push(join(match, "report.json"));
    }
    if (found.length === 0) throw new InputError(`trend ${arg}: matches no report.json or directory holding one`);
    return found;
  }
  throw new InputError(arg === "-" ? `trend ${STDIN_REFUSED}` : `trend ${arg}: no such file or directory`);
}

/** The point name of a report.json: its directory's name (the file's own name when it is not report.json). */
function pointName(path: string): string {
  const file = basename(path);
  if (file !== "report.json") return file.replace(/\.json$/i, "");
  return basename(dirname(resolve(path)));
}

/** Every argument's report.json files, each once (by real path), in argument order. */
export async function trendInputs(args: readonly string[]): Promise<TrendInput[]> {
  if (args.length === 0) throw new InputError("trend: give report.json files, their directories, or a glob such as 'reports/ckpt-*'");
  const seen = new Set<string>();
  const inputs: TrendInput[] = [];
  for (const arg of args) {
    for (const path of await reportsOf(arg)) {
      const real = await realpath(path).catch(() => resolve(path));
      if (seen.has(real)) continue;
      seen.add(real);
      const name = pointName(path);
      inputs.push({ path, name, step: stepOf(name) });
    }
  }
  return inputs;
}

/**
 * Orders the points along the x axis. `axis` undefined: by step when every name has one, else by
 * name. Steps (and names) must be distinct: two reports at one x would be drawn as one point.
 * `times` (ms) is needed for "time" only.
 */
export function orderInputs(
  inputs: readonly TrendInput[],
  axis: TrendAxis | undefined,
  times?: ReadonlyMap<string, number>,
): { order: TrendInput[]; axis: TrendAxis } {
  const missing = inputs.find((p) => p.step === null);
  const chosen: TrendAxis = axis ?? (missing === undefined ? "step" : "name");
  if (chosen === "step" && missing !== undefined) {
    throw new InputError(
      `trend --x step: ${missing.path}: its directory name "${missing.name}" has no step number (ckpt-400, global_step_400, step400); use --x name or --x time`,
    );
  }
  const key = (p: TrendInput): string => (chosen === "step" ? String(p.step) : p.name);
  const byKey = new Map<string, TrendInput>();
  for (const p of inputs) {
    const other = byKey.get(key(p));
    if (other !== undefined && chosen !== "time") {
      throw new InputError(`trend: ${other.path} and ${p.path} are both at ${chosen} ${key(p)}; give the reports of one training run`);
    }
    byKey.set(key(p), p);
  }
  const order = [...inputs];
  if (chosen === "step") order.sort((a, b) => a.step! - b.step!);
  else if (chosen === "name") order.sort((a, b) => naturalCompare(a.name, b.name));
  else order.sort((a, b) => times!.get(a.path)! - times!.get(b.path)! || naturalCompare(a.name, b.name));
  return { order, axis: chosen };
}
