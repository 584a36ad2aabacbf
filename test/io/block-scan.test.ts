// The WebAssembly first pass over a block of dump lines (src/io/block-scan.ts, its source
// wasm/block-scan.ts) against dump-bytes.ts's JavaScript scanner: for generated lines of the
// shapes it reads and lines near them (other keys, spaces, escapes, odd integers, references,
// broken layouts), every line the module takes is one the scanner accepts, with the same fields
// and references that count the same against any sentence count; and it takes the lines of the
// shapes judges write, or it would agree by never answering. The scanner itself is held to the full parser by
// test/document-eval/score-bytes.property.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ROW_FIELDS, ROW_STATUS, scanBlockRows } from "../../src/io/block-scan.js";
import { scanLineAt, scanLineBytes, scanLinesAhead, scanned } from "../../src/io/dump-bytes.js";
import { recordedReferenceCount, recordedReferences, summarizedReferenceCount } from "../../src/core/document/references.js";

/** What a scan left in `scanned` and the recorded references, for the fields it set. */
function snapshot(): Record<string, unknown> {
  const s = scanned;
  const span = (x: { start: number; end: number; escaped: boolean }) => (x.start < 0 ? null : { ...x });
  return {
    caseId: span(s.caseId),
    run: s.runKind === 1 ? s.runValue : s.runKind === 2 ? span(s.run) : null,
    judgment: s.judgmentKind === 3 ? span(s.judgment) : s.judgmentKind,
    evidence: s.evidenceCount < 0 ? null : Array.from(s.evidence.subarray(0, s.evidenceCount)),
    reasoning: span(s.reasoning),
    completion: span(s.completion),
    layout: s.completion.start < 0 ? null : [s.layoutMiddle, s.layoutNewline, s.completionSlash],
    references: referenceCounts(),
  };
}

/** Sentence counts the references are counted against. */
const SENTENCE_COUNTS = [1, 2, 3, 4, 5, 7, 12, 20, 40, 1000, 2 ** 31 - 1];

/**
 * What the line's references come to for each sentence count, as scoring counts them: from the
 * summary the WebAssembly pass gave, or from the references recorded (the line's only text with
 * references, or all of them when the row has no summary).
 */
function referenceCounts(): unknown[] {
  const s = scanned;
  if (s.referenceSummary !== -1) return SENTENCE_COUNTS.map((n) => summarizedReferenceCount(s.referenceSummary, s.referenceHighest, n));
  const recorded = recordedReferences();
  const end = recorded.length === 0 ? 0 : recorded[recorded.length - 1]![2]! + 1;
  return SENTENCE_COUNTS.map((n) => recordedReferenceCount(0, end, n));
}

/** The block's line ends (each newline, and the end of a last line without one). */
function lineEnds(block: Buffer): Int32Array {
  const ends: number[] = [];
  let at = 0;
  for (;;) {
    const newline = block.indexOf(0x0a, at);
    if (newline < 0) break;
    ends.push(newline);
    at = newline + 1;
  }
  if (at < block.length) ends.push(block.length);
  return Int32Array.from(ends);
}

/** Each line of the block read both ways: whether the module took it. Fails at the first difference. */
function compareLines(lines: readonly string[]): boolean[] {
  const block = Buffer.from(lines.map((l) => `${l}\n`).join(""), "utf8");
  const ends = lineEnds(block);
  const taken = lines.map(() => false);
  const results = lines.map((_, k) => {
    const start = k === 0 ? 0 : ends[k - 1]! + 1;
    const end = ends[k]! > start && block[ends[k]! - 1] === 0x0d ? ends[k]! - 1 : ends[k]!;
    const accepted = scanLineBytes(block, start, end);
    return { start, end, accepted, fields: accepted ? snapshot() : null };
  });
  scanLinesAhead(block, ends);
  const rows = scanBlockRows(block, ends);
  results.forEach(({ start, end, accepted, fields }, k) => {
    if (rows === undefined || rows.rows[k * ROW_FIELDS + ROW_STATUS] !== 1) return;
    taken[k] = true;
    // Each call reads row k afresh (scanBlockRows above left the same rows).
    expect({ line: lines[k], accepted }).toStrictEqual({ line: lines[k], accepted: true });
    expect(scanLineAt(block, start, end, k)).toBe(true);
    expect({ line: lines[k], fields: snapshot() }).toStrictEqual({ line: lines[k], fields });
  });
  return taken;
}

/** How many of the block's lines the module took, each read both ways (compareLines). */
const compareBlock = (lines: readonly string[]): number => compareLines(lines).filter(Boolean).length;

/** Whether the JavaScript scanner accepts the line alone. */
function scannerAccepts(line: string): boolean {
  const block = Buffer.from(line, "utf8");
  return scanLineBytes(block, 0, block.length);
}

// Raw JSON text of the values (escapes written as the line holds them).
const space = fc.constantFrom("", "", " ", "  ");
const caseId = fc.constantFrom('"c0"', '"3488771835_6"', '"caf\u00e9"', '""', '"a\\"b"', '"x\\ny"', '"\u00e9\u20ac"', '"c\u0001"', "7", "null");
const integer = fc.constantFrom("0", "7", "12", "007", "999999999999999", "1000000000000000", "1.5", "2e3", "1E2", "-1", "3.");
const run = fc.oneof(integer, fc.constantFrom('"a"', '"0"', '"r\\"1"', "true", "null"));
const judgment = fc.constantFrom("true", "false", '"yes"', "1", "null", "tru", "falsey");
const evidence = fc.oneof(
  fc.array(integer, { maxLength: 5 }).chain((ids) => space.map((s) => `[${s}${ids.join(`${s},${s}`)}${s}]`)),
  fc.constantFrom("[]", "[ ]", '["2"]', "[[1]]", "[1,]", "[,1]", "{}", "null", "[true]"),
);
/** Pieces of a reasoning or think text: references whole and broken, digits of other scripts, escapes, raw bytes. */
const piece = fc.constantFrom(
  "Sentence ",
  "[3]",
  "[2-5]",
  "[2]-[7]",
  "[2-5]-[9]",
  "[7]-[2]",
  "[0]",
  "[12]",
  "[99999999999999999999]",
  "[9007199254740993]",
  "[",
  "]",
  "-",
  "[-",
  "[3-",
  "[3]-",
  "[3]-[",
  "1",
  "[\u0663]",
  "[\uff11]",
  "[1\u0663]",
  "[3]-[\u0664]",
  "\\n",
  '\\"',
  "\\\\",
  "\\/",
  "\\t",
  "\\u0041",
  "\\x",
  "\u0001",
  "\u00e9",
  "\u20ac",
  "\ud83d\ude00",
  " and ",
  "<",
  "<b>",
  "<think>",
  "</think>",
  "<answer>",
);
const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));
/** A judge's text: references and words, ASCII or not, the escapes JSON writers use. */
const judgeText = fc
  .array(fc.constantFrom("Sentence ", "[3]", "[2-5]", "[2]-[7]", "[12]", " and ", "\\n", '\\"', "\u00e9", "\u20ac", ", so ", "<b>", "-"), { maxLength: 10 })
  .map((parts) => parts.join(""));
const reasoning = text.map((t) => `"${t}"`);
/** A raw completion: the layout whole, or with a part missing or changed. */
const completion = fc
  .record({
    think: text,
    open: fc.constantFrom("<think>\\n", "<think>\\n", "<think>", "<think>\\r"),
    middle: fc.constantFrom("\\n</think>\\n<answer>\\n", "\\n</think>\\n<answer>\\n", "\\n<\\/think>\\n<answer>\\n", "\\n</think>\\n<answer>"),
    judgment: fc.constantFrom("Judgment: yes", "Judgment: no", "Judgment: maybe", "Judgment:yes", ""),
    evidenceLine: fc.constantFrom("\\nEvidence: [2, 3]", "\\nEvidence: []", "\\nEvidence: [x]", "", "\\nEvidence: [1]\\n"),
    close: fc.constantFrom("\\n</answer>", "\\n</answer>", "\\n<\\/answer>", "</answer>", "\\n</answer>x"),
  })
  .map((c) => `"${c.open}${c.think}${c.middle}${c.judgment}${c.evidenceLine}${c.close}"`);
/** A cache shape's `prediction`: its members (any may come twice, or be one it may not hold), or a value that is no such object. */
const predictionMember = fc.oneof(
  { weight: 3, arbitrary: judgment.map((v) => ["judgment", v] as const) },
  { weight: 3, arbitrary: evidence.map((v) => ["evidence_sentence_ids", v] as const) },
  { weight: 3, arbitrary: reasoning.map((v) => ["reasoning", v] as const) },
  { weight: 2, arbitrary: completion.map((v) => ["completion", v] as const) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      ["case_id", '"c0"'],
      ["run", "1"],
      ["model", '"m"'],
      ["id", '"c0"'],
      ["prediction", "{}"],
      ["extra", '{"a":1}'],
      ["extra", '[1,"x"]'],
      ["judgmen", "true"],
    ),
  },
);
const prediction = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({ members: fc.array(predictionMember, { maxLength: 4 }), space })
      .map(({ members, space: s }) => `{${s}${members.map(([k, v]) => `"${k}"${s}:${s}${v}`).join(`${s},${s}`)}${s}}`),
  },
  { weight: 1, arbitrary: fc.constantFrom("{}", "{ }", "null", "[]", '"x"', "{,}", '{"judgment":true,}', '{"judgment":true') },
);
const member = fc.oneof(
  { weight: 3, arbitrary: caseId.map((v) => ["case_id", v] as const) },
  { weight: 3, arbitrary: run.map((v) => ["run", v] as const) },
  { weight: 3, arbitrary: judgment.map((v) => ["judgment", v] as const) },
  { weight: 3, arbitrary: evidence.map((v) => ["evidence_sentence_ids", v] as const) },
  { weight: 3, arbitrary: reasoning.map((v) => ["reasoning", v] as const) },
  { weight: 3, arbitrary: completion.map((v) => ["completion", v] as const) },
  { weight: 3, arbitrary: prediction.map((v) => ["prediction", v] as const) },
  { weight: 1, arbitrary: fc.constantFrom(["model", '"m"'], ["id", '"c0"'], ["case_i", '"c0"'], ["run\\u0020", "1"]) },
);
/** A line: its members (a key may come twice), spaces between tokens, a "\r" or spaces at its end. */
const line = fc
  .record({ members: fc.array(member, { maxLength: 7 }), space, tail: fc.constantFrom("", "", " ", "\r", "x") })
  .map(({ members, space: s, tail }) => `{${s}${members.map(([k, v]) => `"${k}"${s}:${s}${v}`).join(`${s},${s}`)}${s}}${tail}`);
/** The shapes judges write: mari's own structured line, the cache shape and a trainer's raw completion, compact or as json.dumps writes them. */
const judgeId = fc.constantFrom('"c0"', '"3488771835_6"', '"caf\u00e9"', '"g12"');
const judgeRun = fc.nat({ max: 1000 }).map(String);
const judgeIds = fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 4 }).map((ids) => `[${ids.join(",")}]`);
const shaped = fc.oneof(
  fc
    .record({ id: judgeId, run: judgeRun, judgment: fc.constantFrom("true", "false"), evidence: judgeIds, reasoning: judgeText })
    .map((v) => `{"case_id":${v.id},"run":${v.run},"judgment":${v.judgment},"evidence_sentence_ids":${v.evidence},"reasoning":"${v.reasoning}"}`),
  fc
    .record({ id: judgeId, run: judgeRun, think: judgeText })
    .map(
      (v) => `{"case_id": ${v.id}, "run": ${v.run}, "completion": "<think>\\n${v.think}\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [2]\\n</answer>"}`,
    ),
  fc
    .record({ id: judgeId, run: judgeRun, judgment: fc.constantFrom("true", "false"), evidence: judgeIds, reasoning: judgeText, spaced: fc.boolean() })
    .map((v) =>
      v.spaced
        ? `{"case_id": ${v.id}, "run": ${v.run}, "prediction": {"judgment": ${v.judgment}, "evidence_sentence_ids": ${v.evidence.replaceAll(",", ", ")}, "reasoning": "${v.reasoning}"}}`
        : `{"case_id":${v.id},"run":${v.run},"prediction":{"judgment":${v.judgment},"evidence_sentence_ids":${v.evidence},"reasoning":"${v.reasoning}"}}`,
    ),
);

describe("the WebAssembly first pass over a block (block-scan.ts)", () => {
  it("takes only lines the JavaScript scanner accepts, with the same fields, its references counting the same", () => {
    let taken = 0;
    let cacheShaped = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), (lines) => {
        compareLines(lines).forEach((took, k) => {
          if (!took) return;
          taken++;
          if (lines[k]!.includes('"prediction"')) cacheShaped++;
        });
      }),
      { numRuns: 3000 },
    );
    // Most of these lines leave the shape somewhere; enough of them are taken to compare, cache-shaped ones among them.
    expect(taken).toBeGreaterThan(500);
    expect(cacheShaped).toBeGreaterThan(50);
  });

  it("takes most lines of the shapes judges write, with the same fields", () => {
    let taken = 0;
    let lines = 0;
    fc.assert(
      fc.property(fc.array(shaped, { minLength: 1, maxLength: 12 }), (block) => {
        lines += block.length;
        taken += compareBlock(block);
      }),
      { numRuns: 1000 },
    );
    // A think text with a tag out of place (`<b>` is not one) or a `\"` is still the layout; none of these lines leaves the shape.
    expect(taken).toBe(lines);
  });

  it("reads lines of the shape wherever they fall in the block and its 16-byte steps", () => {
    const base = '{"case_id":"c0","run":1,"judgment":true,"evidence_sentence_ids":[2],"reasoning":"see [2]-[4] and [1-3]"}';
    const layout = '{"case_id":"c0","run":2,"completion":"<think>\\n[5] vs [2-3]\\n</think>\\n<answer>\\nJudgment: no\\nEvidence: []\\n</answer>"}';
    const cached = '{"case_id":"c0","run":3,"prediction":{"judgment":true,"evidence_sentence_ids":[1,2],"reasoning":"Sentence [1] and [2]-[3]"}}';
    for (let pad = 0; pad < 40; pad++) {
      const lines = [
        `{"case_id":"${"p".repeat(pad)}","run":0,"judgment":false,"evidence_sentence_ids":[],"reasoning":"x"}`,
        base,
        layout,
        base.replace("[2]-[4]", "[2]-[4".padEnd(pad + 6, "1")),
        cached.replace("[1]", `[1]${" ".repeat(pad)}`),
      ];
      expect(compareBlock(lines)).toBe(5);
    }
  });

  it("counts a line's references as the scanner's record counts them, however many and however large", () => {
    const line = (reasoning: string) => `{"case_id":"c0","run":0,"judgment":true,"evidence_sentence_ids":[2],"reasoning":"${reasoning}"}`;
    const many = (count: number) => Array.from({ length: count }, (_, k) => `[${(k * 7) % 30}-${((k * 7) % 30) + (k % 4)}]`).join(" ");
    const lines = [
      line(many(15)),
      line(many(16)),
      line(many(17)),
      line(many(40)),
      line("[2147483646] and [1-3]"),
      line("[2147483647]"),
      line("[1-2147483646]"),
      line("[2147483648]"),
      line("[3000000000] and [2]"),
      line("[1-4294967296]"),
      line("[5]-[2] and [3]"),
      line("[3-1]"),
      line("[1]-[3] [2-6] [8] [7] [10-12] [9]"),
      '{"case_id":"c0","run":0,"completion":"<think>\\n[2] [1-2] [40] [3]-[1]\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [2]\\n</answer>"}',
      `{"case_id":"c0","run":0,"prediction":{"reasoning":"${many(17)}"}}`,
      `{"case_id":"c0","run":0,"prediction":{"reasoning":"[5]-[2] and [3]"}}`,
      '{"case_id":"c0","run":0,"prediction":{"completion":"<think>\\n[2] [1-2] [40]\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [2]\\n</answer>"}}',
      // Both a reasoning and a completion: their references are recorded, not summed.
      '{"case_id":"c0","run":0,"prediction":{"reasoning":"[1] [9]","completion":"<think>\\n[2]\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [2]\\n</answer>"}}',
    ];
    expect(compareBlock(lines)).toBe(lines.length);
  });

  it("reads the cache shape as the scanner does, and none of the lines it turns down", () => {
    const layout = '"<think>\\n[2] [4-5]\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [2]\\n</answer>"';
    // Lines the scanner reads: each is read here too, with the same fields.
    const read = [
      '{"case_id":"x","run":3,"prediction":{"judgment":true,"evidence_sentence_ids":[1,2],"reasoning":"Sentence [1] ..."}}',
      '{"prediction":{"reasoning":"[2]-[4]","evidence_sentence_ids":[],"judgment":false},"case_id":"x","run":"r1"}',
      '{"case_id":"x","prediction":{"judgment":true},"run":0}',
      '{"case_id":"x","run":0,"prediction":{}}',
      '{ "case_id" : "x" , "prediction" : { } , "run" : 0 } ',
      '{"case_id": "x", "run": 0, "prediction": {"judgment": true, "evidence_sentence_ids": [1, 2], "reasoning": "a \\"b\\" \\\\ [3]\\n\\/\\t"}}',
      `{"case_id":"x","run":0,"prediction":{"judgment":false,"completion":${layout}}}`,
      `{"case_id":"x","run":0,"prediction":{"reasoning":"[1] and [7]","completion":${layout}}}`,
      '{"run":0,"prediction":{"judgment":true}}',
      '{"case_id":"x","run":0,"prediction":{"reasoning":"[0] [3-1] [99999999999999999999]"}}',
    ];
    // Lines the scanner turns down: none is read here.
    const refused = [
      '{"case_id":"x","run":0,"prediction":{"judgment":true},"prediction":{"judgment":true}}',
      '{"case_id":"x","run":0,"prediction":{},"prediction":{}}',
      '{"case_id":"x","judgment":true,"prediction":{"reasoning":"[1]"}}',
      '{"case_id":"x","evidence_sentence_ids":[1],"prediction":{}}',
      '{"case_id":"x","prediction":{"reasoning":"[1]"},"judgment":true}',
      '{"case_id":"x","prediction":{},"evidence_sentence_ids":[1]}',
      '{"case_id":"x","prediction":{"judgment":true},"reasoning":"[1]"}',
      `{"case_id":"x","prediction":{"judgment":true},"completion":${layout}}`,
      '{"run":0,"prediction":{"case_id":"x","judgment":true}}',
      '{"case_id":"x","prediction":{"run":0,"judgment":true}}',
      '{"case_id":"x","run":0,"prediction":{"prediction":{}}}',
      '{"case_id":"x","run":0,"prediction":{"extra":{"a":1},"judgment":true}}',
      '{"case_id":"x","run":0,"prediction":{"reasoning":"\\u0041 [2]"}}',
      '{"case_id":"x","run":0,"prediction":{"id":"x"}}',
      '{"case_id":"x","run":0,"prediction":{"judgment":true,"judgment":false}}',
      '{"case_id":"x","run":0,"prediction":{"reasoning":"a","reasoning":"b"}}',
      '{"case_id":"x","run":0,"prediction":null}',
      '{"case_id":"x","run":0,"prediction":[]}',
      '{"case_id":"x","run":0,"prediction":{"judgment":true,}}',
      '{"case_id":"x","run":0,"prediction":{,}}',
      '{"case_id":"x","run":0,"prediction":{"judgment":true}',
      '{"case_id":"x","run":0,"prediction":{"judgment":true}}}',
    ];
    // Lines the scanner reads that are left to it: a key it checks and drops, a value of its wider grammar.
    const left = [
      '{"case_id":"x","run":0,"prediction":{"judgment":true,"model":"m"}}',
      '{"case_id":"x","run":0,"prediction":{"extra":[1,"x",true],"judgment":true}}',
      '{"case_id":"x","run":0,"prediction":{"judgment":"yes"}}',
      '{"case_id":"x","run":0,"prediction":{"reasoning":"[\u0663] and [2]"}}',
      '{"case_id":"x","run":0,"prediction":{"completion":"no layout [2]"}}',
      '{"case_id":"x","run":0,"model":"m","prediction":{"judgment":true}}',
    ];
    for (const line of [...read, ...left]) expect({ line, accepted: scannerAccepts(line) }).toStrictEqual({ line, accepted: true });
    for (const line of refused) expect({ line, accepted: scannerAccepts(line) }).toStrictEqual({ line, accepted: false });
    const lines = [...read, ...refused, ...left];
    expect(compareLines(lines)).toStrictEqual(lines.map((_, k) => k < read.length));
  });

  it("leaves to the JavaScript scanner each line only it reads", () => {
    const layout = (think: string) =>
      `{"case_id":"c0","run":0,"completion":"<think>\\n${think}\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [2]\\n</answer>"}`;
    const structured = (reasoning: string) => `{"case_id":"c0","run":0,"judgment":true,"evidence_sentence_ids":[2],"reasoning":"${reasoning}"}`;
    const lines = [
      // A `\/` may hide a tag: the scanner reads on as a string.
      layout("[2] <\\/b> [3]"),
      layout("a tag <answer> out of place"),
      layout("\\u0041 [2]"),
      '{"case_id":"c0","run":0,"completion":"<think>\\n[2]\\n<\\/think>\\n<answer>\\nJudgment: yes\\nEvidence: [2]\\n</answer>"}',
      structured("[\u0663] and [2]"),
      structured("[2]-[\uff13]"),
      structured("\\u005b2]"),
      '{"case_id":"c\\u0030","run":0,"judgment":true,"evidence_sentence_ids":[2],"reasoning":"[2]"}',
      '{"case_id":"c0","run":0,"judgment":"yes","evidence_sentence_ids":[2],"reasoning":"[2]"}',
      '{"case_id":"c0","run":1234567890123456,"judgment":true,"evidence_sentence_ids":[2],"reasoning":"[2]"}',
      '{"case_id":"c0","run":0,"prediction":{"judgment":true,"evidence_sentence_ids":[2],"reasoning":"[2]","model":"m"}}',
      '{"case_id":"c0","run":0,"prediction":{"judgment":"yes","evidence_sentence_ids":[2],"reasoning":"[2]"}}',
      '{"case_id":"c0","run":0,"judgment":true,"evidence_sentence_ids":[2],"reasoning":"[2]","model":"m"}',
      '{"case_id":"c0",\t"run":0,"judgment":true,"evidence_sentence_ids":[2],"reasoning":"[2]"}',
    ];
    expect(compareBlock(lines)).toBe(0);
  });

  it("leaves a block of short lines to the JavaScript scanner, and grows for a block beyond its first memory", () => {
    expect(scanBlockRows(Buffer.from("{}\n{}\n{}\n"), Int32Array.from([2, 5, 8]))).toBeUndefined();
    const reasoning = "[1] ".repeat(5_000_000);
    const long = `{"case_id":"c0","run":0,"judgment":true,"evidence_sentence_ids":[1],"reasoning":"${reasoning}"}`;
    const short = '{"case_id":"c1","run":3,"judgment":false,"evidence_sentence_ids":[],"reasoning":"[2]"}';
    // 20 MB of text: more than the module's first memory. Its 5,000,000 references are more than
    // a block's rows have room for, so the long line is the JavaScript scanner's; the short one is read here.
    const block = Buffer.from(`${long}\n${short}\n`);
    const rows = scanBlockRows(block, lineEnds(block))!;
    expect([rows.rows[ROW_STATUS], rows.rows[ROW_FIELDS + ROW_STATUS]]).toStrictEqual([0, 1]);
    expect(compareBlock([short, long, short])).toBe(2);
  });
});
