// Generates reward-request items of every shape a dump line can take (raw completions, structured,
// cache shape; valid and each kind of invalid), as raw JSON text so that floats such as `2.0` survive.
// Deterministic for a seed.
import type { SliceCase } from "../../src/io/slice.js";

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface GeneratedItem {
  /** The item as JSON text (one dump line, one element of `items`). */
  text: string;
  /** The line-level reason a dump gives it (not scored by eval), or null when eval scores it. */
  lineLevel: "bad_case_id" | "not_an_object" | "bad_run_key" | "unknown_case_id" | null;
  /** Set for raw-completion items: what /get_reward sends for it. */
  completion?: { caseId: string; text: string };
}

const J = JSON.stringify;

function completionText(think: string, judgment: string, evidence: string): string {
  return `<think>\n${think}\n</think>\n<answer>\nJudgment: ${judgment}\nEvidence: ${evidence}\n</answer>`;
}

export function generateItems(cases: readonly SliceCase[], count: number, seed = 1): GeneratedItem[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const occurrences = new Map<string, number>();
  const items: GeneratedItem[] = [];
  for (let i = 0; i < count; i++) {
    const c = pick(cases);
    const n = c.sentences.length;
    const run = occurrences.get(c.id) ?? 0;
    occurrences.set(c.id, run + 1);
    const some = (): number => 1 + Math.floor(rand() * n);
    const ids = c.label && rand() < 0.6 ? [...c.gold] : [some(), some()];
    const positive = rand() < 0.5 ? c.label : !c.label;
    const ref = (): string =>
      rand() < 0.1 ? pick([`[${n + 1}]`, "[2023]", "[0]"]) : pick([`[${some()}]`, `[${some()}]-[${some()}]`, `[1-${n}]`, "", "[3 - 5]", `[${some()}-${n}]`]);
    const reasoning = `Compared ${ref()} with ${ref()}.`;
    const base = `"case_id":${J(c.id)},"run":${run}`;
    const kind = Math.floor(rand() * 16);
    let text: string;
    let lineLevel: GeneratedItem["lineLevel"] = null;
    let completion: string | undefined;
    switch (kind) {
      case 0:
      case 1:
      case 2: // a completion citing IDs
        completion = completionText(
          reasoning,
          positive ? pick(["yes", "Yes", "true"]) : pick(["no", "NO", "false"]),
          positive ? J(ids) : pick(["[]", "[]", J(ids)]),
        );
        break;
      case 3: // a completion quoting sentences (or text that is not in the document)
        completion = completionText(reasoning, "yes", J([pick(c.sentences).slice(0, 40), rand() < 0.2 ? "words found nowhere at all" : pick(c.sentences)]));
        break;
      case 4: // a completion off the exact layout
        completion = pick([
          `${completionText(reasoning, "yes", J(ids))}\n`,
          `Sure! ${completionText(reasoning, "no", "[]")}`,
          completionText(reasoning, "maybe", "[]"),
          completionText(reasoning, "yes", "[2.0]"),
          completionText(reasoning, "yes", "3, 4"),
          `<answer>\nJudgment: yes\nEvidence: ${J(ids)}\n</answer>`,
          completionText(`${reasoning}</think><think>`, "yes", J(ids)),
          completionText("", "no", "[]"),
        ]);
        break;
      case 5:
      case 6:
      case 7: // structured, mostly valid
        text = `{${base},"judgment":${positive ? pick(["true", '"yes"', '"TRUE"']) : pick(["false", '"no"'])},"evidence_sentence_ids":${positive ? J(ids) : "[]"},"reasoning":${J(reasoning)}}`;
        break;
      case 8: // structured with bad evidence
        text = `{${base},"judgment":true,"evidence_sentence_ids":${pick(['["3"]', "[2.0]", "[1e0]", `[${n + 1}]`, "[0]", "[true]", '"1"', "{}", "null", "[]"])}}`;
        break;
      case 9: // structured with a bad judgment or reasoning
        text = `{${base},"judgment":${pick(['"maybe"', "1", "null", '" yes"', "[true]"])},"evidence_sentence_ids":[1]}`;
        if (rand() < 0.5) text = `{${base},"judgment":false,"reasoning":${pick(["5", "[1]", '"[0]"', J(`[${n + 2}]`), "null"])}}`;
        break;
      case 10: // negative with evidence, positive without; `id` alias; `sample` run key
        text = pick([
          `{${base},"judgment":false,"evidence_sentence_ids":[1]}`,
          `{${base},"judgment":true}`,
          `{"id":${J(c.id)},"run":${J(String(run))},"judgment":"no"}`,
        ]);
        break;
      case 11: // the cache shape
        text =
          rand() < 0.8
            ? `{${base},"prediction":{"judgment":${positive},"evidence_sentence_ids":${positive ? J(ids) : "[]"},"reasoning":${J(reasoning)}}}`
            : `{${base},"prediction":${pick(['"yes"', "[1]", "null"])}}`;
        break;
      case 12: // the cache shape holding a completion
        completion = undefined;
        text = `{${base},"prediction":{"completion":${J(completionText(reasoning, positive ? "yes" : "no", positive ? J(ids) : "[]"))}}}`;
        break;
      case 13: // not scored: no usable case id, or not an object
        text = pick([`{"judgment":true}`, `{"case_id":7,"judgment":true}`, "[1,2]", "42", '"text"', "null"]);
        lineLevel = text.startsWith("{") ? "bad_case_id" : "not_an_object";
        break;
      case 14: // not scored: a case id the slice does not have
        text = `{"case_id":${J(`${c.id}-missing`)},"judgment":true,"evidence_sentence_ids":[1]}`;
        lineLevel = "unknown_case_id";
        break;
      default: // not scored: a run key that is neither a string nor an integer
        text = `{"case_id":${J(c.id)},"run":${pick(["1.5", "true", "{}", "[0]"])},"judgment":true}`;
        lineLevel = "bad_run_key";
    }
    if (completion !== undefined) {
      items.push({ text: `{${base},"completion":${J(completion)}}`, lineLevel, completion: { caseId: c.id, text: completion } });
    } else {
      items.push({ text: text!, lineLevel });
    }
  }
  return items;
}
