// RevisionCost (docs/pairs.md, "RevisionCost"): what each wrong verdict costs a memory store, priced in four units.
// restatement → corroborate the old fact; update → retire it; distinct → store the new fact alone.
import { MAX_UNIT_PRICE } from "../limits.js";
import { PAIR_CLASSES, type RevisionClass } from "./classes.js";
import type { Confusion } from "./tally.js";

export interface UnitPrices {
  /** A live fact is wrongly retired (the costly error). */
  downrank_live: number;
  /** A genuine re-observation is not counted. */
  lost_corroboration: number;
  /** A stale fact stays live. */
  stale_kept: number;
  /** A fact is corroborated by a write that does not restate it. */
  false_corroboration: number;
}

export const DEFAULT_UNIT_PRICES: Readonly<UnitPrices> = Object.freeze({
  downrank_live: 2,
  lost_corroboration: 1,
  stale_kept: 1,
  false_corroboration: 1,
});

const PRICE_NAMES = Object.keys(DEFAULT_UNIT_PRICES) as (keyof UnitPrices)[];

export type CostMatrix = Record<RevisionClass, Record<RevisionClass, number>>;

/** The unit prices each (gold → predicted) cell incurs; a correct verdict costs nothing. */
export const COST_CELL_UNITS: Readonly<Record<RevisionClass, Record<RevisionClass, readonly (keyof UnitPrices)[]>>> = {
  restatement: { restatement: [], update: ["downrank_live", "lost_corroboration"], distinct: ["lost_corroboration"] },
  update: { restatement: ["stale_kept", "false_corroboration"], update: [], distinct: ["stale_kept"] },
  distinct: { restatement: ["false_corroboration"], update: ["downrank_live"], distinct: [] },
};

export function costMatrix(prices: UnitPrices): CostMatrix {
  const matrix = {} as CostMatrix;
  for (const gold of PAIR_CLASSES) {
    matrix[gold] = {} as Record<RevisionClass, number>;
    for (const pred of PAIR_CLASSES) {
      matrix[gold][pred] = COST_CELL_UNITS[gold][pred].reduce((sum, unit) => sum + prices[unit], 0);
    }
  }
  return matrix;
}

/** Total cost of a confusion matrix, summed in the fixed class order (deterministic to the bit). */
export function totalCost(confusion: Confusion, matrix: CostMatrix): number {
  let total = 0;
  for (const gold of PAIR_CLASSES) for (const pred of PAIR_CLASSES) total += confusion[gold][pred] * matrix[gold][pred];
  return total;
}

export class CostsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CostsError";
  }
}

/**
 * Validates a parsed `--costs` file: a JSON object holding only the four unit prices, each a
 * finite number ≥ 0. Prices left out keep their defaults, so a file may override just one.
 */
export function parseUnitPrices(value: unknown): UnitPrices {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CostsError(`costs must be a JSON object with any of ${PRICE_NAMES.join(", ")}`);
  }
  const prices: UnitPrices = { ...DEFAULT_UNIT_PRICES };
  for (const [key, price] of Object.entries(value)) {
    if (!(PRICE_NAMES as string[]).includes(key)) {
      throw new CostsError(`unknown unit price ${JSON.stringify(key)} (expected one of ${PRICE_NAMES.join(", ")})`);
    }
    if (typeof price !== "number" || !Number.isFinite(price) || price < 0 || price > MAX_UNIT_PRICE) {
      throw new CostsError(`unit price ${key} must be a finite number >= 0, got ${describePrice(price)} (at most ${MAX_UNIT_PRICE})`);
    }
    prices[key as keyof UnitPrices] = price === 0 ? 0 : price; // -0 prints as 0
  }
  return prices;
}

/** A rejected price as the user wrote it; a value too deep to print is not echoed. */
function describePrice(price: unknown): string {
  if (typeof price === "object" && price !== null) return Array.isArray(price) ? "a list" : "an object";
  return JSON.stringify(price) ?? String(price);
}
