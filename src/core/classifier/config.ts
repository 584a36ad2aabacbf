// Classifier thresholds (docs/classifier.md) and their validation: an unusable config is
// rejected with a message that names the field, rather than silently classifying everything alike.

export interface ClassifierConfig {
  /** Minimum overlap coefficient |shared| / min(|N|, |O|) below which a pair is distinct. */
  overlapFloor: number;
  /** Maximum number of unexplained new (and old) tokens a value swap or polarity rule tolerates. */
  residueMax: number;
  /** Minimum containment of the new text in the old for the polarity rules. */
  negOverlapFloor: number;
  /** Minimum length of the shorter token for a prefix alias (`postgr` ~ `postgresql`). */
  aliasPrefixMin: number;
}

export const DEFAULT_CONFIG: Readonly<ClassifierConfig> = Object.freeze({
  overlapFloor: 0.5,
  residueMax: 2,
  negOverlapFloor: 0.6,
  aliasPrefixMin: 4,
});

export class ClassifierConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ClassifierConfigError";
  }
}

type ConfigKey = keyof ClassifierConfig;

interface FieldRule {
  integer: boolean;
  min: number;
  max: number;
  /** Whether `min` itself is allowed. */
  minInclusive: boolean;
  meaning: string;
}

const FIELD_RULES: Readonly<Record<ConfigKey, FieldRule>> = {
  // A floor of 0 would let any two texts sharing two words through; above 1 nothing passes.
  overlapFloor: { integer: false, min: 0, max: 1, minInclusive: false, meaning: "a fraction in (0, 1]" },
  residueMax: { integer: true, min: 0, max: 1000, minInclusive: true, meaning: "an integer ≥ 0" },
  negOverlapFloor: { integer: false, min: 0, max: 1, minInclusive: false, meaning: "a fraction in (0, 1]" },
  // An empty prefix would make every value an alias of every longer one.
  aliasPrefixMin: { integer: true, min: 1, max: 1000, minInclusive: true, meaning: "an integer ≥ 1" },
};

export const CONFIG_KEYS = Object.keys(FIELD_RULES) as readonly ConfigKey[];

function checkField(key: ConfigKey, value: unknown): number {
  const rule = FIELD_RULES[key];
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new ClassifierConfigError(`classifier config: ${key} must be ${rule.meaning}, got ${JSON.stringify(value) ?? String(value)}`);
  }
  const tooLow = rule.minInclusive ? value < rule.min : value <= rule.min;
  if ((rule.integer && !Number.isInteger(value)) || tooLow || value > rule.max) {
    throw new ClassifierConfigError(`classifier config: ${key} must be ${rule.meaning}, got ${value}`);
  }
  return value;
}

/**
 * Checks a config object; fields left out take their default (so `{residueMax: 1}` is the
 * default with one change). Unknown keys, wrong types and out-of-range values are errors.
 */
export function validateClassifierConfig(config: unknown): ClassifierConfig {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw new ClassifierConfigError("classifier config must be an object with fields " + CONFIG_KEYS.join(", "));
  }
  const record = config as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(FIELD_RULES, key)) {
      throw new ClassifierConfigError(`classifier config: unknown field "${key}" (expected ${CONFIG_KEYS.join(", ")})`);
    }
  }
  const result = { ...DEFAULT_CONFIG };
  for (const key of CONFIG_KEYS) {
    if (Object.hasOwn(record, key) && record[key] !== undefined) result[key] = checkField(key, record[key]);
  }
  return result;
}

/** `overlap_floor`, `OverlapFloor` and `overlap-floor` all name `overlapFloor`. */
function canonicalKey(name: string): ConfigKey | undefined {
  const folded = name.replace(/[-_]/g, "").toLowerCase();
  return CONFIG_KEYS.find((key) => key.toLowerCase() === folded);
}

/** Parses `--config key=value` assignments on top of the defaults. */
export function parseConfigAssignments(assignments: readonly string[]): ClassifierConfig {
  const partial: Record<string, unknown> = {};
  for (const assignment of assignments) {
    const eq = assignment.indexOf("=");
    if (eq <= 0) throw new ClassifierConfigError(`--config expects key=value, got "${assignment}"`);
    const name = assignment.slice(0, eq).trim();
    const text = assignment.slice(eq + 1).trim();
    const key = canonicalKey(name);
    if (key === undefined) {
      throw new ClassifierConfigError(`--config: unknown key "${name}" (expected ${CONFIG_KEYS.join(", ")})`);
    }
    const value = text === "" ? Number.NaN : Number(text);
    if (!Number.isFinite(value)) {
      throw new ClassifierConfigError(`--config: ${key} must be ${FIELD_RULES[key].meaning}, got "${text}"`);
    }
    partial[key] = value;
  }
  return validateClassifierConfig(partial);
}
