// The byte path of the dump pass (src/tasks/document/score-bytes.ts, reached through `scoreBlock`,
// and the lines it scores in WebAssembly, row-scores.ts) against the full parser: for generated
// dump lines of every shape, and those lines mutated byte by byte, the columns `scoreBlock` writes
// for a line equal what `parseDumpLine`, `dumpCaseId`, `dumpRunKey` and `scoreCase` give for its
// text — the oracle never calls the byte scanner or the string scanner. The byte path and the
// WebAssembly scorer must also answer for the shapes judges write, or they would agree by never
// answering.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CASE_REASONS,
  fixedReasonMessage,
  reuseChunkColumns,
  scoreBlock,
  scoreCase,
  scoreLines,
  type ChunkResult,
  type ScoreOptions,
  type ScoreState,
} from "../../src/tasks/document/score.js";
import { scoreLineBytes } from "../../src/tasks/document/score-bytes.js";
import { ROW_REASON_CODES, scoreBlockRows } from "../../src/tasks/document/row-scores.js";
import { LineEnds } from "../../src/io/line-ends.js";
import { splitBlock, type Line } from "../../src/io/lines.js";
import { dumpCaseId, dumpRunKey, isBatchOutputLine, LINE_REJECTIONS, parseDumpLine, runKeyProblem } from "../../src/io/dump.js";
import { lineText } from "../../src/io/lines.js";
import { batchOutputRecord } from "../../src/judges/batch-results.js";
import type { DocumentSlice, SliceCase } from "../../src/io/slice.js";

const SENTENCES = ["One.", "Two is here.", "Three.", "Four is long.", "Five.", "Six.", "Seven.", "Eight.", "Nine.", "Ten.", "Eleven.", "Twelve."];

function sliceCase(index: number, id: string, count: number, label: boolean, gold: number[]): SliceCase {
  return {
    index,
    id,
    where: `slice:${index + 1}`,
    sentences: SENTENCES.slice(0, count),
    sentenceCount: count,
    label,
    gold,
    scope: null,
    docType: null,
    contraType: null,
    extra: {},
  };
}

const cases = [
  sliceCase(0, "c0", 12, true, [2, 5]),
  sliceCase(1, "c1", 3, false, []),
  sliceCase(2, "caf\u00e9", 7, true, [7]),
  sliceCase(3, "3488771835_6", 1, false, []),
  sliceCase(4, "\ud83d\ude00 id", 10, true, [1, 2, 3]),
];
const slice = {
  path: "slice.jsonl",
  format: "structured",
  sentences: "mari",
  cases,
  byId: new Map(cases.map((c) => [c.id, c.index])),
  rejected: [],
} as unknown as DocumentSlice;

/** What the full parser and `scoreCase` make of one line's text (the string path, written out here without any scanner). */
function oracle(line: string, options: ScoreOptions): Record<string, unknown> {
  // The text a reader gets for line 1 of a file holding these bytes.
  const text = lineText(Buffer.from(line, "utf8").toString("utf8"), 1);
  const parsed = parseDumpLine(text);
  if ("error" in parsed) return { kind: "rejected", code: parsed.error.code, message: parsed.error.message };
  let record = parsed.record;
  if (isBatchOutputLine(record)) {
    const converted = batchOutputRecord(record);
    if ("orphan" in converted) return { kind: "orphan", id: converted.orphan };
    record = converted.record;
  }
  const caseId = dumpCaseId(record);
  if (caseId === undefined) return { kind: "rejected", code: "bad_case_id", message: "case_id (or id) is missing or not a string" };
  const caseIndex = slice.byId.get(caseId);
  if (caseIndex === undefined) return { kind: "orphan", id: caseId };
  const run = dumpRunKey(record);
  if (run === undefined) return { kind: "rejected", code: "bad_run_key", message: runKeyProblem(record) };
  const scored = scoreCase(cases[caseIndex]!, record, options);
  return {
    kind: "prediction",
    caseIndex,
    run,
    reason: scored.reason,
    message: scored.message,
    judgment: scored.judgment,
    coverage: scored.referenceCoverage,
    reward: scored.rewardAccuracy,
    matched: scored.matched,
    evidence: scored.evidence,
  };
}

/** Line i of a scored chunk, in the oracle's terms. */
function fromColumns(r: ChunkResult, i: number): Record<string, unknown> {
  const message = r.messages.find(([at]) => at === i)?.[1];
  if (r.kind[i] === 0) {
    return { kind: "rejected", code: LINE_REJECTIONS[r.code[i]!], message };
  }
  if (r.kind[i] === 1) return { kind: "orphan", id: r.orphans.find(([at]) => at === i)?.[1] };
  const reason = CASE_REASONS[r.code[i]!] ?? null;
  return {
    kind: "prediction",
    caseIndex: r.caseIndex[i],
    run: r.runKeys[r.runKey[i]!],
    reason,
    // A chunk sends a format-invalid line's message only when the reason does not give it.
    message: message ?? (reason === null ? null : (fixedReasonMessage(reason) ?? null)),
    judgment: r.judgment[i] === 1,
    coverage: r.coverage[i],
    reward: r.rewardAccuracy[i],
    matched: r.matched[i],
    evidence: [...r.evData.subarray(r.evStart[i]!, r.evStart[i + 1]!)],
  };
}

/** Which lines of the block scoreBlock scores in WebAssembly (row-scores.ts) under `options`. */
function wasmScored(lines: readonly string[], options: ScoreOptions, on: DocumentSlice = slice): boolean[] {
  const block = Buffer.from(lines.map((l) => `${l}\n`).join(""), "utf8");
  const scores = scoreBlockRows(on, options.completionEnd, block, new LineEnds().of(block));
  const scored = lines.map((_, i) => scores !== undefined && scores.caseIndex[i]! >= 0);
  expect(scores?.scored ?? 0).toBe(scored.filter((x) => x).length);
  return scored;
}

const OPTION_SETS: ScoreOptions[] = [{ lenientIds: false }, { lenientIds: true }, { lenientIds: false, completionEnd: { specialTokens: ["r>"] } }];

/** Each line scored alone (so every rejection keeps its message) equals the oracle, under each option set. */
function agree(line: string): boolean {
  for (const options of OPTION_SETS) {
    const state: ScoreState = { slice, options };
    const r = scoreBlock(state, 1, Buffer.from(`${line}\n`, "utf8"));
    expect(r.count).toBe(1);
    expect(fromColumns(r, 0)).toStrictEqual(oracle(line, options));
  }
  return true;
}

const reasoningText = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.constantFrom(
    "Sentence [3] says; [1]-[2] agree.",
    "[2-4] and [5]-[9], [1-2]-[3]",
    "year [2023]",
    "[0] and [7-3]",
    "\u0663 [\u0663] and [\uff12]-[\uff14]",
    "[\ud835\udfd0] math digit",
    'a \\ b [4]\n[5]\t"q"',
    "[[1]] [1a] [-1] [1-] [12",
  ),
);
const idList = fc.array(
  fc.oneof(fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 14 }), fc.constantFrom(1e15 - 1, 2 ** 53, "3", "[4]", 2.5, -1, true)),
  {
    maxLength: 20,
  },
);
const judgmentValue = fc.oneof(fc.boolean(), fc.constantFrom("yes", "No", "TRUE", "false", "maybe", "", "y\u00e9s", "YES ", 1, 0, null));
// Think texts that hold escapes other than `\n` in the line (quotes, backslashes, tabs, a
// backslash before an `n`), tags and markers where the layout has none, brackets beside escapes.
const thinkText = fc.oneof(
  reasoningText,
  fc.constantFrom(
    "x\\n</think>\n<answer>\n",
    "<think>",
    "</answer> \\n",
    '"[2]" \\ [3]',
    "a\r\nb\t[1]\f\b",
    "\n</think>\n<answer>\nJudgment: no\nEvidence: []\n</answer>",
    "</ > / <answer",
    '[\t3] [3\\] ["4"]',
    "\\",
  ),
);
const completionText = fc
  .tuple(
    thinkText,
    fc.constantFrom("yes", "no", "True", "nO", "maybe", "yes ", "", 'ye"s', "yes\t", "\\no"),
    fc.constantFrom("[]", "[1, 2]", "[2, 2, 12]", "[1,2]", "[01]", "[13]", '["Two is here."]', "[1.0]", "x", "[1]\\", "[1,\t2]"),
    fc.constantFrom("", "\n", "<|im_end|>", "<think>", "\n</answer>", " ", "\\", "\\n</answer>"),
  )
  .map(([think, judgment, evidence, tail]) => `<think>\n${think}\n</think>\n<answer>\nJudgment: ${judgment}\nEvidence: ${evidence}\n</answer>${tail}`);
const caseId = fc.oneof(fc.constantFrom("c0", "c1", "caf\u00e9", "3488771835_6", "\ud83d\ude00 id", "c9", "c\\0", 'c"0'), fc.string({ maxLength: 4 }));
const runValue = fc.oneof(fc.nat({ max: 300 }), fc.constantFrom("0", "a", "7", 1e15 - 1, 2 ** 53, 1.5, -1, null, true));
const prediction = fc.record(
  {
    judgment: judgmentValue,
    evidence_sentence_ids: fc.oneof(idList, fc.constant(null)),
    evidence: idList,
    reasoning: fc.oneof(reasoningText, fc.constant(3)),
    completion: completionText,
    error: fc.constant({ code: "timeout", message: "slow" }),
  },
  { requiredKeys: [] },
);
const line = fc.record(
  {
    case_id: caseId,
    id: caseId,
    run: runValue,
    sample: runValue,
    judgment: judgmentValue,
    evidence_sentence_ids: fc.oneof(idList, idList, fc.constant(null), fc.constant("1")),
    reasoning: fc.oneof(reasoningText, reasoningText, fc.constant([1, 2])),
    completion: fc.oneof(completionText, completionText, fc.constant(7)),
    prediction: fc.oneof(prediction, fc.constant("x")),
    model: fc.oneof(fc.string({ maxLength: 5 }), fc.constant({ a: [1, "b"], c: true }), fc.constant({ a: { b: 1 } }), fc.constant([1, [2]])),
  },
  { requiredKeys: [] },
);

/** The shapes judges write, with values mostly in range: the lines the byte path must read. */
const knownId = fc.constantFrom("c0", "c1", "caf\u00e9", "3488771835_6", "\ud83d\ude00 id");
const inRange = fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 4 });
const structured = fc.record(
  {
    case_id: knownId,
    run: fc.oneof(fc.nat({ max: 300 }), fc.constantFrom("0", "r1")),
    judgment: fc.oneof(fc.boolean(), fc.constantFrom("yes", "no", "True", "FALSE")),
    evidence_sentence_ids: fc.oneof(inRange, inRange, idList),
    reasoning: reasoningText,
    model: fc.constantFrom("m", 3, [1, "x"], { a: [1] }),
  },
  { requiredKeys: ["case_id", "judgment"] },
);
const rawCompletion = fc.record(
  { case_id: knownId, run: fc.nat({ max: 9 }), completion: completionText, reasoning: fc.constant("ignored [99]") },
  { requiredKeys: ["case_id", "completion"] },
);
const cacheShaped = fc.record(
  {
    case_id: knownId,
    run: fc.nat({ max: 9 }),
    prediction: fc.record(
      {
        judgment: fc.oneof(fc.boolean(), fc.constantFrom("yes", "no")),
        evidence_sentence_ids: inRange,
        reasoning: reasoningText,
        completion: completionText,
        model: fc.constantFrom("m", [1]),
      },
      { requiredKeys: ["judgment"] },
    ),
    reasoning: fc.constant("the line's own [1], unread"),
  },
  { requiredKeys: ["case_id", "prediction"] },
);
/**
 * A `/` is written `\/` by some JSON writers: in a completion's tags it is a `/` the raw bytes do
 * not show. Each `/` of a line's JSON is kept or so written (all, none, the first or the last).
 */
const slashes = fc.constantFrom("none", "all", "first", "last").map((which) => (json: string): string => {
  if (which === "none") return json;
  if (which === "all") return json.replaceAll("/", "\\/");
  const at = which === "first" ? json.indexOf("/") : json.lastIndexOf("/");
  return at < 0 ? json : `${json.slice(0, at)}\\${json.slice(at)}`;
});
const shaped = fc.tuple(fc.oneof(structured, rawCompletion, cacheShaped), fc.constantFrom("", " "), slashes).map(([value, space, slash]) => {
  const json = slash(JSON.stringify(value));
  return space === "" ? json : json.replace(/([,:[{])/g, `$1${space}`);
});

/** JSON text of a line, with spaces between some tokens, a trailing "\r" or spaces sometimes. */
const written = fc.tuple(line, fc.constantFrom("", " ", "\t"), fc.constantFrom("", "\r", "  ", " \r"), slashes).map(([value, space, tail, slash]) => {
  let json = slash(JSON.stringify(value));
  if (space !== "") json = json.replace(/([,:[{])/g, `$1${space}`);
  return json + tail;
});

const mutated = fc
  .tuple(
    fc.oneof(written, shaped),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat(2),
        fc.constantFrom('"', "\\", ",", ":", "{", "}", "[", "]", " ", "0", "1", "-", ".", "e", "n", "u", "\u0001", "\r", "a", "\u00e9", "<"),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([json, edits]) => {
    let s = json;
    for (const [where, kind, ch] of edits) {
      const at = s.length === 0 ? 0 : where % s.length;
      s = kind === 0 ? s.slice(0, at) + ch + s.slice(at) : kind === 1 ? s.slice(0, at) + s.slice(at + 1) : s.slice(0, at) + ch + s.slice(at + 1);
    }
    return s;
  });

describe("scoreBlock's byte path", () => {
  it("scores generated lines as the full parser and scoreCase do", () => {
    fc.assert(fc.property(written, agree), { numRuns: 3000 });
  });

  it("scores lines of the shapes judges write as the full parser and scoreCase do, many of them on the byte path", () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(shaped, (line) => {
        const bytes = Buffer.from(line, "utf8");
        runs++;
        if (scoreLineBytes(slice, undefined, bytes, 0, bytes.length)) answered++;
        return agree(line);
      }),
      { numRuns: 4000 },
    );
    // Many generated values are outside the byte path on purpose (quoted evidence, floats, odd judgments).
    expect(answered).toBeGreaterThan(runs / 4);
  });

  it("scores mutated lines as the full parser and scoreCase do", () => {
    fc.assert(fc.property(mutated, agree), { numRuns: 4000 });
  });

  it("scores a block of many lines as it scores each line alone", () => {
    fc.assert(
      fc.property(fc.array(written, { minLength: 1, maxLength: 30 }), (lines) => {
        const state: ScoreState = { slice, options: { lenientIds: false } };
        const whole = scoreBlock(state, 5, Buffer.from(lines.map((l) => `${l}\n`).join(""), "utf8"));
        expect(whole.count).toBe(lines.length);
        lines.forEach((l, i) => {
          const alone = fromColumns(scoreBlock(state, 5 + i, Buffer.from(l, "utf8")), 0);
          const inBlock = fromColumns(whole, i);
          // Messages are kept for the first few lines of each reason per chunk only.
          expect({ ...inBlock, message: undefined }).toStrictEqual({ ...alone, message: undefined });
        });
      }),
      { numRuns: 300 },
    );
  });

  it("answers for the structured and raw completion lines judges write", () => {
    const lines = [
      '{"case_id":"c0","run":0,"judgment":true,"evidence_sentence_ids":[2,12],"reasoning":"Sentence [2] and [3]-[5]."}',
      '{"case_id":"c1","run":"b","judgment":"no","evidence_sentence_ids":[],"reasoning":"fine"}',
      '{"case_id":"c0","run":3,"judgment":false,"evidence_sentence_ids":[],"reasoning":"[9]-[2] reversed"}',
      '{"case_id": "caf\u00e9", "run": 7, "completion": "<think>\\nSentence [3] and [1].\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [7, 2]\\n</answer>"}',
      '{"case_id":"nowhere","run":0,"judgment":true}',
      '{"case_id":"c0","run":2,"prediction":{"judgment":"yes","evidence_sentence_ids":[5],"reasoning":"[1]-[3]"}}',
      '{"case_id":"c0","run":4,"completion":"<think>\\n\\"Two\\" [2]\\tand \\\\ [3]\\n</think>\\n<answer>\\nJudgment: no\\nEvidence: []\\n</answer>"}',
      '{"case_id":"c0","run":5,"completion":"<think>\\n[2] <\\/b>\\n<\\/think>\\n<answer>\\nJudgment: yes\\nEvidence: [2]\\n<\\/answer>"}',
      // The completion's answer list and the line's reasoning are not the think text.
      '{"case_id":"c1","run":0,"reasoning":"[99]","completion":"<think>\\n[2]\\n</think>\\n<answer>\\nJudgment: no\\nEvidence: []\\n</answer>"}',
      '{"case_id":"c1","run":0,"completion":"<think>\\n[2]\\n</think>\\n<answer>\\nJudgment: no\\nEvidence: [9]\\n</answer>","reasoning":"[1]-[3]"}',
      // A structured line's completion is not its reasoning.
      '{"case_id":"c0","run":0,"judgment":true,"evidence_sentence_ids":[2],"completion":"<think>\\n[40]\\n</think>","reasoning":"[2]"}',
      '{"case_id":"c0","run":0,"completion":"<think>\\n[40]\\n</think>","judgment":false,"reasoning":"[3]-[4] and [2]"}',
      '{"case_id":"c0","run":0,"prediction":{"completion":"[7]","judgment":true,"evidence_sentence_ids":[2],"reasoning":"[2-5]"},"model":"[99]"}',
    ];
    for (const l of lines) {
      const bytes = Buffer.from(l, "utf8");
      expect(scoreLineBytes(slice, undefined, bytes, 0, bytes.length)).toBe(true);
      expect(agree(l)).toBe(true);
    }
  });

  it("finds each string's end wherever it falls in the four-byte words the scanner reads", () => {
    // Every length up to three words, every place for the byte that stops a string (a quote, an
    // escape, a raw control byte, a bracket), next to multi-byte characters whose bytes are 0x80 and above.
    const stops = ['"', "\\n", '\\"', "\\\\", "\\/", "\\u0041", "\u0001", "\u001f", "[", "\u00e9", "\u20ac", "\ud83d\ude00"];
    for (let length = 0; length <= 13; length++) {
      for (let at = 0; at <= length; at++) {
        for (const stop of stops) {
          for (const fill of ["a", "\u00ff"]) {
            const text = fill.repeat(at) + stop + fill.repeat(length - at);
            agree(`{"case_id":"c0","judgment":true,"evidence_sentence_ids":[2],"reasoning":"${text} [3]"}`);
            agree(`{"case_id":"c${text}","judgment":false}`);
            agree(`{"case_id":"c1","${text}":1,"judgment":false}`);
          }
        }
      }
    }
  });

  it("reads a raw completion with any one byte changed as the full parser does", () => {
    // Each marker, tag and prefix of the layout, cut at any byte or given a wrong one there.
    for (const completion of [
      "<think>\\n[1] and [2]\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [2, 5]\\n</answer>",
      "<think>\\n\\n<\\/think>\\n<answer>\\nJudgment: no\\nEvidence: []\\n<\\/answer>",
    ]) {
      for (let at = 0; at < completion.length; at++) {
        for (const edited of [completion.slice(0, at) + completion.slice(at + 1), `${completion.slice(0, at)}x${completion.slice(at + 1)}`]) {
          agree(`{"case_id":"c0","run":1,"completion":"${edited}"}`);
        }
      }
    }
  });

  it("reads a completion's layout and references wherever they fall in the words the scanner reads", () => {
    // The think text, the answer lines and the end shifted through every offset of a word (by the
    // id's and the fill's lengths), with a reference, a tag, an escape or a marker at each place.
    const pieces = [
      "[2]",
      "[2-4]",
      "[2]-[5]",
      "[1-2]-[3]",
      "[13]",
      "[0]",
      "[\u0663]",
      "[2",
      "[2]-",
      "[2]-[",
      "[2]-[3",
      "[2-",
      "<b>",
      "<think>",
      "<\\/think>",
      "\\n",
      '\\"',
      "\\\\",
      "\\t[2]",
      "\\n</think>\\n<answer>\\n",
      "\\n</think>\\n<answer>\\nJudgment: no\\nEvidence: []\\n</answer>",
      "\\n</think>\\n<answer>\\nJudge",
    ];
    for (const id of ["c0", "caf\u00e9", "3488771835_6", "\ud83d\ude00 id"]) {
      for (let fill = 0; fill <= 4; fill++) {
        for (const piece of pieces) {
          for (const at of ["start", "middle", "end"]) {
            const pad = "a".repeat(fill);
            const think = at === "start" ? `${piece}${pad} [3]` : at === "middle" ? `[1] ${pad}${piece} x` : `x ${pad}${piece}`;
            agree(`{"case_id":"${id}","run":1,"completion":"<think>\\n${think}\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [2]\\n</answer>"}`);
            agree(`{"case_id":"${id}","judgment":true,"evidence_sentence_ids":[1],"reasoning":"${think}"}`);
          }
        }
        for (const answer of [
          "Judgment: no\\nEvidence: []",
          "Judgment: ye\\nEvidence: []",
          "Judgment: YES\\nEvidence: [1, 12]",
          "Judgment: yes\\nEvidence: [1]\\n",
        ]) {
          const pad = "b".repeat(fill);
          agree(`{"case_id":"${id}","run":2,"completion":"<think>\\n${pad}\\n</think>\\n<answer>\\n${answer}\\n</answer>"}`);
          agree(`{"case_id":"${id}","run":2,"completion":"<think>\\n</think>\\n<answer>\\n${answer}\\n</answer>${pad}"}`);
        }
      }
    }
  });

  it("reads a completion of thousands of tags and newlines, then an ordinary one", () => {
    const think = "<b>\\n[2] ".repeat(5000);
    for (const t of [think, "[2]"]) {
      agree(`{"case_id":"c0","run":1,"completion":"<think>\\n${t}\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [2]\\n</answer>"}`);
    }
  });

  it("reads evidence lists longer than the scanner's first arrays hold, in each shape", () => {
    // 64 IDs fit the arrays the scanners start with, and an array is made twice as long when a
    // list outgrows it: each count here outgrows the array the one before it left.
    for (const count of [63, 64, 65, 130, 260, 520, 1040, 2100]) {
      const ids = Array.from({ length: count }, (_, k) => 1 + (k % 12));
      const text = ids.join(", ");
      const lines = [
        `{"case_id":"c0","run":0,"completion":"<think>\\n[2]\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [${text}]\\n</answer>"}`,
        `{"case_id":"c0","run":1,"completion":"<think>\\n[2] <\\/b>\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [${text}]\\n</answer>"}`,
        `{"case_id":"c0","run":2,"judgment":true,"evidence_sentence_ids":[${text}],"reasoning":"[2]"}`,
        `{"case_id":"c0","run":3,"prediction":{"judgment":"yes","evidence_sentence_ids":[${text}]}}`,
      ];
      for (const l of lines) {
        expect(agree(l)).toBe(true);
        const bytes = Buffer.from(l, "utf8");
        expect(scoreLineBytes(slice, undefined, bytes, 0, bytes.length)).toBe(true);
      }
    }
  });

  it("reads true and false only whole, at a line's end too", () => {
    for (const word of ["true", "false"]) {
      for (let length = 1; length <= word.length; length++) {
        for (const value of [word.slice(0, length), `${word.slice(0, length)}x`, word.slice(0, length).toUpperCase()]) {
          agree(`{"case_id":"c1","run":0,"judgment":${value}}`);
          agree(`{"case_id":"c1","run":0,"judgment":${value}`);
          agree(`{"case_id":"c1","judgment":false,"model":[${value}]}`);
          agree(`{"case_id":"c1","judgment":false,"model":{"a":${value}}`);
        }
      }
    }
  });

  it("tells the keys it reads from keys that only begin or end like them", () => {
    const known = ["case_id", "run", "judgment", "evidence_sentence_ids", "reasoning", "completion", "prediction"];
    const left = ["id", "sample", "evidence", "error", "custom_id", "response", "__proto__"];
    const keys = [...known, ...left].flatMap((k) => [
      k,
      k.slice(0, -1),
      `${k}x`,
      `x${k}`,
      k.toUpperCase(),
      `${k.slice(0, 1)}\\u00${k.charCodeAt(1).toString(16)}${k.slice(2)}`,
    ]);
    for (const key of [...keys, "", "i", "ru", "evidence_sentence_idz"]) {
      for (const value of ['"c1"', "3", "true", "[2]", '"[1] x"', '{"judgment":true}']) {
        agree(`{"${key}":${value},"case_id":"c0","judgment":true,"evidence_sentence_ids":[2]}`);
        agree(`{"case_id":"c1","judgment":false,"${key}" : ${value}}`);
      }
      agree(`{"case_id":"c1","judgment":false,"${key}"`);
      agree(`{"case_id":"c1","judgment":false,"${key}":`);
    }
  });

  it("leaves to the string path what it does not read exactly", () => {
    for (const l of [
      '{"case_id":"c0","run":2.0,"judgment":true}',
      '{"case_id":"c0","run":1,"judgment":true,"evidence_sentence_ids":[1e0]}',
      '{"case_id":"c0","judgment":null}',
      '{"case_id":"c0","case_id":"c1","judgment":true}',
      '{"case\\u005fid":"c0","judgment":true}',
      '{"case_id":"c0","judgment":true,"reasoning":"\\u005b3]"}',
      '{"case_id":"c0","judgment":"maybe"}',
      '{"case_id":"c0","completion":"<think>\\nx\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [\\"One.\\"]\\n</answer>"}',
      '\ufeff{"case_id":"c0","judgment":true}',
      '{"case_id":"c0","completion":"<think>\\n<\\/answer>\\n</think>\\n<answer>\\nJudgment: no\\nEvidence: []\\n</answer>"}',
      '{"case_id":"c0","completion":"<think>\\n\\\\n</think>\\n<answer>\\nJudgment: no\\nEvidence: []\\n</answer>"}',
    ]) {
      const bytes = Buffer.from(l, "utf8");
      expect(scoreLineBytes(slice, undefined, bytes, 0, bytes.length)).toBe(false);
      expect(agree(l)).toBe(true);
    }
  });
});

describe("scoreBlock's lines scored in WebAssembly", () => {
  /** Each line, in one block, equals the oracle (messages aside: a chunk keeps only the first few). */
  function agreeInBlock(lines: readonly string[], options: ScoreOptions): void {
    const r = scoreBlock({ slice, options }, 1, Buffer.from(lines.map((l) => `${l}\n`).join(""), "utf8"));
    lines.forEach((l, i) => {
      expect({ ...fromColumns(r, i), message: undefined }).toStrictEqual({ ...oracle(l, options), message: undefined });
    });
  }

  // The shapes as judges write them, without the members the block's WebAssembly pass leaves to
  // JavaScript (a `model`, a reasoning beside a completion or a `prediction`).
  const plainStructured = fc.record(
    {
      case_id: knownId,
      run: fc.oneof(fc.nat({ max: 300 }), fc.constantFrom("r1")),
      judgment: fc.boolean(),
      evidence_sentence_ids: fc.oneof(inRange, inRange, inRange, idList),
      reasoning: reasoningText,
    },
    { requiredKeys: ["case_id", "judgment"] },
  );
  // Completions in the layout with answers mostly taken: every outcome, IDs in and out of the document.
  const layoutCompletion = fc.oneof(
    completionText,
    fc
      .tuple(thinkText, fc.constantFrom("yes", "no", "True", "FALSE", "nO"), fc.constantFrom("[]", "[1, 2]", "[2, 2, 12]", "[13]", "[0]", "[7, 3, 1]", "[5]"))
      .map(([think, judgment, evidence]) => `<think>\n${think}\n</think>\n<answer>\nJudgment: ${judgment}\nEvidence: ${evidence}\n</answer>`),
  );
  const plainCompletion = fc.record({ case_id: knownId, run: fc.nat({ max: 9 }), completion: layoutCompletion }, { requiredKeys: ["case_id", "completion"] });
  const plainCache = fc.record(
    {
      case_id: knownId,
      run: fc.nat({ max: 9 }),
      prediction: fc.oneof(
        fc.record({ judgment: fc.boolean(), evidence_sentence_ids: fc.oneof(inRange, idList), reasoning: reasoningText }, { requiredKeys: ["judgment"] }),
        fc.record({ completion: layoutCompletion }),
      ),
    },
    { requiredKeys: ["case_id", "prediction"] },
  );
  const plainShaped = fc.tuple(fc.oneof(plainStructured, plainCompletion, plainCache), fc.constantFrom("", " ")).map(([value, space]) => {
    const json = JSON.stringify(value);
    return space === "" ? json : json.replace(/([,:[{])/g, `$1${space}`);
  });

  /**
   * The block's whole chunk as scoreBlock fills it equals the one the string path alone fills
   * (scoreLines, every line decoded and scanned as text): every column, the run keys in their order
   * of first appearance, the evidence's layout, the messages and orphans.
   */
  function sameChunk(block: Buffer, options: ScoreOptions, firstLineNo = 1): ChunkResult {
    const state: ScoreState = { slice, options };
    const lines: Line[] = [];
    splitBlock(block, firstLineNo, lines);
    const r = scoreBlock(state, firstLineNo, block);
    expect(r).toStrictEqual(scoreLines(state, firstLineNo, lines));
    return r;
  }

  // Runs of every kind the chunk keys: absent, integers below and above the run column's 2^31 and
  // the array of small ones, strings (one the text of an integer, whose key is that integer's).
  const anyRun = fc.oneof(fc.nat({ max: 300 }), fc.constantFrom(0, "0", "7", 7, "r1", "", 255, 256, 2 ** 31 - 1, 2 ** 31, 1e15 - 1));
  const keyedShaped = fc.tuple(plainShaped, fc.option(anyRun, { nil: undefined })).map(([json, run]) => {
    const value = JSON.parse(json) as Record<string, unknown>;
    delete value["run"];
    return JSON.stringify(run === undefined ? value : { run, ...value });
  });

  it("writes the scored lines codes that are their reasons' indices", () => {
    for (const [reason, code] of Object.entries(ROW_REASON_CODES)) expect(CASE_REASONS[code]).toBe(reason);
  });

  it("fills a block's chunk as the string path does, lines scored in WebAssembly among any others", () => {
    let lines = 0;
    let scored = 0;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(keyedShaped, keyedShaped, keyedShaped, plainShaped, shaped, written, mutated), { minLength: 1, maxLength: 40 }),
        fc.constantFrom(1, 7),
        (block, firstLineNo) => {
          const bytes = Buffer.from(block.map((l) => `${l}\n`).join(""), "utf8");
          for (const options of OPTION_SETS) sameChunk(bytes, options, firstLineNo);
          lines += block.length;
          scored += wasmScored(block, { lenientIds: false }).filter((x) => x).length;
        },
      ),
      { numRuns: 400 },
    );
    expect(scored).toBeGreaterThan(lines / 5);
  });

  it("fills the chunk of a block of scored lines only, and of one whose other lines hold evidence between them", () => {
    const scoredLines = [
      '{"case_id":"c0","run":"r1","judgment":true,"evidence_sentence_ids":[5,2],"reasoning":"[2]"}',
      '{"case_id":"c0","run":3000000000,"judgment":true,"evidence_sentence_ids":[2],"reasoning":"[2]"}',
      '{"case_id":"c1","judgment":false,"evidence_sentence_ids":[]}',
      '{"case_id":"c0","run":0,"judgment":true,"evidence_sentence_ids":[12,1,3],"reasoning":"[2]"}',
      '{"case_id":"c0","run":"3000000000","judgment":true,"evidence_sentence_ids":[4],"reasoning":"[1]"}',
    ];
    // A string judgment: the byte path's, with evidence of its own.
    const other = '{"case_id":"c0","run":"r2","judgment":"yes","evidence_sentence_ids":[7,6]}';
    expect(wasmScored(scoredLines, { lenientIds: false })).toStrictEqual(scoredLines.map(() => true));
    expect(wasmScored([other], { lenientIds: false })).toStrictEqual([false]);
    const only = sameChunk(Buffer.from(scoredLines.map((l) => `${l}\n`).join("")), { lenientIds: false });
    expect(only.runKeys).toStrictEqual(["r1", "3000000000", "0"]);
    expect([...only.runKey]).toStrictEqual([0, 1, 2, 2, 1]);
    expect([...only.evStart]).toStrictEqual([0, 2, 3, 3, 6, 7]);
    expect([...only.evData]).toStrictEqual([2, 5, 2, 1, 3, 12, 4]);
    const mixed = [other, scoredLines[0]!, other, other, scoredLines[3]!, scoredLines[4]!, other, "{", scoredLines[2]!];
    const r = sameChunk(Buffer.from(mixed.map((l) => `${l}\n`).join("")), { lenientIds: false });
    expect(r.runKeys).toStrictEqual(["r2", "r1", "0", "3000000000"]);
    expect([...r.evStart]).toStrictEqual([0, 2, 4, 6, 8, 11, 12, 14, 14, 14]);
    expect([...r.evData]).toStrictEqual([6, 7, 2, 5, 6, 7, 6, 7, 1, 3, 12, 4, 6, 7]);
    // The same lines in a block that is not UTF-8: none is scored in WebAssembly.
    sameChunk(Buffer.concat([Buffer.from(mixed.map((l) => `${l}\n`).join("")), Buffer.from([0xff, 0x0a])]), { lenientIds: false });

    // A chunk scored into the columns of one given back (reuseChunkColumns) is the chunk scored into
    // new ones, whatever the earlier chunk left in them: a shorter block, lines of both paths, an
    // orphan and a line that is not UTF-8.
    const state: ScoreState = { slice, options: { lenientIds: false } };
    const long = Buffer.from([...scoredLines, ...mixed, ...scoredLines].map((l) => `${l}\n`).join(""));
    const shorter = Buffer.concat([
      Buffer.from([other, '{"case_id":"nowhere","judgment":true}', scoredLines[1]!].map((l) => `${l}\n`).join("")),
      Buffer.from([0xff, 0x0a]),
    ]);
    for (const next of [shorter, Buffer.from(mixed.map((l) => `${l}\n`).join("")), Buffer.from(`${scoredLines[0]}\n`)]) {
      const fresh = scoreBlock(state, 9, next);
      const given = scoreBlock(state, 1, long);
      reuseChunkColumns(given);
      const reused = scoreBlock(state, 9, next);
      expect(reused.kind.buffer).toBe(given.kind.buffer);
      expect(reused).toStrictEqual(fresh);
    }
  });

  it("scores blocks of the shapes judges write as the full parser and scoreCase do, many lines there", () => {
    let lines = 0;
    let scored = 0;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(plainShaped, plainShaped, plainShaped, plainShaped, plainShaped, shaped, written, mutated), { minLength: 1, maxLength: 40 }),
        (block) => {
          for (const options of OPTION_SETS) agreeInBlock(block, options);
          const taken = wasmScored(block, { lenientIds: false });
          lines += block.length;
          scored += taken.filter((x) => x).length;
        },
      ),
      { numRuns: 400 },
    );
    // A third of the lines are of other shapes, and some values are outside on purpose (odd evidence, references or layouts).
    expect(scored).toBeGreaterThan(lines / 5);
  });

  it("scores there the common lines of each shape and outcome", () => {
    const lines = [
      // Format-valid: matched 2 of 2 gold, references [2] and [3]-[5] (4 of 12 sentences).
      '{"case_id":"c0","run":0,"judgment":true,"evidence_sentence_ids":[5,2,5],"reasoning":"Sentence [2] and [3]-[5]."}',
      // Right, no gold sentence cited: reward -1.
      '{"case_id":"c0","run":1,"judgment":true,"evidence_sentence_ids":[3],"reasoning":"[1-2]"}',
      // One of three gold IDs: reward 1 + 1/3.
      '{"case_id":"\ud83d\ude00 id","run":1,"judgment":true,"evidence_sentence_ids":[9,3],"reasoning":""}',
      '{"case_id":"c1","run":2,"judgment":false,"evidence_sentence_ids":[],"reasoning":"fine [1]-[3]"}',
      '{"case_id":"c1","judgment":false}',
      '{"case_id":"c1","run":"r7","judgment":true,"evidence_sentence_ids":[1]}',
      // Each reason: out of the document, positive without evidence, negative with, a reference beyond the document.
      '{"case_id":"c0","run":3,"judgment":true,"evidence_sentence_ids":[2,13],"reasoning":"[2]"}',
      '{"case_id":"c0","run":3,"judgment":true,"evidence_sentence_ids":[0],"reasoning":"[2]"}',
      '{"case_id":"c0","run":4,"judgment":true,"evidence_sentence_ids":[],"reasoning":"[2]"}',
      '{"case_id":"c1","run":5,"judgment":false,"evidence_sentence_ids":[2],"reasoning":"[2]"}',
      '{"case_id":"c1","run":6,"judgment":false,"evidence_sentence_ids":[],"reasoning":"[2]-[4]"}',
      '{"case_id":"c1","run":6,"judgment":false,"evidence_sentence_ids":[],"reasoning":"[3-2]"}',
      '{"case_id":"c0","run":7,"prediction":{"judgment":true,"evidence_sentence_ids":[12,2,5],"reasoning":"[1]-[3] [9]"}}',
      '{"case_id":"caf\u00e9","run":7,"completion":"<think>\\nSentence [3] and [1].\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [7, 2]\\n</answer>"}',
      '{"case_id":"c0","run":8,"completion":"<think>\\n</think>\\n<answer>\\nJudgment: FALSE\\nEvidence: []\\n</answer>"}',
      '{"case_id":"c0","run":9,"completion":"<think>\\n[2]\\n</think>\\n<answer>\\nJudgment: True\\nEvidence: [13]\\n</answer>"}',
      '{"case_id":"3488771835_6","run":9,"completion":"<think>\\n[1] [2]\\n</think>\\n<answer>\\nJudgment: no\\nEvidence: []\\n</answer>"}',
    ];
    for (const options of OPTION_SETS.slice(0, 2)) {
      expect(wasmScored(lines, options)).toStrictEqual(lines.map(() => true));
      agreeInBlock(lines, options);
      for (const l of lines) agree(l);
    }
  });

  it("leaves to JavaScript orphans, string judgments, completions under a rule that cuts their end, and cases not ready", () => {
    const lines = [
      '{"case_id":"nowhere","run":0,"judgment":true,"evidence_sentence_ids":[1]}',
      '{"case_id":"c1","run":0,"judgment":"no","evidence_sentence_ids":[]}',
      '{"case_id":"c0","run":1,"completion":"<think>\\n[2]\\n</think>\\n<answer>\\nJudgment: maybe\\nEvidence: [2]\\n</answer>"}',
      '{"case_id":"c0","run":1,"completion":"<think>\\n[2]\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [2,3]\\n</answer>"}',
      '{"case_id":"c0","run":1,"judgment":true,"evidence_sentence_ids":[2],"reasoning":"[1] [2] [3] [4] [5] [6] [7] [8] [9] [10] [11] [12] [1] [2] [3] [4] [5]"}',
    ];
    expect(wasmScored(lines, { lenientIds: false })).toStrictEqual(lines.map(() => false));
    const completion = '{"case_id":"c0","run":1,"completion":"<think>\\n[2]\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [2]\\n</answer>"}';
    expect(wasmScored([completion], { lenientIds: false })).toStrictEqual([true]);
    expect(wasmScored([completion], { lenientIds: false, completionEnd: { specialTokens: ["r>"] } })).toStrictEqual([false]);
    expect(wasmScored([completion], { lenientIds: false, completionEnd: { keepSpecialTokens: true, specialTokens: ["r>"] } })).toStrictEqual([true]);
    // A case whose gold is outside its document: the string path throws for it, so it must reach it.
    const broken = { ...slice, cases: [sliceCase(0, "c0", 3, true, [5]), sliceCase(1, "c1", 3, false, [])] } as DocumentSlice;
    const line = '{"case_id":"c0","run":0,"judgment":true,"evidence_sentence_ids":[1],"reasoning":"x"}';
    const fine = '{"case_id":"c1","run":0,"judgment":false,"evidence_sentence_ids":[],"reasoning":"x"}';
    expect(wasmScored([line, fine], { lenientIds: false }, broken)).toStrictEqual([false, true]);
    expect(() => scoreBlock({ slice: broken, options: { lenientIds: false } }, 1, Buffer.from(`${line}\n`))).toThrow();
  });

  it("lays out a case's gold as the check returns it when the slice holds it unsorted or repeated", () => {
    // Gold the check sorts and de-duplicates (the module must match against [2, 5] and [1, 3]), a
    // case whose gold is already plain, and a negative one.
    const unsorted = {
      ...slice,
      cases: [sliceCase(0, "c0", 12, true, [5, 2]), sliceCase(1, "c1", 6, true, [3, 3, 1]), sliceCase(2, "c2", 4, true, [4]), sliceCase(3, "c3", 3, false, [])],
    } as DocumentSlice;
    (unsorted as { byId: Map<string, number> }).byId = new Map(unsorted.cases.map((c) => [c.id, c.index]));
    const lines = [
      '{"case_id":"c0","run":0,"judgment":true,"evidence_sentence_ids":[2,5],"reasoning":"[2] and [5]"}',
      '{"case_id":"c0","run":1,"judgment":true,"evidence_sentence_ids":[5],"reasoning":"[5]"}',
      '{"case_id":"c1","run":0,"judgment":true,"evidence_sentence_ids":[1,2,3],"reasoning":"[1]-[3]"}',
      '{"case_id":"c1","run":1,"judgment":true,"evidence_sentence_ids":[3],"reasoning":"x"}',
      '{"case_id":"c2","run":0,"judgment":true,"evidence_sentence_ids":[4],"reasoning":"[4]"}',
      '{"case_id":"c3","run":0,"judgment":false,"evidence_sentence_ids":[],"reasoning":"x"}',
    ];
    expect(wasmScored(lines, { lenientIds: false }, unsorted)).toStrictEqual(lines.map(() => true));
    const state: ScoreState = { slice: unsorted, options: { lenientIds: false } };
    const block = Buffer.from(lines.map((l) => `${l}\n`).join(""));
    const parts: Line[] = [];
    splitBlock(block, 1, parts);
    const r = scoreBlock(state, 1, block);
    expect(r).toStrictEqual(scoreLines(state, 1, parts));
    // The first line matched both gold sentences, the third two of them (1 and 3).
    expect([...r.matched]).toEqual([2, 1, 2, 1, 1, 0]);
  });

  it("lays each slice's facts out afresh when the slice changes", () => {
    // The same ids, other gold and sentence counts; and many ids, so that the table is probed.
    const ids = Array.from({ length: 3000 }, (_, k) => `case-${k}`);
    const other = {
      ...slice,
      cases: [
        sliceCase(0, "c1", 12, true, [4]),
        sliceCase(1, "c0", 2, false, []),
        ...ids.map((id, k) => sliceCase(k + 2, id, 1 + (k % 12), k % 3 === 0, k % 3 === 0 ? [1] : [])),
      ],
    } as DocumentSlice;
    (other as { byId: Map<string, number> }).byId = new Map(other.cases.map((c) => [c.id, c.index]));
    const lines = [
      '{"case_id":"c0","run":0,"judgment":true,"evidence_sentence_ids":[2],"reasoning":"[2]"}',
      '{"case_id":"c1","run":0,"judgment":true,"evidence_sentence_ids":[4],"reasoning":"[2]-[3]"}',
      ...ids.map((id, k) => `{"case_id":"${id}","run":${k % 4},"judgment":${k % 2 === 0},"evidence_sentence_ids":[${k % 2 === 0 ? 1 : ""}]}`),
    ];
    for (const on of [slice, other, slice, other]) {
      const expected = lines.map((l) => {
        const id = JSON.parse(l).case_id as string;
        return on.byId.has(id);
      });
      expect(wasmScored(lines, { lenientIds: false }, on)).toStrictEqual(expected);
      const r = scoreBlock({ slice: on, options: { lenientIds: false } }, 1, Buffer.from(lines.map((l) => `${l}\n`).join("")));
      for (const i of [0, 1, 2, 3, 1000, 2999, 3001]) {
        const l = lines[i]!;
        const id = JSON.parse(l).case_id as string;
        const caseIndex = on.byId.get(id);
        if (caseIndex === undefined) continue;
        const scored = scoreCase(on.cases[caseIndex]!, JSON.parse(l), { lenientIds: false });
        expect(r.caseIndex[i]).toBe(caseIndex);
        expect(CASE_REASONS[r.code[i]!] ?? null).toBe(scored.reason);
        expect(r.coverage[i]).toBe(scored.referenceCoverage);
        expect(r.rewardAccuracy[i]).toBe(scored.rewardAccuracy);
        expect(r.matched[i]).toBe(scored.matched);
      }
    }
  });
});
