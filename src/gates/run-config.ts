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
import { readInputText, STDIN_REFUSED } from "../io/input-file.js";
import { parseJsonDocument } from "../io/json-file.js";
import { dirname, isAbsolute, resolve } from "node:path";
import type { z as Zod } from "zod";
import { InputError } from "../io/errors.js";
import { parseReportFormats } from "../report/write.js";
import { OPTIONS, type ConfigKey, type OptionName, type OptionSpec } from "../core/options/index.js";
import { parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate, type GateSpec } from "./spec.js";

export const DEFAULT_CONFIG_FILE = "mari.config.json";

/** The task sections of the file. */
export const CONFIG_TASKS = ["documents", "pairs", "evidence"] as const;
export type ConfigTask = (typeof CONFIG_TASKS)[number];

/**
 * The file's layout: which options may be set where, by name; each key's name, type, bounds and
 * description are the option's own (src/core/options/). The top's keys may be set in any task
 * section too, to override.
 */
const TOP_KEYS = ["out", "report", "workers", "progress", "strict", "quiet"] as const satisfies readonly OptionName[];
const GATE_KEYS = ["gate", "maxInvalidRate"] as const satisfies readonly OptionName[];
const DOCUMENT_KEYS = ["maxDrop", "baseline", "rewards", "seed", "bootstrap", "lenientIds"] as const satisfies readonly OptionName[];
/** After `sentencer`, a key of the file alone (no flag sets it). */
const DOCUMENT_KEYS_LAST = ["sentences"] as const satisfies readonly OptionName[];
const PAIR_KEYS = ["costs", "grid"] as const satisfies readonly OptionName[];

type ConfigOptionName = (typeof TOP_KEYS | typeof GATE_KEYS | typeof DOCUMENT_KEYS | typeof DOCUMENT_KEYS_LAST | typeof PAIR_KEYS)[number];
type KeyOf<N extends ConfigOptionName> = (typeof OPTIONS)[N]["config"]["key"];

/** The zod schema of one option's config key, from its declaration. */
function keySchema(z: typeof Zod, spec: OptionSpec) {
  const config = spec.config!;
  const stringList = z.union([z.string(), z.array(z.string())]);
  const base = (() => {
    switch (config.value) {
      case "integer": {
        const integer = z.number().int();
        // An integer ≥ 1 is written positive(), as the published schema has always said it.
        const low = spec.min === 1 ? integer.positive() : integer.min(spec.min!);
        return low.max(spec.max!);
      }
      case "boolean":
        return z.boolean();
      case "choice":
        return z.enum(config.choices as [string, ...string[]]);
      case "string-list":
        return stringList;
      case "rate":
        return z.union([z.number(), z.string()]);
      case "drops":
        return z.union([z.record(z.string(), z.number()), stringList]);
      default:
        return z.string();
    }
  })();
  const optional = base.optional();
  return config.describe === undefined ? optional : optional.describe(config.describe);
}

function keys<const L extends readonly ConfigOptionName[]>(z: typeof Zod, names: L) {
  return Object.fromEntries(names.map((name) => [OPTIONS[name].config.key, keySchema(z, OPTIONS[name])])) as {
    [N in L[number] as KeyOf<N>]: ReturnType<typeof keySchema>;
  };
}

// zod is loaded only when a config is read: `mari --help` should not pay for it.
function buildConfigSchema(z: typeof Zod) {
  const shared = keys(z, TOP_KEYS);
  const gates = keys(z, GATE_KEYS);
  const documents = z
    .object({
      ...shared,
      ...gates,
      ...keys(z, DOCUMENT_KEYS),
      /** Only the canonical splitter exists (docs/eval.md, "Inputs" makes `intl` optional; it is not built), so any other value is refused rather than silently ignored. */
      sentencer: z.literal("canonical").optional(),
      ...keys(z, DOCUMENT_KEYS_LAST),
    })
    .strict();
  const pairs = z.object({ ...shared, ...gates, ...keys(z, PAIR_KEYS) }).strict();
  const evidence = z.object({ ...shared, ...gates }).strict();
  return z
    .object({ $schema: z.string().optional(), ...shared, documents: documents.optional(), pairs: pairs.optional(), evidence: evidence.optional() })
    .strict()
    .meta({ title: "mari.config.json", description: "Shared settings at the top; gates and task settings in the documents, pairs and evidence sections." });
}

/** A config key's value as the file writes it. */
type ValueOf<N extends ConfigOptionName> = (typeof OPTIONS)[N]["config"] extends { value: infer V; choices?: infer C }
  ? V extends "integer"
    ? number
    : V extends "boolean"
      ? boolean
      : V extends "choice"
        ? C extends readonly string[]
          ? C[number]
          : string
        : V extends "string-list"
          ? string | string[]
          : V extends "rate"
            ? number | string
            : V extends "drops"
              ? Record<string, number> | string | string[]
              : string
  : never;

type Section = { [N in ConfigOptionName as KeyOf<N>]?: ValueOf<N> | undefined } & { sentencer?: "canonical" | undefined };
type ConfigFile = Section & { $schema?: string | undefined; documents?: Section | undefined; pairs?: Section | undefined; evidence?: Section | undefined };

export interface MariConfig extends Omit<Section, "gate" | "max_drop" | "max_invalid_rate"> {
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
const SECTION_KEYS = new Set<string>([
  ...[...GATE_KEYS, ...DOCUMENT_KEYS].map((name) => OPTIONS[name].config.key),
  "sentencer",
  ...[...DOCUMENT_KEYS_LAST, ...PAIR_KEYS].map((name) => OPTIONS[name].config.key),
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
  if (path === "-") throw new InputError(`config ${STDIN_REFUSED}`);
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
  const parsed = schema.safeParse(raw) as { success: true; data: ConfigFile } | { success: false; error: Zod.ZodError };
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
  const settings = config as unknown as Record<string, unknown>;
  for (const name of [...TOP_KEYS, ...DOCUMENT_KEYS, ...PAIR_KEYS]) {
    const { key, value, choices } = OPTIONS[name].config as ConfigKey;
    const given = settings[key];
    if (typeof given !== "string") continue;
    // A path, unless it names one of the built-in values (`grid`: default, full).
    if (value === "path" || (value === "path-or-choice" && !choices?.includes(given))) settings[key] = near(given);
  }
  return config;
}

/** Flag value if given, else the config's, else the default: the one precedence rule. */
export function pickOption<T>(flag: T | undefined, config: T | undefined, fallback: T): T {
  return flag !== undefined ? flag : config !== undefined ? config : fallback;
}
