// One parser for every bounded integer flag and config value: the bound is in the message.
import { InputError } from "./errors.js";

/** Parses `text` as an integer in [min, max]; `name` is the flag or config key shown in the message. */
export function boundedInteger(name: string, text: string, min: number, max: number): number {
  const trimmed = text.trim();
  const value = /^-?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new InputError(`${name} "${text}": expected an integer from ${min} to ${max}`);
  }
  return value;
}

/** The same bound applied to a number read from a config file. */
export function checkBoundedInteger(name: string, value: number, min: number, max: number): number {
  return boundedInteger(name, String(value), min, max);
}
