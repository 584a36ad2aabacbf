// `--keep-special-tokens` and `--special-token TOK`: the two flags that set how a raw completion's end
// is read, shared by `mari eval` and `mari serve` so both read a completion alike.
import { LAYOUT_TAGS, type CompletionEndRule } from "../core/document/completion-end.js";
import { InputError } from "../io/errors.js";

export interface CompletionEndFlags {
  keepSpecialTokens?: boolean;
  specialToken?: string[];
}

/** The rule the flags ask for; undefined for the default (the built-in marker list). */
export function completionEndFromFlags(flags: CompletionEndFlags): CompletionEndRule | undefined {
  const extra = flags.specialToken ?? [];
  if (flags.keepSpecialTokens && extra.length > 0) throw new InputError("--keep-special-tokens and --special-token contradict each other: give one");
  if (extra.some((t) => t.length === 0)) throw new InputError("--special-token: a marker cannot be empty");
  const clash = extra.find(layoutClash);
  if (clash !== undefined) {
    throw new InputError(
      `--special-token ${JSON.stringify(clash)}: the completion layout uses it (${LAYOUT_TAGS.join(" ")}); removing it from a completion's end would break every completion's layout`,
    );
  }
  if (flags.keepSpecialTokens) return { keepSpecialTokens: true };
  return extra.length > 0 ? { specialTokens: extra } : undefined;
}

/**
 * Whether removing `token` from a completion's end could cut into the layout: it holds one of the
 * layout's tags, or is the end of one (`</answer>`, `answer>`, `>`), which every completion in the
 * layout ends with.
 */
function layoutClash(token: string): boolean {
  return LAYOUT_TAGS.some((tag) => token.includes(tag) || tag.endsWith(token));
}
