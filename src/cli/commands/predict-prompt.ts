// `mari predict --prompt FILE`: the prompt template flag every OpenAI mode reads (live, batch
// requests, batch results), checked before any work.
import { readFile } from "node:fs/promises";
import { InputError } from "../../io/errors.js";
import { makePromptTemplate, promptTemplateProblems, type PromptTemplate } from "../../judges/prompt-template.js";

/**
 * Reads and checks `--prompt FILE`. With JSON mode the template must say "JSON": OpenAI refuses a
 * `response_format: json_object` request whose messages never mention JSON, and a prompt that does
 * not ask for the JSON answer leaves the model to guess the shape the answer parser needs.
 */
export async function loadPromptFlag(path: string | undefined, jsonMode: boolean): Promise<PromptTemplate | undefined> {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new InputError(`--prompt ${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const problems = promptTemplateProblems(text);
  if (jsonMode && !/json/i.test(text)) {
    problems.push(
      "with JSON mode (response_format json_object) the prompt must contain the word JSON: OpenAI refuses such a request otherwise, and the model must be asked for the JSON answer; ask for it in the template, or pass --no-json-mode",
    );
  }
  if (problems.length > 0) throw new InputError(`--prompt ${path}: ${problems.join("; ")}`);
  return makePromptTemplate(text);
}
