// Reads a whole-file JSON input (config, costs, grids, reports): an unreadable file or bad JSON is
// an input error that names the file and what it was for.
import { readInputText } from "./input-file.js";
import { parseBoundedJson } from "./depth.js";
import { InputError, located } from "./errors.js";
import { findRepeatedKey } from "./json-keys.js";

/**
 * A whole JSON file's text (a leading BOM dropped) → its value. Throws a SyntaxError for bad JSON,
 * a value nested too deep, or a key repeated in one object (JSON.parse would keep the last).
 */
export function parseJsonDocument(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const value = parseBoundedJson(body);
  const repeated = findRepeatedKey(body);
  if (repeated) throw new SyntaxError(`line ${repeated.line}: the key ${JSON.stringify(repeated.key)} appears twice in one object (only one may be given)`);
  return value;
}

export async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readInputText(path);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(located(path, undefined, `cannot read the ${what} (${(err as NodeJS.ErrnoException).code ?? String(err)})`));
  }
  try {
    return parseJsonDocument(text);
  } catch (err) {
    throw new InputError(located(path, undefined, `the ${what} is not valid JSON: ${(err as Error).message}`));
  }
}
