// /get_reward's byte reader (src/server/get-reward-body.ts) against a plain reading of the same body:
// a fatal TextDecoder, then JSON.parse. On generated bodies (escapes, \uXXXX surrogate pairs, lone
// surrogates, raw non-ASCII UTF-8, quotes and backslashes inside strings, prompts holding several
// `[1] `, a query whose prompt part is escaped differently from its prompt) and on those bodies
// mutated byte by byte (invalid UTF-8, control characters, broken escapes and structure): whenever
// the reader answers, the plain reading accepts the body and gives the same texts; and on every
// generated body it does answer. Then whole requests: a body answered from its bytes and the same
// body sent down the JSON.parse path (an extra field is outside the byte reader's grammar) get the
// same answer, byte for byte, 200, 400 or 422 (ambiguous documents and unresolved queries included).
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { tagSentences } from "../../src/core/document/sentences.js";
import { readDocumentSlice, type DocumentSlice } from "../../src/io/slice.js";
import { queryTexts, readGetRewardBody } from "../../src/server/get-reward-body.js";
import { processChunk, scoreTaskState, type ScoreReply, type ScoreTaskState } from "../../src/server/score-task.js";
import { DEFAULT_WEIGHTS } from "../../src/server/weights.js";
import { CONTRADOC_160 } from "./support.js";

type Body = { query?: unknown; prompts?: unknown; labels?: unknown; [field: string]: unknown };

/** The plain reading: strict UTF-8 (a leading byte order mark dropped), then JSON.parse. */
function plainReading(bytes: Uint8Array): Body | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Body) : undefined;
  } catch {
    return undefined;
  }
}

const isTextList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");

/** Whether the byte reader must answer for this plainly read body: only the three fields, lists of text, one length. */
function plainShape(body: Body): boolean {
  const keys = Object.keys(body);
  if (!keys.every((k) => k === "query" || k === "prompts" || k === "labels")) return false;
  if (!isTextList(body.query) || !isTextList(body.prompts) || body.prompts.length !== body.query.length) return false;
  if (body.labels === undefined || body.labels === null) return true;
  return isTextList(body.labels) && (body.labels.length === 0 || body.labels.length === body.query.length);
}

/** The reader's texts for `bytes`, checked against the plain reading; whether it answered. */
function agree(bytes: Uint8Array): boolean {
  const read = readGetRewardBody(bytes);
  const texts = read && read.query.start.length === read.prompts.start.length ? queryTexts(read) : undefined;
  if (texts === undefined) return false;
  const plain = plainReading(bytes);
  expect(plain).toBeDefined();
  const queries = plain!.query as string[];
  const prompts = plain!.prompts as string[];
  const labels = isTextList(plain!.labels) && plain!.labels.length > 0 ? plain!.labels : undefined;
  expect(texts.prompt).toStrictEqual(prompts);
  expect(texts.label).toStrictEqual(queries.map((_, i) => labels?.[i]));
  queries.forEach((query, i) => {
    if (texts.afterPrompt[i]) expect(prompts[i]! + texts.rest[i]).toBe(query);
    else expect(texts.rest[i]).toBe(query);
  });
  return true;
}

/** JSON as Python's json.dumps writes it by default: every character above U+007F escaped. */
const asciiJson = (value: unknown): string => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);

const piece = fc.constantFrom(
  "a",
  "Sentence ",
  " ",
  "\n",
  "\t",
  '"',
  "\\",
  "/",
  "\\n",
  "é",
  "中",
  "😀",
  "\ud83d",
  "\ude00",
  "\u2028",
  "\u0000",
  "\u001f",
  "[1] ",
  "[1]",
  "<think>\n",
  "<|im_end|>",
  "\ufeff",
);
const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));

/** A body of OpenRLHF's shape: each query its prompt followed by a response; labels present, empty, null or absent. */
const bodyValue = fc
  .array(fc.tuple(text, text, text), { maxLength: 5 })
  .chain((rows) => fc.tuple(fc.constant(rows), fc.constantFrom("labels", "empty", "null", "absent"), fc.array(fc.nat(rows.length), { maxLength: 2 })))
  .map(([rows, labelKind, unprefixed]) => {
    const body: Body = { query: rows.map(([p, r], i) => (unprefixed.includes(i) ? r + p : p + r)), prompts: rows.map(([p]) => p) };
    if (labelKind === "labels") body.labels = rows.map(([, , l]) => l);
    else if (labelKind === "empty") body.labels = [];
    else if (labelKind === "null") body.labels = null;
    return body;
  });

/** The body written with raw UTF-8 or ASCII escapes, white space between tokens, keys in any order, or a leading byte order mark. */
const written = fc
  .tuple(bodyValue, fc.boolean(), fc.constantFrom("", " ", "\n\t", " \r "), fc.boolean(), fc.boolean())
  .map(([value, ascii, space, reversed, bom]) => {
    const ordered = reversed ? Object.fromEntries(Object.entries(value).reverse()) : value;
    let json = ascii ? asciiJson(ordered) : JSON.stringify(ordered);
    if (space !== "") json = json.replace(/([,:[{])(?=["[\]n{}])/g, `$1${space}`);
    return Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(json)]);
  });

/** A few byte edits with the bytes JSON and UTF-8 care about. */
const mutated = fc
  .tuple(
    written,
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat(2),
        fc.constantFrom(0x22, 0x5c, 0x75, 0x2c, 0x3a, 0x5b, 0x5d, 0x7b, 0x7d, 0x20, 0x6e, 0x01, 0x0a, 0x30, 0x64, 0xff, 0xc3, 0xa9, 0xed, 0xef),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([bytes, edits]) => {
    let b = Buffer.from(bytes);
    for (const [where, kind, byte] of edits) {
      const at = b.length === 0 ? 0 : where % b.length;
      const one = Buffer.from([byte]);
      if (kind === 0) b = Buffer.concat([b.subarray(0, at), one, b.subarray(at)]);
      else if (kind === 1) b = Buffer.concat([b.subarray(0, at), b.subarray(at + 1)]);
      else b = Buffer.concat([b.subarray(0, at), one, b.subarray(at + 1)]);
    }
    return b;
  });

describe("the /get_reward byte reader", () => {
  it("answers for every body of OpenRLHF's shape, with the texts JSON.parse gives", () => {
    fc.assert(
      fc.property(written, (bytes) => {
        const plain = plainReading(bytes);
        expect(plain !== undefined && plainShape(plain)).toBe(true);
        expect(agree(bytes)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("answers only for bodies the plain reading accepts, with the same texts, when the bytes are mutated", () => {
    fc.assert(
      fc.property(mutated, (bytes) => void agree(bytes)),
      { numRuns: 6000 },
    );
  });

  it("reads a query whose prompt part is escaped differently from its prompt as a whole query", () => {
    const body = Buffer.from('{"query":["\\u0050rompt\\/ [1] x\\nanswer"],"prompts":["Prompt/ [1] x\\n"],"labels":[""]}');
    const texts = queryTexts(readGetRewardBody(body)!)!;
    expect(texts.afterPrompt).toEqual([false]);
    expect(texts.rest).toEqual(["Prompt/ [1] x\nanswer"]);
    expect(texts.prompt).toEqual(["Prompt/ [1] x\n"]);
  });

  it("leaves invalid UTF-8, a raw control character, a broken escape, a duplicate key and other fields to JSON.parse", () => {
    const bodies = [
      Buffer.concat([Buffer.from('{"query":["a'), Buffer.from([0xc3, 0x28]), Buffer.from('"],"prompts":["a"]}')]),
      Buffer.from('{"query":["a\u0001"],"prompts":["a"]}'),
      Buffer.from('{"query":["a\\x"],"prompts":["a"]}'),
      Buffer.from('{"query":["a\\ud83"],"prompts":["a"]}'),
      Buffer.from('{"query":["a"],"prompts":["a"],"query":["b"]}'),
      Buffer.from('{"query":["a"],"prompts":["a"],"labels":[1]}'),
      Buffer.from('{"query":["a"],"prompts":["a"],"model":"m"}'),
      Buffer.from('{"query":["a"],"prompts":["a"]} x'),
    ];
    for (const body of bodies) {
      const read = readGetRewardBody(body);
      expect(read === undefined || queryTexts(read) === undefined).toBe(true);
    }
  });
});

describe("/get_reward answered from the bytes and through JSON.parse", () => {
  let slice: DocumentSlice;
  let state: ScoreTaskState;
  beforeAll(async () => {
    slice = await readDocumentSlice(CONTRADOC_160);
    const config = { weights: DEFAULT_WEIGHTS, maxItems: 1000, score: { lenientIds: false }, log: true, logPredictions: true };
    state = scoreTaskState(slice, config);
  });

  const answer = (body: Buffer): ScoreReply => processChunk(state, { route: "/get_reward", requestId: "r", body });
  /** The same body with a field the byte reader does not take: JSON.parse reads it. */
  const throughJsonParse = (value: Body, ascii: boolean): Buffer => Buffer.from((ascii ? asciiJson : JSON.stringify)({ ...value, model: "m" }));

  const cases = fc.array(fc.tuple(fc.nat(159), fc.nat(159), fc.nat(3), text, fc.constantFrom("id", "", "unknown", "none")), { minLength: 1, maxLength: 6 });
  const templates = [
    (doc: string) => `<|im_start|>user\nDoes this contradict itself?\n\n${doc}<|im_end|>\n<|im_start|>assistant\n`,
    (doc: string) => `<｜User｜>Read: ${doc}<｜Assistant｜><think>\n`,
  ];

  it("gives the same answer and log lines, whatever the prompts, labels and completions", () => {
    fc.assert(
      fc.property(cases, fc.boolean(), fc.nat(1), (rows, ascii, template) => {
        const prompts: string[] = [];
        const query: string[] = [];
        const labels: string[] = [];
        for (const [a, b, shape, noise, label] of rows) {
          const docA = tagSentences(slice.cases[a]!.sentences);
          const docB = tagSentences(slice.cases[b]!.sentences);
          // A few-shot example before the document asked about, a document alone, noise with a stray `[1] `, or no document.
          const doc = [`Example:\n${docB}\n\nNow:\n${docA}`, docA, `${noise} [1] ${docA}`, noise][shape]!;
          const prompt = templates[template]!(doc);
          const completion = `${noise}<think>\nSentence [1] says ${noise}\n</think>\n<answer>\nJudgment: ${shape % 2 ? "yes" : "no"}\nEvidence: [1]\n</answer><|im_end|>`;
          prompts.push(prompt);
          query.push(shape === 3 && label === "none" ? `garbled ${prompt}${completion}` : prompt + completion);
          labels.push(label === "id" ? slice.cases[a]!.id : label === "unknown" ? "no-such-case" : "");
        }
        const value: Body = { query, prompts, labels };
        const bytes = Buffer.from((ascii ? asciiJson : JSON.stringify)(value));
        expect(readGetRewardBody(bytes)).toBeDefined();
        expect(answer(bytes)).toStrictEqual(answer(throughJsonParse(value, ascii)));
      }),
      { numRuns: 300 },
    );
  });

  it("refuses the same way: an ambiguous document, a length mismatch, too many queries, no document", () => {
    // A slice where two cases have one text: a prompt holding it names neither.
    const twin = { ...slice.cases[0]!, index: slice.cases.length, id: "twin-of-the-first" };
    const twinned = { cases: [...slice.cases, twin], byId: new Map([...slice.byId, [twin.id, twin.index]]) };
    const twinState = scoreTaskState(twinned, state.config);
    const doc = tagSentences(twin.sentences);
    const ambiguous: Body = { query: [`${doc}<answer>`], prompts: [doc], labels: [""] };
    const ambiguousReply = processChunk(twinState, { route: "/get_reward", requestId: "r", body: Buffer.from(JSON.stringify(ambiguous)) });
    expect(ambiguousReply).toMatchObject({ ok: false, status: 422, details: { items: [{ reason: "ambiguous_document" }] } });
    expect(ambiguousReply).toStrictEqual(processChunk(twinState, { route: "/get_reward", requestId: "r", body: throughJsonParse(ambiguous, false) }));
    const values: Body[] = [
      { query: ["a", "b"], prompts: ["a"], labels: ["", ""] },
      { query: ["a"], prompts: ["a"], labels: ["", ""] },
      { query: Array.from({ length: 1001 }, () => "a"), prompts: Array.from({ length: 1001 }, () => "a") },
      { query: ["[1] x"], prompts: ["[1] x"] },
    ];
    for (const value of values) {
      const reply = answer(Buffer.from(JSON.stringify(value)));
      expect(reply.ok).toBe(false);
      expect(reply).toStrictEqual(answer(throughJsonParse(value, false)));
    }
    const broken = answer(Buffer.from('{"query":["a\\x"],"prompts":["a"]}'));
    expect(broken).toMatchObject({ ok: false, status: 400, code: "malformed_json" });
  });
});
