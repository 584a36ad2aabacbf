// The slice lines read by WebAssembly (src/io/slice-scan.ts, wasm/slice-lines.ts) against the
// general reader, which every other line goes to: on generated slices and on their lines mutated
// character by character, a slice read with the scan and without it has the same cases (every
// field, sentences and gold IDs included), the same rejected records (under `strict`, the same
// error), the same compiled form, the same slice hash and the same progress ticks. The scan must
// also take the common lines, or it would agree by never taking any.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { compileSlice } from "../../src/io/compiled-slice.js";
import { readDocumentSliceCached, readDocumentSliceCompiled } from "../../src/io/slice.js";
import { sliceHashOf } from "../../src/io/slice-kept.js";
import { sliceLineScan } from "../../src/io/slice-scan.js";
import { tempDir } from "../support/cli.js";

const { dir, cleanup } = tempDir("mari-slice-scan-");
afterAll(cleanup);

let files = 0;

/** Everything a read gives, compared field by field. */
async function readAll(path: string, scan: boolean, strict = false): Promise<unknown> {
  let ticks = 0;
  const progress = { tick: (n = 1) => void (ticks += n), done: () => {} };
  try {
    const { slice, sliceHash } = await readDocumentSliceCompiled(path, { strict, progress }, scan);
    const compiled = compileSlice(slice);
    return {
      ticks,
      sliceHash,
      cases: slice.cases.map((c) => ({ ...c, sentences: [...c.sentences], extra: { ...c.extra } })),
      byId: [...slice.byId],
      rejected: slice.rejected,
      strings: Buffer.from(compiled.strings.buffer).toString("base64"),
      wide: compiled.strings.wide,
      numbers: Buffer.from(compiled.numbers).toString("base64"),
    };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** Lines generated, and those the scan took. */
let linesSeen = 0;
let linesScanned = 0;

async function agrees(lines: readonly string[]): Promise<void> {
  const path = join(dir, `slice-${files++}.jsonl`);
  const bytes = `${lines.join("\n")}\n`;
  writeFileSync(path, bytes);
  expect(await readAll(path, true)).toStrictEqual(await readAll(path, false));
  expect(await readAll(path, true, true)).toStrictEqual(await readAll(path, false, true));
  const scan = sliceLineScan()!;
  const read = scan.read(Buffer.from(bytes));
  linesSeen += lines.length;
  for (let k = 0; k < read; k++) if (scan.isCase(k)) linesScanned++;
}

/**
 * The parts of a record, `odd` ones among them or not: a record of common parts (ASCII, the usual
 * fields and values) is one the scan takes unless the general reader rejects it; odd parts (a
 * character above ASCII, a field twice, a value of another type, a field the scan leaves alone)
 * send a line to the general reader.
 */
function recordOf(odd: boolean): fc.Arbitrary<Member[]> {
  const pick = <T>(common: fc.Arbitrary<T>, rare: fc.Arbitrary<T>): fc.Arbitrary<T> =>
    odd ? fc.oneof({ weight: 3, arbitrary: common }, { weight: 1, arbitrary: rare }) : common;
  const word = pick(
    fc.constantFrom("North", "closed", "after", "river", "Mrs", "Frisby's", "2015", "a1b", "X", "the", "NORTH", "'quoted'", "x/y"),
    fc.constantFrom("caf\u00e9", "\u20ac5"),
  );
  const mark = fc.constantFrom(".", ".", "!", "?", "", ",", "...", "?!");
  const gap = pick(fc.constantFrom(" ", " ", "  ", "", "\n", "\t", "\u001c", "\r\n", "\u000b"), fc.constant("\u00a0"));
  // Sentences of words, each ended by a mark and a gap (or not): mari's rule splits some of them.
  const sentence = fc.tuple(fc.array(word, { minLength: 0, maxLength: 6 }), mark, gap).map(([words, m, g]) => `${words.join(" ")}${m}${g}`);
  const text = fc.array(sentence, { minLength: 0, maxLength: 8 }).map((parts) => parts.join(""));
  const oddString = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom("", " ", "[1, 2]", " [x]", "[", 'say "hi"', "back\\slash", "tab\there", "\u0001", "nul\u0000", "/"),
  );
  const extraKey = pick(
    fc.constantFrom("truncated", "evidence_in_text", "note", 'a"b', "constructor", ""),
    fc.constantFrom("1", "07", "__proto__", "\u00e9", "case_id", "contra_type", "sentences"),
  );
  return fc
    .record({
      id: pick<unknown>(fc.constantFrom("g0", "g1", "3488771835_6", "a b", 'q"1'), fc.constantFrom("", null, 7, "c\u00e9")),
      text: pick<unknown>(text, fc.constantFrom(null, true)),
      label: pick<unknown>(fc.boolean(), fc.constantFrom("true", 1, null, undefined)),
      evidence: fc.option(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom("__sentence__", "__upper__") },
          { weight: 2, arbitrary: fc.array(word, { maxLength: 4 }).map((w) => w.join(" ")) },
          { weight: 1, arbitrary: oddString },
        ),
        { nil: undefined, freq: 4 },
      ),
      scope: fc.option(pick<unknown>(fc.constantFrom("local", "global", "", null), fc.constantFrom('["a"]', 3, " [x")), { nil: undefined }),
      docType: fc.option(pick<unknown>(fc.constantFrom("news", "story", null, ""), fc.constant(" [x]")), { nil: undefined }),
      extras: fc.array(fc.tuple(extraKey, pick<unknown>(fc.oneof(fc.boolean(), fc.constant(null), oddString), fc.constant(2.0))), { maxLength: 3 }),
      twice: odd ? fc.nat({ max: 5 }).map((n) => n === 0) : fc.constant(false),
      order: fc.nat(),
    })
    .map((r) => {
      const members: Member[] = [
        { key: "id", value: r.id },
        { key: "text", value: r.text },
      ];
      if (r.label !== undefined) members.push({ key: "label", value: r.label });
      if (r.evidence !== undefined) {
        // A quote that is one of the text's sentences, as given or in capitals.
        const pieces = typeof r.text === "string" ? r.text.split(/(?<=[.!?])\s+/).filter((piece) => piece.trim() !== "") : [];
        const chosen = pieces[r.order % Math.max(pieces.length, 1)] ?? "";
        const quote = r.evidence === "__sentence__" ? chosen : r.evidence === "__upper__" ? ` ${chosen.toUpperCase()} ` : r.evidence;
        members.push({ key: "evidence", value: quote });
      }
      if (r.scope !== undefined) members.push({ key: "scope", value: r.scope });
      if (r.docType !== undefined) members.push({ key: "doc_type", value: r.docType });
      for (const [key, value] of r.extras) members.push({ key, value });
      if (r.twice) members.push(members[r.order % members.length]!);
      // Rotated: the fields come in any order.
      const at = r.order % members.length;
      return [...members.slice(at), ...members.slice(0, at)];
    });
}

interface Member {
  key: string;
  value: unknown;
}

const record = fc.oneof({ weight: 3, arbitrary: recordOf(false) }, { weight: 2, arbitrary: recordOf(true) });

const space = fc.constantFrom("", "", " ", "\t", "\r");
/** A JSON line written member by member, strings escaped in one of three ways. */
const line = fc.tuple(record, space, fc.constantFrom("plain", "escape-letters", "ascii-only")).map(([members, sp, style]) => {
  const str = (s: string): string => {
    const json = JSON.stringify(s);
    if (style === "escape-letters") return json.replace(/[a-m]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
    if (style === "ascii-only") return json.replace(/[^\u0000-\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    return json;
  };
  const body = members.map(({ key, value }) => `${sp}${str(key)}${sp}:${sp}${typeof value === "string" ? str(value) : JSON.stringify(value)}${sp}`).join(",");
  return `${sp}{${body}}${sp}`;
});

const mutated = fc
  .tuple(line, fc.nat(), fc.constantFrom("", '"', "\\", "{", "}", ",", ":", " ", "\u0000", "\u001f", "x", "\\u12", "\\q", "\u00e9", "[", "1"))
  .map(([l, at, insert]) => {
    const i = l.length === 0 ? 0 : at % l.length;
    return insert === "" ? l.slice(0, i) + l.slice(i + 1) : l.slice(0, i) + insert + l.slice(i + (at % 2));
  });

/** A slice's lines: generated ones, a mutated one, a blank one, one repeated (a duplicate id). */
const slice = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 12 }), fc.array(mutated, { maxLength: 2 }), fc.boolean(), fc.nat())
  .map(([lines, broken, blank, at]) => {
    const all = [...lines, ...broken];
    if (blank) all.splice(at % all.length, 0, "");
    all.push(all[at % all.length]!);
    return all;
  });

describe("the slice line scan", () => {
  it("takes the common shapes of slice lines: the GRPO bench's and ContraDoc's ASCII ones", () => {
    const scan = sliceLineScan();
    expect(scan).not.toBeNull();
    const lines = [
      '{"id":"g4","text":"North closed after river. The never closed.","label":true,"evidence":"North closed after river."}',
      '{"id": "3488771835_6", "text": "Mrs. Frisby is a \\"widow\\". She lives.", "label": false, "evidence": null, "scope": "local", "doc_type": "story", "truncated": false}',
      '{"id":"n1","text":"One number: 2.","label":false,"evidence":"","extra":1}',
      '{"id":"u1","text":"caf\u00e9.","label":false}',
    ];
    const read = scan!.read(Buffer.from(`${lines.join("\n")}\n`));
    expect(read).toBe(4);
    expect([0, 1, 2, 3].map((k) => scan!.isCase(k))).toStrictEqual([true, true, false, false]);
    expect(scan!.id(1)).toBe("3488771835_6");
    expect(scan!.gold(0)).toBe(1);
    expect(scan!.extra(1)).toBe('{"truncated":false}');
    expect(Buffer.from(scan!.hashedJson(1)).toString("latin1")).toBe(
      JSON.stringify({ gold: [], id: "3488771835_6", label: false, sentences: ["Mrs.", 'Frisby is a "widow".', "She lives."] }),
    );
  });

  it("reads a slice of many blocks, through the stream a cached read hashes, as the general reader does", async () => {
    // About 4 MB: blocks cut from the stream's chunks (over 1 MiB each), a line above ASCII, one
    // with a number and a repeated id now and then, every other case positive.
    const lines: string[] = [];
    for (let k = 0; k < 12_000; k++) {
      const text = `Case ${k} opened the river market. The council met after ${k % 7} winters! Was it closed? North ${k}.`;
      const evidence = k % 3 === 0 ? "The council met after" : `North ${k}.`;
      if (k % 997 === 5) lines.push(JSON.stringify({ id: `c${k}`, text: `${text} Caf\u00e9.`, label: true, evidence }));
      else if (k % 991 === 7) lines.push(JSON.stringify({ id: `c${k}`, text, label: false, evidence: "", score: 2.5 }));
      else if (k % 1009 === 11) lines.push(JSON.stringify({ id: `c${k - 1}`, text, label: false }));
      else lines.push(JSON.stringify({ id: `c${k}`, text: "x ".repeat(k % 40) + text, label: k % 2 === 0, evidence: k % 2 === 0 ? evidence : null }));
    }
    const path = join(dir, "many-blocks.jsonl");
    writeFileSync(path, `${lines.join("\n")}\n`);
    const general = await readAll(path, false);
    const cached = await readDocumentSliceCached(path, {});
    const compiled = compileSlice(cached);
    expect({
      sliceHash: sliceHashOf(cached),
      cases: cached.cases.map((c) => ({ ...c, sentences: [...c.sentences], extra: { ...c.extra } })),
      rejected: cached.rejected,
      strings: Buffer.from(compiled.strings.buffer).toString("base64"),
      numbers: Buffer.from(compiled.numbers).toString("base64"),
    }).toStrictEqual({
      sliceHash: (general as { sliceHash: unknown }).sliceHash,
      cases: (general as { cases: unknown }).cases,
      rejected: (general as { rejected: unknown }).rejected,
      strings: (general as { strings: unknown }).strings,
      numbers: (general as { numbers: unknown }).numbers,
    });
    expect((general as { rejected: unknown[] }).rejected.length).toBeGreaterThan(0);
  });

  it("leaves to the general reader the lines past its room: a block of blank lines, a text too long to align", async () => {
    const sentence = "The river closed after the council met. ";
    const long = sentence.repeat(8000);
    const lines = [
      JSON.stringify({ id: "first", text: "One. Two.", label: true, evidence: "Two." }),
      // More lines in one block than the module has records for.
      ...new Array<string>(150_000).fill(""),
      JSON.stringify({ id: "after-blanks", text: "Three. Four.", label: false }),
      // A positive text of 320 kB, more than the module's room for its alignment tokens.
      JSON.stringify({ id: "long", text: `${long}North closed.`, label: true, evidence: "North closed." }),
      JSON.stringify({ id: "last", text: "Five. Six.", label: true, evidence: "five" }),
    ];
    const path = join(dir, "past-room.jsonl");
    writeFileSync(path, `${lines.join("\n")}\n`);
    const scan = sliceLineScan()!;
    expect(scan.read(Buffer.from(`${lines.slice(0, 150_002).join("\n")}\n`))).toBeLessThan(150_002);
    expect(scan.read(Buffer.from(`${lines[150_002]}\n`))).toBe(1);
    expect(scan.isCase(0)).toBe(false);
    const read = (await readAll(path, true)) as { cases: { id: string; gold: number[] }[] };
    expect(read).toStrictEqual(await readAll(path, false));
    expect(read.cases.map((c) => [c.id, c.gold])).toStrictEqual([
      ["first", [2]],
      ["after-blanks", []],
      ["long", [8001]],
      ["last", [1]],
    ]);
  });

  it("reads generated slices as the general reader does, cases, rejections, compiled form and hash", async () => {
    await fc.assert(
      fc.asyncProperty(slice, (lines) => agrees(lines)),
      { numRuns: 400 },
    );
    // The generated records are mostly cases the scan takes.
    expect(linesScanned / linesSeen).toBeGreaterThan(0.2);
  });
});
