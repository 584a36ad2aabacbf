// Flag parsers more than one command uses, in one place so commands do not import each other.
import { boundedInteger } from "../io/bounded-flag.js";

/** Commander's accumulator for a repeatable flag. */
export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** An optional integer flag within [min, max] (every count a user types has a documented bound); undefined when absent. */
export function integerFlag(name: string, text: string | undefined, min: number, max: number): number | undefined {
  return text === undefined ? undefined : boundedInteger(name, text, min, max);
}
