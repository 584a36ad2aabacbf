// mari.config.json: gates and run options kept in the repository beside the slice, so a CI job's
// thresholds are reviewed like code (lessons §0.2: env-var-only thresholds were a complaint).
// Keys mirror the command-line flags in snake_case; a flag given on the command line wins.
// Unknown keys are errors: a misspelt gate must not silently disappear.
import { readInputText } from "../io/input-file.js";
import { parseBoundedJson } from "../io/depth.js";
import { dirname, isAbsolute, resolve } from "node:path";
import type { z as Zod } from "zod";
import { InputError } from "../io/errors.js";
import { MAX_BOOTSTRAP, MAX_SEED, MAX_WORKERS } from "../core/limits.js";
import { parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate, type GateSpec } from "./spec.js";

export const DEFAULT_CONFIG_FILE = "mari.config.json";

// zod is loaded only when a config is read: `mari --help` should not pay for it.
function buildConfigSchema(z: typeof Zod) {
  const stringList = z.union([z.string(), z.array(z.string())]);
  return z
    .object({
      $schema: z.string().optional(),
      /** `["accuracy>=0.6", "revision_cost<=0.4"]`, as --gate. */
      gate: stringList.optional(),
      /** `{"macro_f1": 0.02}` or `["macro_f1=0.02"]`, as --max-drop. */
      max_drop: z.union([z.record(z.string(), z.number()), stringList]).optional(),
      /** `0.05`, `"5%"`, `5` (a count) or `"count:1"`, as --max-invalid-rate. */
      max_invalid_rate: z.union([z.number(), z.string()]).optional(),
      baseline: z.string().optional(),
      out: z.string().optional(),
      report: stringList.optional(),
      rewards: z.string().optional(),
      seed: z.number().int().min(0).max(MAX_SEED).optional(),
      bootstrap: z.number().int().nonnegative().max(MAX_BOOTSTRAP).optional(),
      workers: z.number().int().positive().max(MAX_WORKERS).optional(),
      progress: z.enum(["auto", "bar", "plain", "none"]).optional(),
      strict: z.boolean().optional(),
      quiet: z.boolean().optional(),
      lenient_ids: z.boolean().optional(),
      /** Only the canonical splitter exists (SPEC §1.1 makes `intl` optional; it is not built), so any other value is refused rather than silently ignored. */
      sentencer: z.literal("canonical").optional(),
      grid: z.string().optional(),
      costs: z.string().optional(),
    })
    .strict();
}

export type MariConfigFile = Zod.infer<ReturnType<typeof buildConfigSchema>>;

export interface MariConfig extends Omit<MariConfigFile, "gate" | "max_drop" | "max_invalid_rate" | "$schema"> {
  /** The file read, or null when there was none (all defaults). */
  path: string | null;
  /** gate, max_drop and max_invalid_rate parsed, with source "config". */
  gates: GateSpec[];
}

function list(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : typeof value === "string" ? [value] : value;
}

/**
 * Loads a config file. With no `path`, reads ./mari.config.json when it exists (no file = empty
 * config). An explicit path that is missing, bad JSON, an unknown key or a bad gate is an
 * InputError naming the file. Paths inside the file (baseline, out, rewards, grid, costs) are
 * resolved against the file's directory.
 */
export async function loadMariConfig(path?: string, cwd: string = process.cwd()): Promise<MariConfig> {
  const file = resolve(cwd, path ?? DEFAULT_CONFIG_FILE);
  let text: string;
  try {
    text = await readInputText(file);
  } catch (err) {
    if (err instanceof InputError) throw new InputError(`config ${err.message}`);
    if (path === undefined && (err as NodeJS.ErrnoException).code === "ENOENT") return { path: null, gates: [] };
    throw new InputError(`config ${file}: cannot read: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = parseBoundedJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw new InputError(`config ${file}: not valid JSON: ${(err as Error).message}`);
  }
  const { z } = await import("zod");
  const parsed = buildConfigSchema(z).safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const where = issue.path.length ? issue.path.join(".") : "(top level)";
      return issue.code === "unrecognized_keys" ? `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}` : `${where}: ${issue.message}`;
    });
    throw new InputError(`config ${file}: ${problems.join("; ")}`);
  }
  const { gate, max_drop, max_invalid_rate, $schema: _schema, ...options } = parsed.data;
  const wrap = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof InputError) throw new InputError(`config ${file}: ${err.message}`);
      throw err;
    }
  };
  const gates: GateSpec[] = list(gate).map((text) => wrap(() => parseGateFlag(text, "config")));
  if (max_drop !== undefined) {
    const drops = Array.isArray(max_drop) || typeof max_drop === "string" ? list(max_drop) : Object.entries(max_drop).map(([metric, delta]) => `${metric}=${delta}`);
    for (const text of drops) gates.push(wrap(() => parseMaxDropFlag(text, "config")));
  }
  if (max_invalid_rate !== undefined) gates.push(wrap(() => parseMaxInvalidRate(String(max_invalid_rate), "config")));
  const base = dirname(file);
  const near = (p: string | undefined) => (p === undefined || isAbsolute(p) ? p : resolve(base, p));
  const config: MariConfig = { ...options, path: file, gates };
  for (const key of ["baseline", "out", "rewards", "costs"] as const) {
    if (config[key] !== undefined) config[key] = near(config[key]);
  }
  // `grid` is a file path unless it names a built-in grid.
  if (config.grid !== undefined && config.grid !== "default" && config.grid !== "full") config.grid = near(config.grid);
  return config;
}

/** Flag value if given, else the config's, else the default: the one precedence rule. */
export function pickOption<T>(flag: T | undefined, config: T | undefined, fallback: T): T {
  return flag !== undefined ? flag : config !== undefined ? config : fallback;
}
