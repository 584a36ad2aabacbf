// Finds the slice case a prompt is about from the tagged document inside it, for trainers that send
// no case id (OpenRLHF without --data.label_key sends "" labels). Every case's tagged text
// (`[1] … [2] …`, whitespace runs folded to one space) is indexed by its first KEY_LENGTH characters;
// a prompt is searched at each `[1] ` it holds, and the longest tagged text found there wins.
import { tagSentences } from "../core/document/sentences.js";
import type { SliceCase } from "../io/slice.js";

const KEY_LENGTH = 64;

/**
 * Every run of white space as one space. Matching only what changes (a longer run, or a lone
 * non-space white character) gives the same text as replacing every `\s+`, and is ~40× faster on
 * prose, where most runs are already one space.
 */
function foldSpaces(text: string): string {
  return text.replace(/\s{2,}|[^\S ]/g, " ");
}

/** What a case is found by: its tagged text (`[1] … [2] …`) with white space folded. */
export function findableText(sentences: readonly string[]): string {
  return foldSpaces(tagSentences(sentences));
}

export type FindResult = { index: number } | { problem: "no_document_in_prompt" | "ambiguous_document"; message: string };

export class DocumentFinder {
  private readonly byKey = new Map<string, number[]>();
  /** Cases whose tagged text is shorter than a key: compared one by one. */
  private readonly short: number[] = [];
  private readonly texts: string[];

  /** `texts`: each case's `findableText`, when already computed (a compiled slice carries them). */
  constructor(
    private readonly cases: readonly Pick<SliceCase, "id" | "sentences">[],
    texts?: string[],
  ) {
    this.texts = texts ?? cases.map((c) => findableText(c.sentences));
    this.texts.forEach((text, i) => {
      if (text.length < KEY_LENGTH) {
        this.short.push(i);
        return;
      }
      const key = text.slice(0, KEY_LENGTH);
      const list = this.byKey.get(key);
      if (list) list.push(i);
      else this.byKey.set(key, [i]);
    });
  }

  find(prompt: string): FindResult {
    const text = foldSpaces(prompt);
    let best: number[] = [];
    let bestLength = 0;
    const consider = (i: number, at: number): void => {
      const tagged = this.texts[i]!;
      if (tagged.length < bestLength || !text.startsWith(tagged, at)) return;
      if (tagged.length > bestLength) {
        best = [];
        bestLength = tagged.length;
      }
      if (!best.includes(i)) best.push(i);
    };
    for (let at = text.indexOf("[1] "); at !== -1; at = text.indexOf("[1] ", at + 1)) {
      for (const i of this.byKey.get(text.slice(at, at + KEY_LENGTH)) ?? []) consider(i, at);
      for (const i of this.short) consider(i, at);
    }
    if (best.length === 1) return { index: best[0]! };
    if (best.length === 0) {
      return { problem: "no_document_in_prompt", message: "no case id, and the prompt holds no tagged document of the slice ([1] … [n] as mari tags it)" };
    }
    const ids = best.slice(0, 3).map((i) => JSON.stringify(this.cases[i]!.id));
    return {
      problem: "ambiguous_document",
      message: `no case id, and the prompt's document is the text of ${best.length} cases (${ids.join(", ")}): send the case id`,
    };
  }
}
