// Punkt sentence boundaries as nltk 3.8's `sent_tokenize` gives them (PunktSentenceTokenizer with
// trained parameters, default English language variables). RRC-built prompts number sentences
// this way, so evidence ids from such prompts only mean something under the same split. Pure: the
// parameters are passed in (src/io/punkt-english.ts reads the shipped English ones).
//
// Python's regular expressions and string methods are reproduced where they differ from
// JavaScript's: `\s` is Python's whitespace set, `\w`/`\d` are Unicode classes, `$` never matches
// before a line break inside a line, `str.isupper()` is the Uppercase property.

import { isPythonWhitespace, PYTHON_WHITESPACE, stripPythonWhitespace } from "../python/whitespace.js";

/** What a trained Punkt model holds (nltk's PunktParameters). */
export interface PunktParameters {
  /** Abbreviation types, lower case without the final period ("dr", "u.s"). */
  readonly abbrevTypes: ReadonlySet<string>;
  /** Collocations (type before a period, type after), as `before + "\t" + after`. */
  readonly collocations: ReadonlySet<string>;
  /** Types that often start a sentence. */
  readonly sentStarters: ReadonlySet<string>;
  /** Orthographic context flags per type (absent → 0). */
  readonly orthoContext: ReadonlyMap<string, number>;
}

/** The texts of nltk's punkt_tab files for one language. */
export interface PunktParameterTexts {
  abbrevTypes: string;
  collocations: string;
  sentStarters: string;
  orthoContext: string;
}

// Lines exactly as written: an entry may end in a space (the English ". . ").
function lines(text: string): string[] {
  return text.split("\n").filter((line) => line !== "");
}

function tabFields(line: string, count: number, file: string): string[] {
  const fields = line.split("\t");
  if (fields.length !== count) throw new Error(`punkt ${file}: expected ${count} tab-separated fields in ${JSON.stringify(line)}`);
  return fields;
}

/** Parses nltk's punkt_tab format: one entry a line, tab-separated fields in the `.tab` files. */
export function parsePunktParameters(texts: PunktParameterTexts): PunktParameters {
  const orthoContext = new Map<string, number>();
  for (const line of lines(texts.orthoContext)) {
    const [type, flags] = tabFields(line, 2, "ortho_context.tab");
    const value = Number(flags);
    if (!Number.isInteger(value) || value < 0) throw new Error(`punkt ortho_context.tab: bad flags in ${JSON.stringify(line)}`);
    orthoContext.set(type!, value);
  }
  return {
    abbrevTypes: new Set(lines(texts.abbrevTypes)),
    collocations: new Set(lines(texts.collocations).map((line) => tabFields(line, 2, "collocations.tab").join("\t"))),
    sentStarters: new Set(lines(texts.sentStarters)),
    orthoContext,
  };
}

// Orthographic context flags (nltk's _ORTHO_*): where a type was seen, and with which case.
const ORTHO_BEG_UC = 1 << 1;
const ORTHO_MID_UC = 1 << 2;
const ORTHO_UNK_UC = 1 << 3;
const ORTHO_BEG_LC = 1 << 4;
const ORTHO_MID_LC = 1 << 5;
const ORTHO_UNK_LC = 1 << 6;
const ORTHO_UC = ORTHO_BEG_UC + ORTHO_MID_UC + ORTHO_UNK_UC;
const ORTHO_LC = ORTHO_BEG_LC + ORTHO_MID_LC + ORTHO_UNK_LC;

// Python's `\s` and `\S` as classes (JavaScript's `\s` is a different set).
const WS_CLASS = Array.from(PYTHON_WHITESPACE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
const S = `[${WS_CLASS}]`;
const NS = `[^${WS_CLASS}]`;
// Characters that cannot be inside a word: the sentence enders other than "." and some punctuation.
const NON_WORD = `(?:[)";}\\]*:@'({\\[?!])`;
// Hyphen runs and ellipses are single tokens.
const MULTI_CHAR = `(?:-{2,}|\\.{2,}|(?:\\.${S}){2,}\\.)`;
const WORD_START = '[^("`{\\[:;&#*@)}\\]\\-,]';
const WORD_TOKEN = new RegExp(`${MULTI_CHAR}|(?=${WORD_START})${NS}+?(?=${S}|$|${NON_WORD}|${MULTI_CHAR}|,(?=$|${S}|${NON_WORD}|${MULTI_CHAR}))|${NS}`, "gu");
// A possible sentence end and what follows it: other punctuation, or whitespace and a token.
const PERIOD_CONTEXT = new RegExp(`[.?!](?=(?<after>${NON_WORD}|${S}+(?<next>${NS}+)))`, "gu");
// Closing punctuation after a sentence end belongs to that sentence. nltk compiles this with
// MULTILINE, so its `$` also matches before a line feed.
const BOUNDARY_REALIGNMENT = new RegExp(`["')\\]}]+?(?:${S}+|(?=--)|(?=\\n)|$)`, "uy");

const NUMERIC = /^-?[.,]?\p{Nd}[\p{Nd},.-]*\.?$/u;
// Python's `[^\W\d]`: word characters that are not decimal digits (letters, other numbers, "_").
const INITIAL = /^[\p{L}\p{Nl}\p{No}_]\.$/u;
const ELLIPSIS = /^\.\.+$/;
const UPPER_FIRST = /^\p{Uppercase}/u;
const LOWER_FIRST = /^\p{Lowercase}/u;
const PUNCTUATION: ReadonlySet<string> = new Set([";", ":", ",", ".", "!", "?"]);
const SENT_END: ReadonlySet<string> = new Set([".", "?", "!"]);
// `string.whitespace`, which nltk uses to find the word before a candidate end.
const ASCII_WHITESPACE: ReadonlySet<string> = new Set([" ", "\t", "\n", "\r", "\u000b", "\u000c"]);

interface Token {
  readonly tok: string;
  readonly type: string;
  readonly periodFinal: boolean;
  sentbreak: boolean;
  abbr: boolean;
  ellipsis: boolean;
}

function makeToken(tok: string): Token {
  const lower = tok.toLowerCase();
  return { tok, type: NUMERIC.test(lower) ? "##number##" : lower, periodFinal: tok.endsWith("."), sentbreak: false, abbr: false, ellipsis: false };
}

function typeNoPeriod(token: Token): string {
  return token.type.length > 1 && token.type.endsWith(".") ? token.type.slice(0, -1) : token.type;
}

function typeNoSentPeriod(token: Token): string {
  return token.sentbreak ? typeNoPeriod(token) : token.type;
}

/** Words of a text, line by line (nltk tokenizes each line on its own). */
function tokenizeWords(text: string): Token[] {
  const tokens: Token[] = [];
  for (const line of text.split("\n")) {
    for (const match of line.matchAll(WORD_TOKEN)) tokens.push(makeToken(match[0]));
  }
  return tokens;
}

function firstPass(token: Token, params: PunktParameters): void {
  const tok = token.tok;
  if (SENT_END.has(tok)) token.sentbreak = true;
  else if (ELLIPSIS.test(tok)) token.ellipsis = true;
  else if (token.periodFinal && !tok.endsWith("..")) {
    const base = tok.slice(0, -1).toLowerCase();
    if (params.abbrevTypes.has(base) || params.abbrevTypes.has(base.split("-").at(-1)!)) token.abbr = true;
    else token.sentbreak = true;
  }
}

/** Whether a token starts a sentence, from the orthographic contexts its type was seen in. */
function orthoHeuristic(token: Token, params: PunktParameters): boolean | "unknown" {
  if (PUNCTUATION.has(token.tok)) return false;
  const context = params.orthoContext.get(typeNoSentPeriod(token)) ?? 0;
  if (UPPER_FIRST.test(token.tok) && context & ORTHO_LC && !(context & ORTHO_MID_UC)) return true;
  if (LOWER_FIRST.test(token.tok) && (context & ORTHO_UC || !(context & ORTHO_BEG_LC))) return false;
  return "unknown";
}

/** Revises a period-final token's decision from the token after it (nltk's second pass). */
function secondPass(token: Token, next: Token, params: PunktParameters): void {
  if (!token.periodFinal) return;
  const type = typeNoPeriod(token);
  const nextType = typeNoSentPeriod(next);
  const isInitial = INITIAL.test(token.tok);
  if (params.collocations.has(`${type}\t${nextType}`)) {
    token.sentbreak = false;
    token.abbr = true;
    return;
  }
  if ((token.abbr || token.ellipsis) && !isInitial) {
    if (orthoHeuristic(next, params) === true) {
      token.sentbreak = true;
      return;
    }
    if (UPPER_FIRST.test(next.tok) && params.sentStarters.has(nextType)) {
      token.sentbreak = true;
      return;
    }
  }
  if (isInitial || type === "##number##") {
    const starts = orthoHeuristic(next, params);
    if (starts === false) {
      token.sentbreak = false;
      token.abbr = true;
      return;
    }
    if (starts === "unknown" && isInitial && UPPER_FIRST.test(next.tok) && !((params.orthoContext.get(nextType) ?? 0) & ORTHO_LC)) {
      token.sentbreak = false;
      token.abbr = true;
    }
  }
}

/** True when a break falls after some token of the context other than its last. */
function containsSentBreak(context: string, params: PunktParameters): boolean {
  const tokens = tokenizeWords(context);
  for (const token of tokens) firstPass(token, params);
  for (let i = 0; i + 1 < tokens.length; i++) {
    // The second pass of token i reads token i+1 before its own second pass, as nltk's does.
    secondPass(tokens[i]!, tokens[i + 1]!, params);
    if (tokens[i]!.sentbreak) return true;
  }
  return false;
}

function lastAsciiWhitespace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (ASCII_WHITESPACE.has(text[i]!)) return i;
  return 0;
}

interface Candidate {
  /** Index of the sentence-ending character. */
  at: number;
  /** Where the next sentence would start. */
  nextStart: number;
  context: string;
}

/**
 * Candidate ends with their contexts (the word before, the end character, what follows), nltk's
 * `_match_potential_end_contexts`: a candidate whose preceding word overlaps the next one's is
 * superseded by it ("acting!!! I" is one candidate, at the last "!").
 */
function candidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  let previous: { match: RegExpExecArray; start: number; stop: number } | undefined;
  let prevStart = 0;
  let prevStop = 0;
  const emit = (p: { match: RegExpExecArray; start: number; stop: number }): void => {
    const after = p.match.groups!.after!;
    const next = p.match.groups!.next;
    const at = p.match.index;
    out.push({ at, nextStart: next === undefined ? at + 1 : at + 1 + after.length - next.length, context: text.slice(p.start, p.stop) + p.match[0] + after });
  };
  for (const match of text.matchAll(PERIOD_CONTEXT)) {
    const index = match.index;
    const found = lastAsciiWhitespace(text.slice(prevStop, index));
    // nltk treats whitespace at offset 0 of the gap as none found; kept for identical output.
    const start = found !== 0 ? found + prevStop + 1 : prevStart;
    if (previous !== undefined && prevStop <= start) emit(previous);
    previous = { match: match as RegExpExecArray, start, stop: index };
    prevStart = start;
    prevStop = index;
  }
  if (previous !== undefined) emit(previous);
  return out;
}

/** Sentence spans [start, end) in UTF-16 offsets, as nltk's `span_tokenize` gives them. */
export function punktSpans(text: string, params: PunktParameters): Array<[number, number]> {
  const raw: Array<[number, number]> = [];
  let lastBreak = 0;
  for (const candidate of candidates(text)) {
    if (containsSentBreak(candidate.context, params)) {
      raw.push([lastBreak, candidate.at + 1]);
      lastBreak = candidate.nextStart;
    }
  }
  raw.push([lastBreak, stripRightLength(text)]);
  // Realignment: closing quotes and brackets after an end move into the sentence they close.
  const spans: Array<[number, number]> = [];
  let realign = 0;
  for (let i = 0; i < raw.length; i++) {
    const start = raw[i]![0] + realign;
    const stop = raw[i]![1];
    const following = raw[i + 1];
    if (following === undefined) {
      if (start < stop) spans.push([start, stop]);
      continue;
    }
    BOUNDARY_REALIGNMENT.lastIndex = 0;
    const match = BOUNDARY_REALIGNMENT.exec(text.slice(following[0], following[1]));
    if (match !== null) {
      spans.push([start, following[0] + stripRightLength(match[0])]);
      realign = match[0].length;
    } else {
      realign = 0;
      if (start < stop) spans.push([start, stop]);
    }
  }
  return spans;
}

/** Length of the text after Python's `rstrip()`. */
function stripRightLength(text: string): number {
  let end = text.length;
  while (end > 0 && isPythonWhitespace(text.charCodeAt(end - 1))) end--;
  return end;
}

/**
 * The sentences of a text as nltk 3.8's `sent_tokenize(text)` returns them (not stripped: the
 * first keeps any leading whitespace of the text). When Punkt finds none (an empty or blank
 * text), the stripped text is the one sentence, as with mari's own rule, so n ≥ 1.
 */
export function splitSentencesPunkt(text: string, params: PunktParameters): string[] {
  const sentences = punktSpans(text, params).map(([start, end]) => text.slice(start, end));
  return sentences.length > 0 ? sentences : [stripPythonWhitespace(text)];
}
