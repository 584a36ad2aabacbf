// Reads a small whole-file JSON input (costs, grids): an unreadable file or bad JSON is an input
// error that names the file and what it was for.
import { readInputText } from "./input-file.js";
import { parseBoundedJson } from "./depth.js";
import { InputError, located } from "./errors.js";

export async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readInputText(path);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(located(path, undefined, `cannot read the ${what} (${(err as NodeJS.ErrnoException).code ?? String(err)})`));
  }
  try {
    return parseBoundedJson(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    throw new InputError(located(path, undefined, `the ${what} is not valid JSON: ${(err as Error).message}`));
  }
}
