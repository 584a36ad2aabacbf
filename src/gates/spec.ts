// What a gate is and how the command line spells one (docs/reports.md, "Gates"). Gates are data:
// parsed here from flags or config, evaluated against a finished report in evaluate.ts.
import { InputError } from "../io/errors.js";

export type GateKind = "min" | "max" | "max_drop" | "max_invalid_rate";

export interface GateSpec {
  kind: GateKind;
  /** A headline metric name (`accuracy`), or a dotted path into the report (`setcons.judgment`). */
  metric: string;
  threshold: number;
  /** max_invalid_rate only: the threshold is a number of invalid predictions, not a fraction. */
  isCount?: boolean;
  source: "cli" | "config" | "default";
  /** Why the gate exists (task defaults), shown in the result's detail. */
  note?: string;
  /** Config gates only: the file and key they came from (`mari.config.json documents.gate`), named in errors. */
  origin?: string;
}

// Letters, digits, `_`, and dots between name parts: `macro_f1`, `setcons.judgment`, `majority.accuracy`.
const METRIC_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_][A-Za-z0-9_-]*)*$/;
// A plain decimal number (no hex, no "Infinity", no empty string, which Number() would accept).
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function parseDecimal(text: string, flag: string, whole: string): number {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) throw new InputError(`${flag} "${whole}": "${trimmed}" is not a number`);
  return Number(trimmed);
}

function checkMetric(name: string, flag: string, whole: string): string {
  if (!METRIC_NAME.test(name)) {
    throw new InputError(`${flag} "${whole}": "${name}" is not a metric name (letters, digits, _ and dots, e.g. accuracy or setcons.judgment)`);
  }
  return name;
}

/** The canonical name a gate is reported under (also used to spot flags overriding config). */
export function gateName(gate: Pick<GateSpec, "kind" | "metric" | "threshold" | "isCount">): string {
  switch (gate.kind) {
    case "min":
      return `${gate.metric}>=${gate.threshold}`;
    case "max":
      return `${gate.metric}<=${gate.threshold}`;
    case "max_drop":
      return `max_drop ${gate.metric}=${gate.threshold}`;
    case "max_invalid_rate":
      return gate.isCount ? `max_invalid_count=${gate.threshold}` : `max_invalid_rate=${gate.threshold}`;
  }
}

/** `--gate accuracy>=0.6` (a minimum) or `--gate revision_cost<=0.4` (a maximum). */
export function parseGateFlag(text: string, source: GateSpec["source"] = "cli"): GateSpec {
  const flag = source === "config" ? "config gate" : "--gate";
  const match = /^\s*([^<>=\s]+)\s*(>=|<=)\s*(.*)$/.exec(text);
  if (!match) {
    // Without quotes the shell takes `>` as a redirect: `--gate accuracy>=0.6` arrives as "accuracy"
    // and leaves a file named "=0.6" behind.
    const hint =
      source === "cli" ? `; quote it, e.g. --gate 'accuracy>=0.6' (unquoted, the shell reads > as a redirect and leaves a stray file named like "=0.6")` : "";
    throw new InputError(`${flag} "${text}": expected METRIC>=VALUE or METRIC<=VALUE (e.g. accuracy>=0.6)${hint}`);
  }
  const metric = checkMetric(match[1]!, flag, text);
  const threshold = parseDecimal(match[3]!, flag, text);
  return { kind: match[2] === ">=" ? "min" : "max", metric, threshold, source };
}

/** `--max-drop macro_f1=0.02`: the metric may fall by at most 0.02 against the baseline. */
export function parseMaxDropFlag(text: string, source: GateSpec["source"] = "cli"): GateSpec {
  const flag = source === "config" ? "config max_drop" : "--max-drop";
  const match = /^\s*([^=\s]+)\s*=\s*(.*)$/.exec(text);
  if (!match) throw new InputError(`${flag} "${text}": expected METRIC=DELTA (e.g. macro_f1=0.02)`);
  const metric = checkMetric(match[1]!, flag, text);
  const threshold = parseDecimal(match[2]!, flag, text);
  if (threshold < 0) throw new InputError(`${flag} "${text}": the allowed drop must be ≥ 0`);
  return { kind: "max_drop", metric, threshold, source };
}

/**
 * `--max-invalid-rate R`: how many format-invalid predictions are tolerated.
 * - a number in [0, 1] is a fraction of all scored predictions (`0.05`, and `1` = any rate);
 * - `N%` is a percentage (`5%` = 0.05);
 * - an integer > 1 is a count (`5` = at most five invalid predictions);
 * - `count:N` is a count for any integer N ≥ 0 (`count:0`, `count:1`), `rate:R` a fraction.
 */
export function parseMaxInvalidRate(text: string, source: GateSpec["source"] = "cli"): GateSpec {
  const flag = source === "config" ? "config max_invalid_rate" : "--max-invalid-rate";
  const trimmed = text.trim();
  const gate = (threshold: number, isCount: boolean): GateSpec => ({ kind: "max_invalid_rate", metric: "invalid_rate", threshold, isCount, source });
  const explicit = /^(count|rate)\s*:\s*(.*)$/i.exec(trimmed);
  if (explicit) {
    const value = parseDecimal(explicit[2]!, flag, text);
    if (explicit[1]!.toLowerCase() === "count") {
      if (!Number.isInteger(value) || value < 0) throw new InputError(`${flag} "${text}": a count must be an integer ≥ 0`);
      return gate(value, true);
    }
    if (value < 0 || value > 1) throw new InputError(`${flag} "${text}": a rate must be between 0 and 1`);
    return gate(value, false);
  }
  if (trimmed.endsWith("%")) {
    const percent = parseDecimal(trimmed.slice(0, -1), flag, text);
    if (percent < 0 || percent > 100) throw new InputError(`${flag} "${text}": a percentage must be between 0 and 100`);
    return gate(percent / 100, false);
  }
  const value = parseDecimal(trimmed, flag, text);
  if (value < 0) throw new InputError(`${flag} "${text}": must be ≥ 0`);
  if (value <= 1) return gate(value, false);
  if (!Number.isInteger(value)) {
    throw new InputError(`${flag} "${text}": above 1 the value is a count and must be an integer (use 5% or 0.05 for a rate)`);
  }
  return gate(value, true);
}

/**
 * Combines gate lists, highest priority first (flags, then config, then task defaults): a gate
 * of the same kind on the same metric in a later list is dropped, so flags win over config.
 */
export function combineGates(...lists: ReadonlyArray<readonly GateSpec[]>): GateSpec[] {
  const taken = new Set<string>();
  const result: GateSpec[] = [];
  for (const list of lists) {
    const fromThisList = new Set<string>();
    for (const gate of list) {
      const key = `${gate.kind}\u0000${gate.metric}`;
      if (taken.has(key)) continue;
      fromThisList.add(key);
      result.push(gate);
    }
    for (const key of fromThisList) taken.add(key);
  }
  return result;
}
