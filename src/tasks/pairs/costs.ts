// Loads `--costs FILE` (docs/pairs.md, "RevisionCost"): a JSON object of unit prices, validated by the core.
import { CostsError, DEFAULT_UNIT_PRICES, parseUnitPrices, type UnitPrices } from "../../core/pairs/index.js";
import { InputError, located } from "../../io/errors.js";
import { readJsonFile } from "../../io/json-file.js";

export async function loadUnitPrices(path: string | undefined): Promise<UnitPrices> {
  if (path === undefined) return { ...DEFAULT_UNIT_PRICES };
  const value = await readJsonFile(path, "costs file");
  try {
    return parseUnitPrices(value);
  } catch (err) {
    if (err instanceof CostsError) throw new InputError(located(path, undefined, err.message));
    throw err;
  }
}
