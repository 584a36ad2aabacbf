// Sweep grids (docs/pairs.md, "mari sweep PAIRS"): which classifier configs a sweep evaluates, in a fixed order (the row
// order of every sweep output).
import { MAX_GRID_CONFIGS } from "../limits.js";
import { DEFAULT_CONFIG, validateClassifierConfig, type ClassifierConfig } from "../classifier/index.js";

export const SWEEP_FIELDS = ["overlapFloor", "residueMax", "negOverlapFloor", "aliasPrefixMin"] as const;
export type SweepField = (typeof SWEEP_FIELDS)[number];
export type SweepValues = Record<SweepField, readonly number[]>;

/** The values docs/pairs.md, "mari sweep PAIRS" sweeps around the default. */
export const DEFAULT_SWEEP_VALUES: Readonly<SweepValues> = Object.freeze({
  overlapFloor: [0.4, 0.5, 0.6],
  residueMax: [1, 2, 3],
  negOverlapFloor: [0.5, 0.6, 0.75],
  aliasPrefixMin: [3, 4, 5],
});

export class GridError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GridError";
  }
}

function withField(config: ClassifierConfig, field: SweepField, value: number): ClassifierConfig {
  return { ...config, [field]: value };
}

/** One dimension at a time around the default: the default itself first, then each other value. */
export function defaultGrid(values: Readonly<SweepValues> = DEFAULT_SWEEP_VALUES): ClassifierConfig[] {
  const grid: ClassifierConfig[] = [{ ...DEFAULT_CONFIG }];
  for (const field of SWEEP_FIELDS) {
    for (const value of values[field]) {
      if (value !== DEFAULT_CONFIG[field]) grid.push(withField(DEFAULT_CONFIG, field, value));
    }
  }
  return grid;
}

/** The cartesian product, the last field varying fastest. */
export function fullGrid(values: Readonly<SweepValues> = DEFAULT_SWEEP_VALUES): ClassifierConfig[] {
  let grid: ClassifierConfig[] = [{ ...DEFAULT_CONFIG }];
  for (const field of SWEEP_FIELDS) {
    const next: ClassifierConfig[] = [];
    for (const config of grid) for (const value of values[field]) next.push(withField(config, field, value));
    grid = next;
  }
  return grid;
}

/**
 * A grid file: a JSON object of value lists per config field; fields left out stay at their
 * default; rows are the cartesian product. Unknown fields, non-lists, empty lists, non-numbers and
 * configs the classifier rejects are errors. Repeated values in a list are kept once.
 */
export function gridFromSpec(spec: unknown): ClassifierConfig[] {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
    throw new GridError(`a grid must be a JSON object of value lists, e.g. {"overlapFloor": [0.4, 0.5]}`);
  }
  const values = {} as Record<SweepField, number[]>;
  for (const field of SWEEP_FIELDS) values[field] = [DEFAULT_CONFIG[field]];
  const entries = Object.entries(spec);
  if (entries.length === 0) throw new GridError(`a grid must name at least one of ${SWEEP_FIELDS.join(", ")}`);
  for (const [field, list] of entries) {
    if (!(SWEEP_FIELDS as readonly string[]).includes(field)) {
      throw new GridError(`unknown grid field ${JSON.stringify(field)} (expected one of ${SWEEP_FIELDS.join(", ")})`);
    }
    if (!Array.isArray(list)) throw new GridError(`grid field ${field} must be a list of numbers`);
    if (list.length === 0) throw new GridError(`grid field ${field} has an empty list`);
    const unique: number[] = [];
    const seen = new Set<number>();
    if (list.length > MAX_GRID_CONFIGS) throw new GridError(`grid field ${field} has ${list.length} values; at most ${MAX_GRID_CONFIGS} configs are allowed`);
    for (const value of list) {
      if (typeof value !== "number" || !Number.isFinite(value)) {
        throw new GridError(`grid field ${field}: ${JSON.stringify(value) ?? String(value)} is not a finite number`);
      }
      if (!seen.has(value)) {
        seen.add(value);
        unique.push(value);
      }
    }
    values[field as SweepField] = unique;
  }
  const size = SWEEP_FIELDS.reduce((product, field) => product * values[field].length, 1);
  if (size > MAX_GRID_CONFIGS) {
    throw new GridError(`the grid has ${size} configs (the product of its list lengths); at most ${MAX_GRID_CONFIGS} are allowed`);
  }
  const grid = fullGrid(values);
  for (const config of grid) {
    try {
      validateClassifierConfig(config);
    } catch (err) {
      throw new GridError(`grid config ${formatConfig(config)} is not usable: ${(err as Error).message}`);
    }
  }
  return grid;
}

/** `overlapFloor=0.5 residueMax=2 …`: how a config is named in messages and tables. */
export function formatConfig(config: ClassifierConfig): string {
  return SWEEP_FIELDS.map((f) => `${f}=${config[f]}`).join(" ");
}

/**
 * How far a config is from the default: first the number of fields that differ, then the sum over
 * fields of |value − default| / |default| (|value| when the default is 0). Compared in that order.
 */
export function distanceFromDefault(config: ClassifierConfig): [fieldsDiffering: number, relativeDistance: number] {
  let differing = 0;
  let relative = 0;
  for (const field of SWEEP_FIELDS) {
    const value = config[field];
    const base = DEFAULT_CONFIG[field];
    if (value === base) continue;
    differing++;
    relative += base === 0 ? Math.abs(value) : Math.abs(value - base) / Math.abs(base);
  }
  return [differing, relative];
}
