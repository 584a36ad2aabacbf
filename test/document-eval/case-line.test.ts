// A case line is written as bytes (range.ts writeCaseLine); it must be the line JSON.stringify
// gives field by field, for ids and facets that need escaping or are not ASCII too.
import { describe, expect, it } from "vitest";
import type { SliceCase } from "../../src/io/slice.js";
import { ByteSink } from "../../src/tasks/document/line-bytes.js";
import { writeCaseLine } from "../../src/tasks/document/range.js";

function reference(c: SliceCase): string {
  let line = `{"case_id":${JSON.stringify(c.id)},"case_index":${c.index},"label":${c.label},"gold_sentence_ids":${JSON.stringify(c.gold)},"sentence_count":${c.sentences.length}`;
  if (c.scope !== null) line += `,"scope":${JSON.stringify(c.scope)}`;
  if (c.docType !== null) line += `,"doc_type":${JSON.stringify(c.docType)}`;
  if (c.contraType !== null) line += `,"contra_type":${JSON.stringify(c.contraType)}`;
  if (Object.keys(c.extra).length > 0) line += `,"fields":${JSON.stringify(c.extra)}`;
  return `${line}}\n`;
}

const odd = ["", "plain-id_7", 'quo"te', "back\\slash", "tab\there", "\u0001\u001f\u007f", "é", "雪", "😀", "\ud800 lone", "slash/ok", "~"];

describe("writeCaseLine", () => {
  it("writes the bytes of the JSON.stringify line", () => {
    const out = new ByteSink();
    const expected: string[] = [];
    odd.forEach((text, i) => {
      const c: SliceCase = {
        index: i * 1000 + 3,
        id: text,
        where: "t:1",
        sentences: Array.from({ length: i }, () => "s"),
        sentenceCount: i,
        label: i % 2 === 0,
        gold: i % 3 === 0 ? [] : [1, i + 2, 2147483650],
        scope: i % 4 === 1 ? null : text,
        docType: i % 4 === 2 ? null : `${text}-doc`,
        contraType: i % 3 === 0 ? null : i % 3 === 1 ? text : [text, "b"],
        extra: i % 2 === 0 ? {} : { note: text, n: 1.5, list: [null, true] },
      };
      writeCaseLine(out, c);
      expected.push(reference(c));
    });
    expect(Buffer.from(out.take()).toString("utf8")).toBe(expected.join(""));
  });
});
