// Flag parsers more than one command uses, in one place so commands do not import each other.
import { boundedInteger } from "../io/bounded-flag.js";

/** Commander's accumulator for a repeatable flag. */
export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** An optional integer flag within [min, max]; undefined when absent. */
export function integerFlag(name: string, text: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  return text === undefined ? undefined : boundedInteger(name, text, min, max);
}
