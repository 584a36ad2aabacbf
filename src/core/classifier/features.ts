// Per-text feature extraction (docs/classifier.md): content tokens, the value-like
// subset, entities and the negation flag. Extracted once per text, so sweeps and judges can reuse
// a text's features across many comparisons.
import { extractEntities } from "./entities.js";
import { fingerprintOfLower, simpleLower } from "./text.js";
import { normalizeWord } from "./normalize-word.js";
import { EXTRA_STOPWORDS, NEGATORS, NUMBER_WORDS, STOPWORDS } from "./word-lists.js";

export interface TextFeatures {
  /** The identity-check form (§2). */
  readonly fingerprint: string;
  /** The lower-cased original text (before time normalisation): retro cues are searched here. */
  readonly lowerText: string;
  readonly tokens: ReadonlySet<string>;
  /** The tokens that are value-like (numbers, quoted, entity words). */
  readonly values: ReadonlySet<string>;
  /** The first 12 distinct entity keys. */
  readonly entities: ReadonlySet<string>;
  /** Whether any raw letter token is a negator. */
  readonly negated: boolean;
}

// ASCII `\b` and `\d` (no `u` flag), as in Go's RE2; the gap before am/pm is only space, \t, \n, \f, \r.
const AM_PM = /\b(\d{1,2})(?::(\d{2}))?[ \t\n\f\r]*(am|pm)\b/g;
const ZERO_PADDED_HOUR = /\b0(\d):(\d{2})\b/g;
// `u` so that {1,80} counts code points.
const QUOTED_SPAN = /"([^"]{1,80})"|`([^`]{1,80})`|'([^']{1,80})'/gu;
const HAS_QUOTE = /["`']/;
const TOKEN = /[a-z]+|[0-9]+(?:[.:][0-9]+)*/g;

function rewriteAmPm(_match: string, hour: string, minutes: string | undefined, suffix: string): string {
  const h = (Number(hour) % 12) + (suffix === "pm" ? 12 : 0);
  return `${h}:${minutes ?? "00"}`;
}

/** §3.2: `2:30pm` → `14:30`, then `02:00` → `2:00`. */
function normalizeTimes(lower: string): string {
  // Most texts hold no time: a substring search each is cheaper than the two regex scans.
  const hours = lower.includes("am") || lower.includes("pm") ? lower.replace(AM_PM, rewriteAmPm) : lower;
  return hours.includes(":") ? hours.replace(ZERO_PADDED_HOUR, "$1:$2") : hours;
}

/** §3.3: the raw tokens inside quoted spans (contraction apostrophes pair up too, as upstream). */
function quotedTokens(text: string): ReadonlySet<string> | null {
  if (!HAS_QUOTE.test(text)) return null;
  let quoted: Set<string> | null = null;
  for (const match of text.matchAll(QUOTED_SPAN)) {
    const inner = match[1] ?? match[2] ?? match[3]!;
    for (const token of inner.match(TOKEN) ?? []) (quoted ??= new Set()).add(token);
  }
  return quoted;
}

/** What a raw letter token contributes, independent of the text it is in. */
interface LetterToken {
  /** The number word's digits, or the normalised word. */
  token: string;
  isNumberWord: boolean;
  isNegator: boolean;
  /** Too short or a stopword after normalisation. */
  dropped: boolean;
}

// Memoised per raw token: this replaces five lookups and a stemming pass with one lookup. The
// first LETTER_TOKEN_CACHE_MAX words met are kept and no others: a stream whose texts keep bringing
// new words (names, codes) would otherwise refill it again and again, and each word kept lives long
// enough to be promoted to V8's old generation, which then fills with dropped entries until a full
// collection (bench/classify.mjs's mixed 1M-pair stream: 85–90 MB peak RSS when the memo was
// cleared at 50,000 words, 62.5–63 MB with the first 4,096 kept). A word not kept is only worked
// out again.
const LETTER_TOKEN_CACHE = new Map<string, LetterToken>();
const LETTER_TOKEN_CACHE_MAX = 4096;

function letterToken(raw: string): LetterToken {
  let info = LETTER_TOKEN_CACHE.get(raw);
  if (info === undefined) {
    const number = NUMBER_WORDS.get(raw);
    const token = number ?? normalizeWord(raw);
    info = { token, isNumberWord: number !== undefined, isNegator: NEGATORS.has(raw), dropped: isDropped(token) };
    if (LETTER_TOKEN_CACHE.size < LETTER_TOKEN_CACHE_MAX) LETTER_TOKEN_CACHE.set(raw, info);
  }
  return info;
}

/** §3.5 step 3, on the normalised form (so `does` → `doe` survives), digits included. */
function isDropped(token: string): boolean {
  return token.length < 2 || STOPWORDS.has(token) || EXTRA_STOPWORDS.has(token);
}

const NO_ENTITIES: ReadonlySet<string> = new Set();
const NO_VALUES: ReadonlySet<string> = new Set();

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

export function extractFeatures(text: string): TextFeatures {
  const lowerText = simpleLower(text);
  const entityList = extractEntities(text);
  let entityWords: Set<string> | null = null;
  for (const key of entityList) for (const word of key.split(" ")) (entityWords ??= new Set()).add(word);

  const normalized = normalizeTimes(lowerText);
  const quoted = quotedTokens(normalized);
  const tokens = new Set<string>();
  // Made on the first value-like token: many texts have none.
  let values: Set<string> | null = null;
  let negated = false;
  for (const raw of normalized.match(TOKEN) ?? []) {
    let value = (quoted !== null && quoted.has(raw)) || (entityWords !== null && entityWords.has(raw));
    let token: string;
    if (isDigit(raw.charCodeAt(0))) {
      if (isDropped(raw)) continue;
      token = raw;
      value = true;
    } else {
      const info = letterToken(raw);
      if (info.isNegator) negated = true; // before filtering: `not` and `no` are stopwords
      if (info.dropped) continue;
      token = info.token;
      if (info.isNumberWord || (entityWords !== null && entityWords.has(token))) value = true;
    }
    tokens.add(token);
    if (value) (values ??= new Set()).add(token);
  }
  return {
    fingerprint: fingerprintOfLower(lowerText),
    lowerText,
    tokens,
    values: values ?? NO_VALUES,
    entities: entityList.length === 0 ? NO_ENTITIES : new Set(entityList),
    negated,
  };
}
