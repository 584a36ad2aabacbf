// What one command-line option is, declared once: its flag, value name, help, default, bound and
// config-file key (where the key may stand is the config file's layout: src/gates/run-config.ts). The commander options (src/cli/options/), the mari.config.json schema
// (src/gates/run-config.ts), the defaults the tasks fall back to and the docs' flag tables
// (scripts/write-option-tables.mjs) are all read from these declarations.

/** How a config key's value is written in mari.config.json. */
export type ConfigValue =
  | "integer"
  | "boolean"
  | "string"
  | "path"
  /** A path or one of the built-in names in `choices`. */
  | "path-or-choice"
  | "choice"
  /** One string or an array of them. */
  | "string-list"
  /** A number or a string (`0.05`, `"5%"`, `5`, `"count:1"`). */
  | "rate"
  /** `{metric: delta}`, or `"metric=delta"` strings. */
  | "drops";

export interface ConfigKey {
  readonly key: string;
  readonly value: ConfigValue;
  /** The values a "choice" key takes. */
  readonly choices?: readonly string[];
  /** The schema's description of the key, when it has one. */
  readonly describe?: string;
}

export interface OptionSpec {
  /** The long flag, e.g. `--bootstrap` (or `--no-json-mode` for a flag that turns a default off). */
  readonly flag: `--${string}`;
  /** The value's name in help, e.g. `<b>`; absent for a boolean flag. */
  readonly value?: `<${string}>`;
  /** The help text; one per command when commands describe it differently ("*": every other command). */
  readonly help: string | Readonly<Record<string, string>>;
  /** The value used when neither the flag nor the config gives one. */
  readonly default?: number | string | boolean;
  /** How help writes the default, when not as the value itself (e.g. "all"), or a rule rather than a value. */
  readonly defaultText?: string;
  /** False when the help text already says the default in its own words. */
  readonly showDefault?: boolean;
  /** The inclusive bounds of an integer option. */
  readonly min?: number;
  readonly max?: number;
  /** The only values accepted (commander refuses the others and lists them in help). */
  readonly choices?: readonly string[];
  /** Given several times, the values are collected in order. */
  readonly repeatable?: boolean;
  /** Required on every run. */
  readonly mandatory?: boolean;
  /** Left out of help (testing knobs, deprecated spellings). */
  readonly hidden?: boolean;
  /** The mari.config.json key that sets the same thing, if any. */
  readonly config?: ConfigKey;
  /**
   * The docs' flag tables, per table ("*": every other): a command (`eval`) or a command as one
   * page describes it (`eval/pairs`); several rows where the option's values differ much
   * (scripts/write-option-tables.mjs).
   */
  readonly doc?: Readonly<Record<string, OptionDoc | readonly OptionDoc[]>>;
}

/** One row of a docs flag table. */
export interface OptionDoc {
  /** The flag as the docs write it, e.g. "`--bootstrap B`". */
  readonly usage: string;
  readonly example?: string;
  /** The default column of tables that have one, when not the option's default as help writes it. */
  readonly default?: string;
  /** `{default}` stands for the option's default, as in help texts. */
  readonly meaning: string;
}

/**
 * The help text of `spec` as command `command` shows it, the default written "(default X)": where
 * the text says `{default}`, there; otherwise at its end.
 */
export function optionHelp(spec: OptionSpec, command: string): string {
  const text = typeof spec.help === "string" ? spec.help : (spec.help[command] ?? spec.help["*"]);
  if (text === undefined) throw new Error(`${spec.flag}: no help text for command ${command}`);
  const shown = defaultShown(spec);
  if (text.includes("{default}")) return withDefault(spec, text);
  return shown === undefined ? text : `${text} (default ${shown})`;
}

/** `text` with `{default}` replaced by the option's default as help writes it. */
export function withDefault(spec: OptionSpec, text: string): string {
  return text.replace("{default}", defaultShown(spec) ?? "");
}

/** The default as help writes it, or undefined when help does not write it. */
export function defaultShown(spec: OptionSpec): string | undefined {
  if (spec.showDefault === false || typeof spec.default === "boolean") return undefined;
  return spec.defaultText ?? (spec.default === undefined ? undefined : String(spec.default));
}
