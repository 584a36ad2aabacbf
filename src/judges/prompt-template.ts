// A user prompt template (`mari predict --prompt FILE`): the file's text with placeholders filled
// per case. The system message stays the built-in one. The template's SHA-256 names it in the
// dump's provenance and in the answer cache key.
import { createHash } from "node:crypto";
import { tagSentences } from "../core/document/index.js";
import type { JudgeCase } from "./types.js";

export interface PromptTemplate {
  text: string;
  /** SHA-256 (hex) of the template's UTF-8 bytes. */
  sha256: string;
}

/** Placeholder → its value for a case. */
const PLACEHOLDERS: Readonly<Record<string, (c: JudgeCase) => string>> = {
  document: (c) => tagSentences(c.sentences),
  sentence_count: (c) => String(c.sentences.length),
  case_id: (c) => JSON.stringify(c.id),
};

export const PROMPT_PLACEHOLDERS: readonly string[] = Object.keys(PLACEHOLDERS);

const PLACEHOLDER = /\{\{\s*([A-Za-z_]+)\s*\}\}/g;

/** Checks a template's text: it must use {{document}} and no unknown placeholder. Returns problems. */
export function promptTemplateProblems(text: string): string[] {
  const problems: string[] = [];
  const used = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    if (!Object.hasOwn(PLACEHOLDERS, name)) problems.push(`unknown placeholder {{${name}}} (known: ${PROMPT_PLACEHOLDERS.map((p) => `{{${p}}}`).join(", ")})`);
    used.add(name);
  }
  if (!used.has("document")) problems.push("the template does not use {{document}} (the tagged sentences)");
  return problems;
}

export function makePromptTemplate(text: string): PromptTemplate {
  return { text, sha256: createHash("sha256").update(text, "utf8").digest("hex") };
}

/** The template with every placeholder replaced (in one pass: a value is never re-expanded). */
export function fillPromptTemplate(template: PromptTemplate, judgeCase: JudgeCase): string {
  return template.text.replace(PLACEHOLDER, (whole, name: string) => PLACEHOLDERS[name]?.(judgeCase) ?? whole);
}
