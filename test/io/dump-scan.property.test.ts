// The dump line scanner (src/io/dump-scan.ts) against the full parser it stands in for
// (`parseDumpLine`): on generated lines of every shape and on those lines mutated character by
// character, whenever the scanner answers, the parser accepts the line and every field mari reads
// is present in both or neither, with equal values. The scanner must also answer for the shapes
// judges write, or it would agree by never answering.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanDumpLine } from "../../src/io/dump-scan.js";
import { parseDumpLine, READ_FIELDS } from "../../src/io/dump.js";

type Fields = Record<string, unknown>;

/** The fields mari reads, as present (own and defined) in `record`; a nested `prediction` object likewise. */
function readFields(record: Fields): Fields {
  const out: Fields = {};
  for (const field of READ_FIELDS) {
    if (!Object.hasOwn(record, field) || record[field] === undefined) continue;
    const value = record[field];
    out[field] = field === "prediction" && value !== null && typeof value === "object" && !Array.isArray(value) ? readFields(value as Fields) : value;
  }
  return out;
}

function agree(line: string): boolean {
  const scanned = scanDumpLine(line);
  if (scanned === undefined) return true;
  const parsed = parseDumpLine(line);
  expect(parsed).toHaveProperty("record");
  if (!("record" in parsed)) return false;
  expect(readFields(scanned)).toStrictEqual(readFields(parsed.record));
  return true;
}

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("Sentence [3] says; [1]-[2] agree.", "yes", "No", "TRUE", "x\\u00e9", "\u00e9\u4e2d\ud83d\ude00"),
);
const integer = fc.oneof(fc.nat({ max: 40 }), fc.constantFrom(2 ** 53, 1e15 - 1, 123456789012345));
const scalar = fc.oneof(text, integer, fc.boolean(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }));
const ids = fc.array(fc.oneof(integer, integer, fc.constantFrom("3", "[4]", 2.5, -1, 0)), { maxLength: 5 });
const completion = fc
  .tuple(text, fc.constantFrom("yes", "no", "maybe"), ids)
  .map(([think, judgment, evidence]) => `<think>\n${think}\n</think>\n<answer>\nJudgment: ${judgment}\nEvidence: ${JSON.stringify(evidence)}\n</answer>`);
const predictionFields = fc.record(
  {
    judgment: fc.oneof(fc.boolean(), text, scalar),
    evidence_sentence_ids: fc.oneof(ids, scalar),
    evidence: ids,
    reasoning: fc.oneof(text, scalar),
    completion: fc.oneof(completion, scalar),
    error: fc.constant({ code: "timeout", message: "slow" }),
  },
  { requiredKeys: [] },
);
const line = fc.record(
  {
    case_id: fc.oneof(fc.constantFrom("3488771835_6", 'a"b', "c\\d"), scalar),
    id: fc.oneof(text, scalar),
    run: fc.oneof(integer, text, scalar),
    sample: fc.oneof(integer, text),
    judgment: fc.oneof(fc.boolean(), text, scalar),
    evidence_sentence_ids: fc.oneof(ids, scalar, fc.constant([[1]])),
    evidence: ids,
    reasoning: fc.oneof(text, scalar),
    completion: fc.oneof(completion, scalar),
    prediction: fc.oneof(predictionFields, scalar, ids),
    model: fc.oneof(text, scalar, ids, fc.constant({ a: [1, { b: 2 }] })),
    custom_id: text,
    __proto__: text,
  },
  { requiredKeys: [] },
);

/** JSON text of a value, with whitespace between some tokens and some integers written as floats (`2.0`). */
const written = fc.tuple(line, fc.constantFrom("", " ", "\t", " \r "), fc.boolean()).map(([value, space, floats]) => {
  let json = JSON.stringify(value);
  if (space !== "") json = json.replace(/([,:[{])/g, `$1${space}`);
  if (floats) json = json.replace(/:(\d+)([,}])/, ":$1.0$2");
  return json;
});

/** A few edits to a line with the characters JSON cares about. */
const mutated = fc
  .tuple(
    written,
    fc.array(
      fc.tuple(fc.nat(), fc.nat(2), fc.constantFrom('"', "\\", ",", ":", "{", "}", "[", "]", " ", "0", "1", "-", ".", "e", "n", "t", "\u0001", "\n", "a", "é")),
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

describe("scanDumpLine", () => {
  it("agrees with parseDumpLine on every generated line it answers for", () => {
    fc.assert(fc.property(written, agree), { numRuns: 3000 });
  });

  it("agrees with parseDumpLine on mutated lines", () => {
    fc.assert(fc.property(mutated, agree), { numRuns: 5000 });
  });

  it("agrees with parseDumpLine on integers of any length", () => {
    const digits = fc.string({ unit: fc.constantFrom("0", "1", "3", "7", "9"), minLength: 1, maxLength: 25 });
    fc.assert(
      fc.property(digits, digits, (run, id) => agree(`{"case_id":"a","run":${run},"evidence_sentence_ids":[${id}]}`)),
      { numRuns: 3000 },
    );
  });

  it("answers for the structured, cache-shaped and raw completion lines judges write", () => {
    const lines = [
      '{"case_id":"a_1","run":0,"judgment":true,"evidence_sentence_ids":[2,12],"reasoning":"Sentence [2] and [12]."}',
      '{"case_id":"a_1","run":3,"prediction":{"judgment":"no","evidence_sentence_ids":[],"reasoning":"fine"}}',
      '{"id": "a_1", "sample": "7", "completion": "<think>\\nx\\n</think>\\n<answer>\\nJudgment: yes\\nEvidence: [1]\\n</answer>"}',
    ];
    for (const l of lines) {
      expect(scanDumpLine(l)).toBeDefined();
      expect(agree(l)).toBe(true);
    }
  });

  it("leaves floats, null, duplicate keys, escaped keys and batch output lines to the parser", () => {
    for (const l of [
      '{"case_id":"a","run":2.0,"judgment":true}',
      '{"case_id":"a","run":1,"evidence_sentence_ids":[1e0]}',
      '{"case_id":"a","run":null,"judgment":true}',
      '{"case_id":"a","case_id":"b","judgment":true}',
      '{"case\\u005fid":"a","judgment":true}',
      '{"custom_id":"a","response":{}}',
      '{"case_id":"a","judgment":true,"x":[[1]]}',
      '{"case_id":"a","judgment":true} x',
    ])
      expect(scanDumpLine(l)).toBeUndefined();
  });
});
