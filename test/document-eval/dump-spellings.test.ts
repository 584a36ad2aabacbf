// One dump written three ways: as judges write it, with every line's "case_id" key spelled with a
// \u escape (which sends every line to the string path: the byte scanner and the WebAssembly pass
// never see it), and with each object's keys in reverse order and white space around them. The
// JSON values are the same, so `mari eval` (the built CLI, real child processes) must write the
// same cases.jsonl, report.json, report.md, JUnit file and rewards file, and say the same on stderr;
// and the same again with two workers, and with chunks of seven lines.
// The generated lines mix the three line shapes with what the fast paths must hand over or read
// exactly: ids and run keys with escapes and non-ASCII characters, long evidence lists, IDs past
// the document's end, many reasoning references, completions with end markers, `\/` and stray
// tags, repeated (case, run) lines, orphans, blank, malformed and CRLF lines. Last, such a dump
// (without repeats) in another line order: the same cases.jsonl but for its line numbers, and the
// same report.json but for what names or follows the order of the lines.
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMari, tempDir } from "../support/cli.js";
import { lcg } from "../support/lcg.js";

const tmp = tempDir("mari-spellings-");
afterAll(() => tmp.cleanup());

/** A field of a line: its key and either its value's JSON text or a nested object's fields. */
type Field = [string, string | Field[]];

const WORDS = ["river", "budget", "council", "école", "naïve", "東京", "😀", "x"];
const ID_FORMS = [
  (d: number) => `d${d}`,
  (d: number) => `é${d}`,
  (d: number) => `doc "${d}"`,
  (d: number) => `back\\${d}`,
  (d: number) => `😀${d}`,
  (d: number) => `${d}`,
];
const ENDINGS = ["<|im_end|>", "<|eot_id|>", "</s>", "\\n", "<|endoftext|><|endoftext|>"];
const BETWEEN = ["and", "so", "é", "\\n", "\\t", '\\"', "\\/", "</think>", "😀", "", "[x]"];
const BAD_LINES = ["", "{", "not json", '{"case_id": 5}', "[]", '{"case_id": "d1", "run": 1.5}'];

/**
 * A slice and the dump's lines as fields (a string: a line kept as written), from `seed`. With
 * `repeats` false, every prediction line names its run and no (case, run) comes twice, so that any
 * order of the lines keeps the same ones.
 */
function generate(seed: number, repeats = true): { slice: string; lines: Array<Field[] | string> } {
  const rand = lcg(seed);
  const pick = <T>(a: readonly T[]): T => a[rand(a.length)]!;
  const cases: Array<{ id: string; n: number; label: boolean }> = [];
  let slice = "";
  for (let d = 0; d < 30; d++) {
    const n = rand(15) === 0 ? 200 + rand(300) : 1 + rand(20);
    const sentences = Array.from({ length: n }, () =>
      `${Array.from({ length: 3 + rand(5) }, () => pick(WORDS)).join(" ")}.`.replace(/^./, (c) => c.toUpperCase()),
    );
    const label = rand(2) === 0;
    const id = pick(ID_FORMS)(d);
    cases.push({ id, n, label });
    slice += `${JSON.stringify({ id, text: sentences.join(" "), label, evidence: label ? sentences[rand(n)] : "" })}\n`;
  }
  const runs = 12;
  const runKeys = Array.from({ length: runs }, (_, r) => (r % 5 === 4 ? JSON.stringify(pick(["ü", "7", "run\\n", 'a"b']) + r) : String(r)));
  const ids = (n: number) => Array.from({ length: rand(8) === 0 ? 60 + rand(150) : rand(4) }, () => (rand(25) === 0 ? n + 1 + rand(3) : 1 + rand(n)));
  const reasoning = (n: number) => {
    const parts: string[] = [];
    for (let k = rand(6) === 0 ? 10 + rand(30) : rand(4); k > 0; k--) {
      const a = rand(30) === 0 ? n + 2 : 1 + rand(n);
      parts.push(rand(4) === 0 ? `[${a}]-[${Math.min(n, a + rand(3))}]` : `[${a}]`, pick(BETWEEN));
    }
    return parts.join(" ");
  };
  const lines: Array<Field[] | string> = [];
  for (let r = 0; r < runs; r++) {
    for (const c of cases) {
      if (rand(12) === 0) continue;
      const fields: Field[] = [["case_id", rand(40) === 0 ? JSON.stringify(`orphan${rand(3)}`) : JSON.stringify(c.id)]];
      if (rand(15) !== 0 || !repeats) fields.push(["run", runKeys[r]!]);
      const judgment = rand(10) < 7 ? c.label : !c.label;
      const shape = rand(10);
      if (shape < 3) {
        const word = rand(15) === 0 ? pick(["Yes", "NO", "maybe", "true"]) : judgment ? "yes" : "no";
        const ending = rand(8) === 0 ? pick(ENDINGS) : "";
        fields.push([
          "completion",
          `"<think>\\n${reasoning(c.n)}\\n</think>\\n<answer>\\nJudgment: ${word}\\nEvidence: [${ids(c.n).join(", ")}]\\n</answer>${ending}"`,
        ]);
      } else {
        const value = rand(20) === 0 ? pick(['"maybe"', '"No"', "null", "1"]) : String(judgment);
        const inner: Field[] = [
          ["judgment", value],
          ["evidence_sentence_ids", `[${ids(c.n).join(", ")}]`],
          ["reasoning", `"${reasoning(c.n)}"`],
        ];
        if (shape < 5) fields.push(["prediction", inner]);
        else fields.push(...inner);
      }
      lines.push(fields);
      if (rand(25) === 0 && repeats) lines.push(fields);
      if (rand(60) === 0) lines.push(pick(BAD_LINES));
    }
  }
  return { slice, lines };
}

/** A line's text: 0 as judges write it, 1 with "case_id" escaped, 2 keys reversed and spaced. */
function spell(fields: Field[], way: 0 | 1 | 2, rand: (n: number) => number): string {
  const space = () => (way === 2 ? [" ", "", "\t", "  "][rand(4)]! : "");
  const ordered = way === 2 ? [...fields].reverse() : fields;
  const parts = ordered.map(([key, value]) => {
    const name = way === 1 && key === "case_id" ? "case\\u005fid" : key;
    const text = typeof value === "string" ? value : spell(value, way, rand);
    return `${space()}"${name}"${space()}:${space()}${text}${space()}`;
  });
  return `{${parts.join(way === 2 ? "," : ", ")}}`;
}

function writeDump(name: string, lines: Array<Field[] | string>, way: 0 | 1 | 2): string {
  const rand = lcg(99);
  const text = lines.map((line, k) => `${typeof line === "string" ? line : spell(line, way, rand)}${k % 23 === 5 ? "\r\n" : "\n"}`).join("");
  const path = join(tmp.dir, name);
  writeFileSync(path, text);
  return path;
}

/** A file of an output folder with what names the run (paths, hashes, times, workers) taken out. */
function outputOf(dir: string, file: string): string {
  const text = readFileSync(join(dir, file), "utf8")
    .replaceAll(dir, "OUT")
    .replace(/dump-\d+-\w+\.jsonl/g, "DUMP");
  if (file === "report.json") {
    const report = JSON.parse(text);
    delete report.elapsed_seconds;
    delete report.system;
    delete report.predictions.sha256;
    return JSON.stringify(report, null, 1);
  }
  return text
    .replace(/time="[\d.]+"/g, "")
    .replace(/\| (predictions sha256|config hash|seed \/ workers|elapsed) \|.*/g, "")
    .replace(/\d+\.\d+ s\b/g, "");
}

describe("a dump spelled three ways", () => {
  const cases: Array<{ seed: number; flags: string[]; files: string[] }> = [
    { seed: 1, flags: ["--report", "json"], files: ["cases.jsonl", "report.json"] },
    { seed: 2, flags: ["--report", "json", "--lenient-ids", "--shard", "1/3"], files: ["cases.jsonl", "report.json"] },
    { seed: 3, flags: ["--keep-special-tokens"], files: ["cases.jsonl", "report.json", "report.md", "report.junit.xml"] },
    {
      seed: 4,
      flags: ["--report", "json", "--special-token", "<|endoftext|>", "--rewards", "REWARDS"],
      files: ["cases.jsonl", "report.json", "rewards.jsonl"],
    },
  ];
  for (const { seed, flags, files } of cases) {
    it(`gives the same outputs, seed ${seed}: ${flags.join(" ")}`, async () => {
      const { slice, lines } = generate(seed);
      const slicePath = join(tmp.dir, `slice-${seed}.jsonl`);
      writeFileSync(slicePath, slice);
      const runs: Array<{ dump: string; workers: string; chunk?: string[] }> = [
        { dump: writeDump(`dump-${seed}-plain.jsonl`, lines, 0), workers: "1" },
        { dump: writeDump(`dump-${seed}-escaped.jsonl`, lines, 1), workers: "1" },
        { dump: writeDump(`dump-${seed}-spaced.jsonl`, lines, 2), workers: "1" },
        { dump: join(tmp.dir, `dump-${seed}-plain.jsonl`), workers: "2" },
        { dump: join(tmp.dir, `dump-${seed}-plain.jsonl`), workers: "1", chunk: ["--chunk-size", "7"] },
      ];
      const seen: Array<{ code: number | null; stderr: string; outputs: string[] }> = [];
      for (const [k, { dump, workers, chunk = [] }] of runs.entries()) {
        const out = join(tmp.dir, `out-${seed}-${k}`);
        const args = flags.map((f) => (f === "REWARDS" ? join(out, "rewards.jsonl") : f));
        const result = await runMari([
          "eval",
          slicePath,
          "--predictions",
          dump,
          "--out",
          out,
          "--workers",
          workers,
          "--quiet",
          "--progress",
          "none",
          "--no-cache",
          ...chunk,
          ...args,
        ]);
        seen.push({
          code: result.code,
          stderr: result.stderr.replaceAll(out, "OUT").replace(/dump-\d+-\w+\.jsonl/g, "DUMP"),
          outputs: files.map((file) => outputOf(out, file)),
        });
      }
      expect(seen[0]!.code).toBe(0);
      // The dump's lines were scored: most kept, some rejected with examples.
      const report = JSON.parse(readFileSync(join(tmp.dir, `out-${seed}-0`, "report.json"), "utf8"));
      expect(report.predictions.lines).toBe(lines.length);
      expect(report.rejection_examples.length).toBeGreaterThan(3);
      for (const other of seen.slice(1)) {
        expect(other.code).toBe(0);
        other.outputs.forEach((text, k) => expect(text, files[k]).toBe(seen[0]!.outputs[k]));
      }
      // stderr names the dump's lines the same way whatever the spelling (the workers line aside).
      expect(seen[1]!.stderr).toBe(seen[0]!.stderr);
      expect(seen[2]!.stderr).toBe(seen[0]!.stderr);
    });
  }
});

describe("a dump in another line order", () => {
  it("gives the same cases.jsonl but for line numbers, and the same report but for what names lines", async () => {
    const { slice, lines } = generate(5, false);
    const slicePath = join(tmp.dir, "slice-order.jsonl");
    writeFileSync(slicePath, slice);
    const rand = lcg(105);
    const shuffled = [...lines];
    for (let k = shuffled.length - 1; k > 0; k--) {
      const j = rand(k + 1);
      [shuffled[k], shuffled[j]] = [shuffled[j]!, shuffled[k]!];
    }
    const canonical = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(canonical)
        : value !== null && typeof value === "object"
          ? Object.fromEntries(
              Object.keys(value)
                .sort()
                .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
            )
          : value;
    const outputs: Array<{ cases: string; report: string }> = [];
    for (const [name, order] of [
      ["written", lines],
      ["shuffled", shuffled],
    ] as const) {
      const out = join(tmp.dir, `order-${name}`);
      const dump = writeDump(`dump-order-${name}.jsonl`, order, 0);
      const result = await runMari(["eval", slicePath, "--predictions", dump, "--out", out, "--report", "json", "--quiet", "--progress", "none", "--no-cache"]);
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
      expect(report.predictions.lines).toBe(lines.length);
      // What names or orders dump lines: the file, its hash, examples' lines, first appearances.
      for (const key of ["elapsed_seconds", "system", "rejection_examples", "cases_xxh64"]) delete report[key];
      delete report.predictions.path;
      delete report.predictions.sha256;
      report.predictions.runs.sort();
      delete report.orphans.first_lines;
      report.orphans.examples.sort();
      outputs.push({ cases: readFileSync(join(out, "cases.jsonl"), "utf8").replace(/"line":\d+,/g, ""), report: JSON.stringify(canonical(report), null, 1) });
    }
    expect(outputs[0]!.report).toContain('"accuracy"');
    expect(outputs[1]!.cases).toBe(outputs[0]!.cases);
    expect(outputs[1]!.report).toBe(outputs[0]!.report);
  });
});
