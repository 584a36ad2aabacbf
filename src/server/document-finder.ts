// Finds the slice case a prompt is about from the tagged document inside it, for trainers that send
// no case id (OpenRLHF without --data.label_key sends "" labels). docs/serve.md states the rule.
//
// A case is found by its findable text: its sentences tagged `[1] … [2] …` with every run of white
// space folded to one space, so a prompt that lays the document out differently still finds it.
// The texts are indexed in a trie whose edges are CHUNK characters long; a branch that leads to one
// text keeps the rest of it whole (compared at once), and the texts that end less than CHUNK
// characters below a node are found by a rolling hash of the prompt's next characters. A prompt is
// searched at every `[1]` it holds: per `[1]`, one lookup per chunk walked, a hash walk of at most
// CHUNK characters per node and one block comparison per document, so the cost follows the
// prompt's length, whatever the number of cases.
//
// Folding a prompt costs more than all the rest (a regular expression over every character), so a
// prompt is first searched as sent, in a second trie of the texts exactly as mari tags them (what a
// prompt built with mari's tagging holds); that search gives up, and the folded prompt is searched,
// whenever its answer could differ from the folded search's: a walk that fails once past a
// document's first chunk, a `[1]` whose folded start begins a document, or a document that another
// case's text extends.
//
// Rule: the document asked about is the LAST one in the prompt (few-shot examples come before it).
// A document found inside another found document (a case whose text begins another's) is part of
// it; of the others, the one that starts last is chosen; when several cases have exactly its text,
// the item is `ambiguous_document`.
import { tagSentences } from "../core/document/sentences.js";
import type { SliceCase } from "../io/slice.js";
import { holdsAt } from "./text-at.js";

/** Characters per trie edge, and the most a hash walk reads below one node. */
const CHUNK = 64;
/** Every run of white space that folding changes: two or more, or one that is not a plain space. */
const FOLDABLE = /\s{2,}|[^\S ]/g;
const HAS_FOLDABLE = /\s{2,}|[^\S ]/;
/** What a document starts with; white space follows it. */
const OPENER = "[1]";
const WHITE = /\s/;
// FNV-1a over UTF-16 code units, kept to 32 bits; a key packs (hash, length < CHUNK) into one exact number.
const HASH_START = 0x811c9dc5;
const HASH_PRIME = 0x01000193;

/**
 * Every run of white space as one space. Matching only what changes (a longer run, or a lone
 * non-space white character) gives the same text as replacing every `\s+`, and is ~40× faster on
 * prose, where most runs are already one space.
 */
function foldSpaces(text: string): string {
  return text.replace(FOLDABLE, " ");
}

/** What a case is found by: its tagged text (`[1] … [2] …`) with white space folded. */
export function findableText(sentences: readonly string[]): string {
  return foldSpaces(tagSentences(sentences));
}

export type FindResult = { index: number } | { problem: "no_document_in_prompt" | "ambiguous_document"; message: string };

/** A text of the index: the cases whose findable text it is (one, or several with the same), and whether another case's findable text begins with it. */
interface Entry {
  cases: number[];
  extended: boolean;
}

/** The rest of the one text below a trie edge, from the edge's first character. */
interface Leaf {
  rest: string;
  entry: Entry;
}

/** Texts that end less than CHUNK characters below a node. */
interface Endings {
  /** By `hashKey(hash of the ending, its length)` (a list: hashes may collide). */
  byKey: Map<number, Array<{ text: string; entry: Entry }>>;
  /** The keys of every prefix of every ending: a hash walk stops when the prompt leaves them all. */
  prefixes: Set<number>;
  longest: number;
}

interface TrieNode {
  /** By the next CHUNK characters. */
  children: Map<string, TrieNode | Leaf>;
  endings: Endings | undefined;
}

/** A document found in the prompt: its span and its entry. */
interface Found {
  start: number;
  end: number;
  entry: Entry;
}

function hashKey(hash: number, length: number): number {
  return hash * CHUNK + length;
}

function nextHash(hash: number, code: number): number {
  return Math.imul(hash ^ code, HASH_PRIME) >>> 0;
}

function endingsOf(texts: ReadonlyMap<string, Entry>): Endings | undefined {
  if (texts.size === 0) return undefined;
  const endings: Endings = { byKey: new Map(), prefixes: new Set(), longest: 0 };
  for (const [text, entry] of texts) {
    let hash = HASH_START;
    endings.prefixes.add(hashKey(hash, 0));
    for (let j = 0; j < text.length; j++) {
      hash = nextHash(hash, text.charCodeAt(j));
      endings.prefixes.add(hashKey(hash, j + 1));
    }
    const key = hashKey(hash, text.length);
    const list = endings.byKey.get(key);
    if (list) list.push({ text, entry });
    else endings.byKey.set(key, [{ text, entry }]);
    endings.longest = Math.max(endings.longest, text.length);
  }
  return endings;
}

/** The trie of `texts` (one per case; equal texts share their entry), built without recursion: texts may share long beginnings. */
function buildTrie(texts: readonly string[], entries: readonly Entry[]): TrieNode {
  const root: TrieNode = { children: new Map(), endings: undefined };
  const work: Array<{ node: TrieNode; depth: number; cases: number[] }> = [{ node: root, depth: 0, cases: texts.map((_, i) => i) }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const { node, depth } = item;
    const ending = new Map<string, Entry>();
    const byChunk = new Map<string, number[]>();
    for (const i of item.cases) {
      const text = texts[i]!;
      if (text.length - depth < CHUNK) {
        ending.set(text.slice(depth), entries[i]!);
        continue;
      }
      const chunk = text.slice(depth, depth + CHUNK);
      const list = byChunk.get(chunk);
      if (list) list.push(i);
      else byChunk.set(chunk, [i]);
    }
    node.endings = endingsOf(ending);
    for (const [chunk, cases] of byChunk) {
      const first = texts[cases[0]!]!;
      if (cases.every((i) => texts[i] === first)) {
        node.children.set(chunk, { rest: first.slice(depth), entry: entries[cases[0]!]! });
      } else {
        const child: TrieNode = { children: new Map(), endings: undefined };
        node.children.set(chunk, child);
        work.push({ node: child, depth: depth + CHUNK, cases });
      }
    }
  }
  return root;
}

/** One entry per distinct findable text; `extended` when another text begins with it (in sorted order, the next distinct text does). */
function entriesOf(findable: readonly string[]): Entry[] {
  const byText = new Map<string, Entry>();
  const entries = findable.map((text, i) => {
    const entry = byText.get(text);
    if (entry) {
      entry.cases.push(i);
      return entry;
    }
    const created: Entry = { cases: [i], extended: false };
    byText.set(text, created);
    return created;
  });
  const sorted = [...byText.keys()].sort();
  for (let k = 0; k + 1 < sorted.length; k++) byText.get(sorted[k]!)!.extended = holdsAt(sorted[k + 1]!, sorted[k]!);
  return entries;
}

/** Adds the texts of `endings` that `text` holds at `at` (for a document started at `start`); false when there are none. */
function walkEndings(endings: Endings, text: string, start: number, at: number, found: Found[]): boolean {
  let any = false;
  let hash = HASH_START;
  for (let length = 0; ; length++) {
    const key = hashKey(hash, length);
    if (!endings.prefixes.has(key)) return any;
    for (const ending of endings.byKey.get(key) ?? []) {
      if (text.slice(at, at + length) === ending.text) {
        found.push({ start, end: at + length, entry: ending.entry });
        any = true;
      }
    }
    if (length === endings.longest || at + length >= text.length) return any;
    hash = nextHash(hash, text.charCodeAt(at + length));
  }
}

/** The search as sent had to give up: search the folded prompt. */
const GIVE_UP = Symbol("give up");

export class DocumentFinder {
  /** The findable texts (folded). */
  private readonly folded: TrieNode;
  /** The same cases' texts as mari tags them, unfolded: what a prompt usually holds. */
  private readonly asTagged: TrieNode;

  /** `texts`: each case's `findableText`, when already computed (a compiled slice carries them). */
  constructor(
    private readonly cases: readonly Pick<SliceCase, "id" | "sentences">[],
    texts?: string[],
  ) {
    const findable = texts ?? cases.map((c) => findableText(c.sentences));
    const entries = entriesOf(findable);
    this.folded = buildTrie(findable, entries);
    this.asTagged = buildTrie(
      cases.map((c) => tagSentences(c.sentences)),
      entries,
    );
  }

  find(prompt: string): FindResult {
    const found = this.searchAsSent(prompt) ?? this.searchFolded(foldSpaces(prompt));
    const last = lastDocument(found);
    if (last === undefined) {
      return { problem: "no_document_in_prompt", message: "no case id, and the prompt holds no tagged document of the slice ([1] … [n] as mari tags it)" };
    }
    const { cases } = last.entry;
    if (cases.length === 1) return { index: cases[0]! };
    const ids = cases.slice(0, 3).map((i) => JSON.stringify(this.cases[i]!.id));
    return {
      problem: "ambiguous_document",
      message: `no case id, and the prompt's document is the text of ${cases.length} cases (${ids.join(", ")}): send the case id`,
    };
  }

  /** Every document at every `[1]` of the folded prompt. */
  private searchFolded(text: string): Found[] {
    const found: Found[] = [];
    for (let start = nextOpener(text, 0); start !== -1; start = nextOpener(text, start + 1)) {
      let node = this.folded;
      for (let at = start; ; at += CHUNK) {
        if (node.endings) walkEndings(node.endings, text, start, at, found);
        const next = node.children.get(text.slice(at, at + CHUNK));
        if (next === undefined) break;
        if ("rest" in next) {
          if (holdsAt(text, next.rest, at)) found.push({ start, end: at + next.rest.length, entry: next.entry });
          break;
        }
        node = next;
      }
    }
    return found;
  }

  /** Every document of the prompt as sent, found in the texts as tagged; undefined when only the folded prompt can tell. */
  private searchAsSent(text: string): Found[] | undefined {
    const found: Found[] = [];
    for (let start = nextOpener(text, 0); start !== -1; start = nextOpener(text, start + 1)) {
      const before = found.length;
      if (this.walkAsSent(text, start, found) === GIVE_UP) return undefined;
      for (let k = before; k < found.length; k++) if (found[k]!.entry.extended) return undefined;
    }
    return found;
  }

  private walkAsSent(text: string, start: number, found: Found[]): typeof GIVE_UP | undefined {
    let node = this.asTagged;
    for (let at = start; ; at += CHUNK) {
      const before = found.length;
      if (node.endings) walkEndings(node.endings, text, start, at, found);
      const next = node.children.get(text.slice(at, at + CHUNK));
      if (next === undefined) {
        // Past the first chunk the prompt follows a document this far: only folding can tell the rest.
        if (at !== start) return GIVE_UP;
        return this.foldedStartAdds(text, start, found.slice(before)) ? GIVE_UP : undefined;
      }
      if ("rest" in next) {
        if (!holdsAt(text, next.rest, at)) return GIVE_UP;
        found.push({ start, end: at + next.rest.length, entry: next.entry });
        return undefined;
      }
      node = next;
    }
  }

  /**
   * Whether the folded prompt at `start` begins a document other than those already found there
   * (`known`): a first chunk of the folded index, or a short text not among them.
   */
  private foldedStartAdds(text: string, start: number, known: readonly Found[]): boolean {
    let window = text.slice(start, start + CHUNK);
    if (HAS_FOLDABLE.test(window)) {
      // Folding shortens the text: enough of it is taken for a folded chunk, or up to the prompt's end.
      let take = 4 * CHUNK;
      window = foldSpaces(text.slice(start, start + take));
      while (window.length < CHUNK && start + take < text.length) {
        take *= 4;
        window = foldSpaces(text.slice(start, start + take));
      }
    }
    if (this.folded.children.has(window.slice(0, CHUNK))) return true;
    const short: Found[] = [];
    if (this.folded.endings) walkEndings(this.folded.endings, window, 0, 0, short);
    return short.some((s) => !known.some((k) => k.entry === s.entry));
  }
}

/** The next `[1]` followed by white space, from `from`; -1 when none. */
function nextOpener(text: string, from: number): number {
  for (let at = text.indexOf(OPENER, from); at !== -1; at = text.indexOf(OPENER, at + 1)) {
    if (WHITE.test(text.charAt(at + OPENER.length))) return at;
  }
  return -1;
}

/**
 * The document asked about: of the documents found, those inside another one are dropped; the one
 * that starts last is kept.
 */
function lastDocument(found: readonly Found[]): Found | undefined {
  if (found.length <= 1) return found[0];
  const order = [...found].sort((a, b) => a.start - b.start || b.end - a.end);
  let last: Found | undefined;
  let reach = -1;
  for (const f of order) {
    if (f.end <= reach) continue; // inside a document that starts no later and ends no later
    last = f;
    reach = f.end;
  }
  return last;
}
