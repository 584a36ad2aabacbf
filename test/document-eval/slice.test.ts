import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.js";
import { readDocumentSlice, sliceCaseFromRecord, sniffSliceTask } from "../../src/io/slice.js";
import { InputError } from "../../src/io/errors.js";

const tmp = tempDir("mari-slice-");
afterAll(() => tmp.cleanup());

describe("slice records", () => {
  it("aliases, label coercions, scope flattening, pass-through fields", () => {
    const a = sliceCaseFromRecord(
      { "unique id": "u1", text: "One. Two!  Three?", is_self_contradictory: "Contradictory", evidence: ["two"], scope: ["local"], note: 1 },
      0,
      "f:1",
    );
    expect(a).toMatchObject({ id: "u1", sentences: ["One.", "Two!", "Three?"], label: true, gold: [2], scope: "local", extra: { note: 1 } });
    const b = sliceCaseFromRecord({ case_id: "c", text: "x", label: "0", evidence: "ignored on negatives" }, 1, "f:2");
    expect(b).toMatchObject({ label: false, gold: [] });
    for (const [label, expected] of [
      [true, true],
      ["FALSE", false],
      [1, true],
      ["non_contradictory", false],
    ] as const) {
      expect(sliceCaseFromRecord({ id: "x", text: "t", label, gold_sentence_ids: [1] }, 0, "f:1").label).toBe(expected);
    }
  });

  it("gold_sentence_ids override alignment; an all-zero Jaccard maps to sentence 1", () => {
    expect(sliceCaseFromRecord({ id: "g", sentences: ["a", "b", "c"], label: true, gold_sentence_ids: [3, 1, 3], evidence: "b" }, 0, "f:1").gold).toEqual([
      1, 3,
    ]);
    expect(sliceCaseFromRecord({ id: "z", text: "Alpha. Beta.", label: true, evidence: "zzz" }, 0, "f:1").gold).toEqual([1]);
  });

  it("slice errors name the location", () => {
    const bad = (record: Record<string, unknown>) => () => sliceCaseFromRecord(record, 0, "s.jsonl:7");
    expect(bad({ text: "x", label: true })).toThrow(InputError);
    expect(bad({ id: "a", text: "x", label: "maybe" })).toThrow('s.jsonl:7: slice error: unusable label "maybe"');
    expect(bad({ id: "a", text: "x", label: true, gold_sentence_ids: [1.5] })).toThrow("gold_sentence_ids must be a list of integers");
    expect(bad({ id: "a", text: "x", label: true, scope: ["a", "b"], evidence: "x" })).toThrow("scope must be a string or a one-element list");
  });
});

describe("reading and sniffing", () => {
  it("detects pairs corpora and document slices", async () => {
    const pairs = join(tmp.dir, "p.jsonl");
    writeFileSync(pairs, '{"id":"1","new":"a","old":"b"}\n');
    const docs = join(tmp.dir, "d.jsonl");
    writeFileSync(docs, '\n{"id":"1","text":"a.","label":false}\n');
    expect(await sniffSliceTask(pairs)).toBe("pairs");
    expect(await sniffSliceTask(docs)).toBe("documents");
    const slice = await readDocumentSlice(docs);
    expect(slice.cases.map((c) => c.where)).toEqual([`${docs}:2`]);
    expect(slice.byId.get("1")).toBe(0);
  });
});

describe("contra_type lists and RRC-DSCD records", () => {
  it("contra_type: a list of any length is kept (one element flattens, repeats and blanks drop)", () => {
    const c = (contra_type: unknown) => sliceCaseFromRecord({ id: "a", text: "One. Two.", label: true, evidence: "Two.", contra_type }, 0, "f:1").contraType;
    expect(c(["Factual", "Temporal"])).toEqual(["Factual", "Temporal"]);
    expect(c(["Factual", "Temporal", "Factual", ""])).toEqual(["Factual", "Temporal"]);
    expect(c(["Factual"])).toBe("Factual");
    expect(c('["Scope", "Logical", "Factual"]')).toEqual(["Scope", "Logical", "Factual"]);
    expect(c([])).toBeNull();
    expect(() => c([{ t: 1 }])).toThrow("f:1: slice error: contra_type must be a string or a list of strings");
  });

  it("a case with several contra_types falls in the breakdown cell of each", async () => {
    const { cellKeysOf } = await import("../../src/tasks/document/range.js");
    const c = sliceCaseFromRecord(
      { id: "a", text: "One. Two.", label: true, evidence: "Two.", contra_type: ["Factual", "Temporal"], doc_type: "news" },
      0,
      "f:1",
    );
    expect(cellKeysOf(c)).toEqual(["doc_type\u0000news", "contra_type\u0000Factual", "contra_type\u0000Temporal"]);
  });

  it("RRC-DSCD: id from unique_id, gold from contra_list, label from a non-empty contra_list", () => {
    const text = "The plant opened in 2001. Sales grew. It closed in 1999. Workers left.";
    const rrc = sliceCaseFromRecord(
      {
        unique_id: "news_123_1",
        text,
        contra_list: ["It closed in 1999.", "The plant opened in 2001."],
        contra_type: "Temporal",
        contra_plug: "content_insert",
      },
      0,
      "f:1",
    );
    expect(rrc).toMatchObject({ id: "news_123_1", label: true, gold: [1, 3], contraType: "Temporal", extra: { contra_plug: "content_insert" } });
    // The inserted sentence and the one it contradicts, without contra_list.
    const pair = sliceCaseFromRecord(
      { unique_id: "u2", text, label: true, contradicted_sentence: "It closed in 1999.", original_sentence: "The plant opened in 2001." },
      0,
      "f:2",
    );
    expect(pair.gold).toEqual([1, 3]);
    // An explicit label still wins; a negative keeps no gold.
    expect(sliceCaseFromRecord({ unique_id: "u3", text, label: false, contra_list: ["Sales grew."] }, 0, "f:3")).toMatchObject({ label: false, gold: [] });
    expect(() => sliceCaseFromRecord({ unique_id: "u4", text }, 0, "f:4")).toThrow("f:4: slice error: unusable label (missing)");
    expect(() => sliceCaseFromRecord({ unique_id: "u5", text, label: true, contra_list: [1] }, 0, "f:5")).toThrow(
      "contra_list must be a string or a list of strings",
    );
  });

  it("RRC-DSCD's JSON file ({pos, neg} keyed by id) and a JSON array: bad records are left out at their place", async () => {
    const container = join(tmp.dir, "rrc.json");
    writeFileSync(
      container,
      JSON.stringify(
        {
          pos: {
            news_1_1: {
              unique_id: "news_1_1",
              text: "It rained. It was dry all day.",
              contra_list: ["It rained.", "It was dry all day."],
              contra_type: ["Factual", "Temporal"],
            },
            news_2_1: { unique_id: "news_2_1", text: "No evidence here.", contra_list: [] },
          },
          neg: { news_3_1: { unique_id: "news_3_1", text: "All calm. Nothing odd." } },
        },
        null,
        2,
      ),
    );
    const slice = await readDocumentSlice(container);
    expect(slice.cases.map((c) => [c.id, c.label, c.gold, c.contraType])).toEqual([
      ["news_1_1", true, [1, 2], ["Factual", "Temporal"]],
      ["news_3_1", false, [], null],
    ]);
    expect(slice.rejected).toEqual([{ where: `${container}#pos/news_2_1`, message: expect.stringContaining("a positive case needs gold evidence") }]);
    await expect(readDocumentSlice(container, { strict: true })).rejects.toThrow(`${container}#pos/news_2_1: slice error: a positive case needs gold evidence`);

    const array = join(tmp.dir, "records.json");
    writeFileSync(
      array,
      JSON.stringify([{ id: "a", text: "x.", label: false }, 7, { id: "b", text: "y.", label: "maybe" }, { id: "c", text: "z.", label: false }]),
    );
    const fromArray = await readDocumentSlice(array);
    expect(fromArray.cases.map((c) => c.id)).toEqual(["a", "c"]);
    expect(fromArray.rejected.map((r) => r.where)).toEqual([`${array}[1]`, `${array}[2]`]);
  });

  it("a slice with no usable case is an error naming the first bad record", async () => {
    const path = join(tmp.dir, "all-bad.jsonl");
    writeFileSync(path, '{"id":"a","text":"x","label":"maybe"}\n{"id":"b"}\n');
    await expect(readDocumentSlice(path)).rejects.toThrow(
      `${path}: slice error: the slice has no cases; 2 record(s) rejected, the first: ${path}:1: slice error: unusable label "maybe"`,
    );
  });
});

describe("--sentences punkt", () => {
  it("numbers sentences as nltk does, and the slice hash says which rule", async () => {
    const { sliceHashOf } = await import("../../src/io/slice-kept.js");
    const path = join(tmp.dir, "pm.jsonl");
    writeFileSync(path, `${JSON.stringify({ id: "t", text: "We met at 4 p.m. on Friday. Then we left.", label: true, evidence: "Then we left." })}\n`);
    const mari = await readDocumentSlice(path);
    const punkt = await readDocumentSlice(path, { sentences: "punkt" });
    expect(mari.cases[0]).toMatchObject({ sentences: ["We met at 4 p.m.", "on Friday.", "Then we left."], gold: [3] });
    expect(punkt.cases[0]).toMatchObject({ sentences: ["We met at 4 p.m. on Friday.", "Then we left."], gold: [2] });
    expect(punkt.sentences).toBe("punkt");
    expect(sliceHashOf(punkt)).not.toBe(sliceHashOf(mari));
    // Where both rules give the same sentences, only the recorded rule tells the hashes apart.
    const same = { ...punkt, cases: mari.cases };
    expect(sliceHashOf(same)).not.toBe(sliceHashOf(mari));
  });
});

describe("the slice hash", () => {
  it("is sha256 over the sorted sha256 of each case's canonical JSON {id, sentences, label, gold}", async () => {
    const { sliceHashOf } = await import("../../src/io/slice-kept.js");
    const { canonicalJson, sha256Text } = await import("../../src/io/hashing.js");
    const path = join(tmp.dir, "hash-slice.jsonl");
    const records = [
      { id: 'b\u00e9"\n', text: "Caf\u00e9 one.  Two \ud83d\ude00 two!", label: true, evidence: ["Two"] },
      { id: "a", sentences: ["x", "y", "z"], label: true, gold_sentence_ids: [3, 1, 3] },
      { id: "__proto__", text: "Only one", label: false, extra_field: { k: 1 } },
    ];
    writeFileSync(path, `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const slice = await readDocumentSlice(path);
    const hashes = slice.cases.map((c) => sha256Text(canonicalJson({ id: c.id, sentences: c.sentences, label: c.label, gold: c.gold })));
    expect(sliceHashOf(slice)).toBe(sha256Text(hashes.sort().join("\n")));
  });

  it("hashes each case's canonical JSON whatever its strings hold", async () => {
    const { isPlainText, sliceCaseHash } = await import("../../src/io/slice-kept.js");
    const { canonicalJson, sha256Text } = await import("../../src/io/hashing.js");
    // Plain text, and text with what JSON escapes: quotes, backslashes, controls, surrogates (paired or lone).
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: "binary" }),
      fc.constantFrom('say "no"', "a\\b", "\u0000\t", "\ud83d\ude00", "\ud83d", "\ude00x", "\u007f\u2028"),
    );
    fc.assert(
      fc.property(
        text,
        fc.array(text, { maxLength: 5 }),
        fc.boolean(),
        fc.uniqueArray(fc.integer({ min: 1, max: 99 }), { maxLength: 4 }),
        (id, sentences, label, gold) => {
          const expected = sha256Text(canonicalJson({ id, sentences, label, gold }));
          expect(sliceCaseHash({ id, sentences, label, gold })).toBe(expected);
          // The compiling read tests the sentences once, together, and says when they are plain.
          expect(sliceCaseHash({ id, sentences, label, gold }, isPlainText(sentences.join("")))).toBe(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
