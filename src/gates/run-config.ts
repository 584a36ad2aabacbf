// mari.config.json: gates and run options kept in the repository beside the slice, so a CI job's
// thresholds are reviewed like code (docs/reports.md, "Gates": env-var-only thresholds were a complaint).
// Keys mirror the command-line flags in snake_case; a flag given on the command line wins.
//
// Layout: settings that mean the same for every task at the top (out, report, workers, progress,
// strict, quiet), everything a task decides on in its own section (`documents`, `pairs`,
// `evidence`): a command reads the top and the section of the task it runs, nothing else, so a
// documents gate never fails a pair run. Unknown keys are errors (a misspelt gate must not silently
// disappear); gates naming a metric the task does not have are errors when the task runs
// (src/gates/decide.ts), naming the file and key. The JSON Schema is published at
// schema/config.schema.json (scripts/write-schema.mjs).
import { didYouMean } from "./suggest.js";
import { readInputText } from "../io/input-file.js";
import { parseJsonDocument } from "../io/json-file.js";
import { dirname, isAbsolute, resolve } from "node:path";
import type { z as Zod } from "zod";
import { InputError } from "../io/errors.js";
import { parseReportFormats } from "../report/write.js";
import { MAX_BOOTSTRAP, MAX_SEED, MAX_WORKERS } from "../core/limits.js";
import { parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate, type GateSpec } from "./spec.js";

export const DEFAULT_CONFIG_FILE = "mari.config.json";

/** The task sections of the file. */
export const CONFIG_TASKS = ["documents", "pairs", "evidence"] as const;
export type ConfigTask = (typeof CONFIG_TASKS)[number];

// zod is loaded only when a config is read: `mari --help` should not pay for it.
function buildConfigSchema(z: typeof Zod) {
  const stringList = z.union([z.string(), z.array(z.string())]);
  const shared = {
    out: z.string().optional().describe("output directory, as --out"),
    report: stringList.optional().describe('report formats, as --report: "json,md" or ["json", "junit"]'),
    workers: z.number().int().positive().max(MAX_WORKERS).optional(),
    progress: z.enum(["auto", "bar", "plain", "none"]).optional(),
    strict: z.boolean().optional(),
    quiet: z.boolean().optional(),
  };
  const gates = {
    gate: stringList.optional().describe('["accuracy>=0.6"], as --gate'),
    max_invalid_rate: z.union([z.number(), z.string()]).optional().describe('0.05, "5%", 5 (a count) or "count:1", as --max-invalid-rate'),
  };
  const documents = z
    .object({
      ...shared,
      ...gates,
      max_drop: z
        .union([z.record(z.string(), z.number()), stringList])
        .optional()
        .describe('{"macro_f1": 0.02} or ["macro_f1=0.02"], as --max-drop'),
      baseline: z.string().optional().describe("a previous report.json (or its directory), as --baseline"),
      rewards: z.string().optional(),
      seed: z.number().int().min(0).max(MAX_SEED).optional(),
      bootstrap: z.number().int().nonnegative().max(MAX_BOOTSTRAP).optional(),
      lenient_ids: z.boolean().optional(),
      /** Only the canonical splitter exists (docs/eval.md, "Inputs" makes `intl` optional; it is not built), so any other value is refused rather than silently ignored. */
      sentencer: z.literal("canonical").optional(),
      sentences: z.enum(["mari", "punkt"]).optional().describe("sentence numbering of the slice, as --sentences"),
    })
    .strict();
  const pairs = z
    .object({ ...shared, ...gates, costs: z.string().optional(), grid: z.string().optional().describe('sweep grid: "default", "full" or a JSON file') })
    .strict();
  const evidence = z.object({ ...shared, ...gates }).strict();
  return z
    .object({ $schema: z.string().optional(), ...shared, documents: documents.optional(), pairs: pairs.optional(), evidence: evidence.optional() })
    .strict()
    .meta({ title: "mari.config.json", description: "Shared settings at the top; gates and task settings in the documents, pairs and evidence sections." });
}

type ConfigFile = Zod.infer<ReturnType<typeof buildConfigSchema>>;
type Section = NonNullable<ConfigFile["documents"]> & NonNullable<ConfigFile["pairs"]>;

export interface MariConfig extends Omit<Partial<Section>, "gate" | "max_drop" | "max_invalid_rate"> {
  /** The file read, or null when there was none (all defaults). */
  path: string | null;
  /** The task section's gate, max_drop and max_invalid_rate parsed, with source "config". */
  gates: GateSpec[];
}

/** The published JSON Schema of mari.config.json. */
export async function configJsonSchema(): Promise<object> {
  const { z } = await import("zod");
  return z.toJSONSchema(buildConfigSchema(z));
}

function list(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : typeof value === "string" ? [value] : value;
}

/** Keys that exist only inside a task section, for the message when one is put at the top. */
const SECTION_KEYS = new Set([
  "gate",
  "max_drop",
  "max_invalid_rate",
  "baseline",
  "rewards",
  "seed",
  "bootstrap",
  "lenient_ids",
  "sentencer",
  "sentences",
  "costs",
  "grid",
]);

/** The keys the config schema knows at `path` (the top, or a task section). */
function knownKeysAt(schema: unknown, path: readonly PropertyKey[]): string[] {
  type Node = { shape?: Record<string, unknown>; unwrap?: () => unknown };
  const unwrap = (node: unknown): Node => {
    let current = node as Node;
    while (current?.shape === undefined && typeof current?.unwrap === "function") current = current.unwrap() as Node;
    return current;
  };
  let node = unwrap(schema);
  for (const key of path) node = unwrap(node?.shape?.[String(key)]);
  return Object.keys(node?.shape ?? {});
}

function unknownKeyMessage(keys: readonly string[], path: readonly PropertyKey[], known: readonly string[]): string {
  return keys
    .map((key) => {
      if (path.length === 0 && SECTION_KEYS.has(key)) {
        return `"${key}" belongs in a task section: put it under "documents", "pairs" or "evidence" (e.g. {"documents": {"${key}": …}})`;
      }
      const where = path.length === 0 ? "at the top" : `in "${path.join(".")}"`;
      return `unknown key "${key}" ${where};${didYouMean(key, known) || ` known keys: ${known.join(", ")}`}`;
    })
    .join("; ");
}

/**
 * Loads a config file for `task` (the top-level settings plus that task's section; without a task,
 * the top-level settings only). With no `path`, reads ./mari.config.json when it exists (no file =
 * empty config). An explicit path that is missing, bad JSON, an unknown key or a bad gate is an
 * InputError naming the file. Paths inside the file (baseline, out, rewards, grid, costs) are
 * resolved against the file's directory. The whole file is validated, whatever the task.
 */
export async function loadMariConfig(path?: string, cwd: string = process.cwd(), task?: ConfigTask): Promise<MariConfig> {
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
    raw = parseJsonDocument(text);
  } catch (err) {
    throw new InputError(`config ${file}: not valid JSON: ${(err as Error).message}`);
  }
  const { z } = await import("zod");
  const schema = buildConfigSchema(z);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      if (issue.code === "unrecognized_keys") return unknownKeyMessage(issue.keys, issue.path, knownKeysAt(schema, issue.path));
      return `${issue.path.length ? issue.path.join(".") : "(top level)"}: ${issue.message}`;
    });
    throw new InputError(`config ${file}: ${problems.join("; ")}`);
  }
  const { $schema: _schema, documents: _d, pairs: _p, evidence: _e, ...top } = parsed.data;
  const wrap = <T>(key: string, fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof InputError) throw new InputError(`config ${file}: ${key}: ${err.message}`);
      throw err;
    }
  };
  // Every section's gates parse (a typo in another task's section is found now, not on its next run).
  const gatesOf = (name: ConfigTask): GateSpec[] => {
    const section = (parsed.data[name] ?? {}) as Partial<Section>;
    const origin = (key: string) => `config ${file}: ${name}.${key}`;
    const withOrigin =
      (key: string) =>
      (gate: GateSpec): GateSpec => ({ ...gate, origin: origin(key) });
    const gates = list(section.gate).map((text) => wrap(`${name}.gate`, () => withOrigin("gate")(parseGateFlag(text, "config"))));
    // The object form is read from the parsed JSON, not zod's copy: zod rebuilds records with
    // assignment, and `"__proto__": 0.1` would then vanish with its gate instead of being refused.
    const rawSection = (raw as Record<string, Record<string, unknown> | undefined>)[name];
    const maxDrop =
      section.max_drop === undefined || Array.isArray(section.max_drop) || typeof section.max_drop === "string"
        ? section.max_drop
        : (rawSection?.max_drop as Record<string, number>);
    if (maxDrop !== undefined) {
      const drops =
        Array.isArray(maxDrop) || typeof maxDrop === "string" ? list(maxDrop) : Object.entries(maxDrop).map(([metric, delta]) => `${metric}=${delta}`);
      for (const text of drops) gates.push(wrap(`${name}.max_drop`, () => withOrigin("max_drop")(parseMaxDropFlag(text, "config"))));
    }
    if (section.max_invalid_rate !== undefined) {
      const rate = String(section.max_invalid_rate);
      gates.push(wrap(`${name}.max_invalid_rate`, () => withOrigin("max_invalid_rate")(parseMaxInvalidRate(rate, "config"))));
    }
    return gates;
  };
  // Checked now, so a bad value is worded as the config key it is, not as the --report flag.
  if (top.report !== undefined) parseReportFormats(top.report, `config ${file}: report`);
  for (const name of CONFIG_TASKS) {
    const report = parsed.data[name]?.report;
    if (report !== undefined) parseReportFormats(report, `config ${file}: ${name}.report`);
  }
  const allGates = Object.fromEntries(CONFIG_TASKS.map((name) => [name, gatesOf(name)])) as Record<ConfigTask, GateSpec[]>;
  const section = task === undefined ? {} : ((parsed.data[task] ?? {}) as Partial<Section>);
  const { gate: _g, max_drop: _m, max_invalid_rate: _r, ...sectionOptions } = section;
  const base = dirname(file);
  const near = (p: string | undefined) => (p === undefined || isAbsolute(p) ? p : resolve(base, p));
  const config: MariConfig = { ...top, ...sectionOptions, path: file, gates: task === undefined ? [] : allGates[task] };
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
