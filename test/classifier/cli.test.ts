// `mari classify` through the built CLI in a child process (run `npm run build` first).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const tmp = tempDir("mari-classify-");
afterAll(() => tmp.cleanup());

function file(name: string, content: string): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, content);
  return path;
}

const jsonLines = (text: string): unknown[] =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));

describe("mari classify", () => {
  it("reproduces the corpus fixture byte for byte, in input order", async () => {
    const r = await runMari(["classify", "datasets/memory-pairs/mari-pairs.jsonl", "--progress", "none"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(ROOT, "datasets/memory-pairs/mari-pairs.verdicts.jsonl"), "utf8"));
    expect(r.stderr).toBe("mari classify: 161 pairs classified, 0 records rejected\n");
  });

  it("reads CSV (BOM, CRLF, quoted fields with commas and newlines, extra columns)", async () => {
    const path = file(
      "pairs.csv",
      "\uFEFFid,new,old,gold\r\n" +
        'a,"Cache entries expire after a 30 minute TTL.","Cache entries expire after a 10 minute TTL.",update\r\n' +
        'b,"Email is sent through SES, always.","Email is sent through SES.\nAlways.",restatement\r\n',
    );
    const r = await runMari(["classify", path]);
    expect(r.code, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)).toEqual([
      { id: "a", class: "update", reason: 'value swap: "10" -> "30"' },
      { id: "b", class: "restatement", reason: "overlap 1.00, no decisive change" },
    ]);
  });

  it("reports each bad record as file:line: reason: message, keeps going, and counts them", async () => {
    const path = file(
      "bad.jsonl",
      [
        JSON.stringify({ id: "ok1", new: "Sessions are stored in Redis.", old: "Sessions are stored in Redis." }),
        "{not json",
        JSON.stringify({ id: "no-old", new: "text" }),
        "",
        JSON.stringify({ id: "ok1", new: "x", old: "y" }),
        JSON.stringify({ id: 7, new: "x", old: "y" }),
        JSON.stringify({ id: "ok2", new: "We no longer run background jobs on NATS JetStream.", old: "Background jobs run on NATS JetStream." }),
      ].join("\n") + "\n",
    );
    const r = await runMari(["classify", path]);
    expect(r.code, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)).toEqual([
      { id: "ok1", class: "restatement", reason: "identical content" },
      { id: "ok2", class: "update", reason: "polarity: no longer" },
    ]);
    expect(r.stderr).toContain(`${path}:2: malformed_json: malformed JSON`);
    expect(r.stderr).toContain(`${path}:3: bad_old: pair "no-old": "old" must be a string`);
    expect(r.stderr).toContain(`${path}:4: blank_line: blank line`);
    expect(r.stderr).toContain(`${path}:5: duplicate_id: duplicate id "ok1"`);
    expect(r.stderr).toContain(`${path}:6: bad_id: "id" must be a non-empty string, got 7`);
    expect(r.stderr).toContain(
      "mari classify: 2 pairs classified, 5 records rejected (bad_id: 1, bad_old: 1, blank_line: 1, duplicate_id: 1, malformed_json: 1)",
    );

    const strict = await runMari(["classify", path, "--strict"]);
    expect(strict.code).toBe(2);
    expect(strict.stdout).toBe(r.stdout);
  });

  it("finds every repeated id of a JSONL file exactly (ids read back from the file), as from stdin", async () => {
    // Over 64 lines (the re-reader's marks), lines longer than its first buffer, CRLF, a BOM,
    // non-ASCII ids and a lone surrogate; each repeat is rejected at its own line, the first kept.
    const ids = ["\ud800", "é", "a\r", "long"];
    for (let i = 0; i < 400; i++) ids.push(`p${i % 150}`, i % 7 === 0 ? ids[i % 4]! : `q${i}`);
    const lines = ids.map((id, i) =>
      JSON.stringify({ id, new: i % 50 === 9 ? `Jobs run on ${"x ".repeat(20_000)}` : "Jobs run on NATS.", old: "Jobs run on Redis." }),
    );
    const text = `\uFEFF${lines.map((l, i) => (i % 5 === 0 ? `${l}\r` : l)).join("\n")}`;
    const path = file("repeats.jsonl", text);
    const expected: string[] = [];
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (seen.has(id)) expected.push(`${path}:${i + 1}: duplicate_id: duplicate id ${JSON.stringify(id)}`);
      seen.add(id);
    });
    const r = await runMari(["classify", path, "--progress", "none"]);
    expect(r.code, r.stderr).toBe(0);
    expect((jsonLines(r.stdout) as { id: string }[]).map((v) => v.id)).toEqual([...seen]);
    expect(r.stderr).toContain(`${seen.size} pairs classified, ${expected.length} records rejected (duplicate_id: ${expected.length})`);
    for (const message of expected.slice(0, 10)) expect(r.stderr).toContain(message);
    const piped = await runMari(["classify", "-", "--progress", "none"], { input: text });
    expect(piped.stdout).toBe(r.stdout);
    expect(piped.stderr.replaceAll("<stdin>", path)).toBe(r.stderr);
  });

  it("exits 2 when no pair could be classified", async () => {
    const empty = await runMari(["classify", file("empty.jsonl", "")]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("no pairs classified");
    const allBad = await runMari(["classify", file("allbad.jsonl", '{"id": "x"}\n')]);
    expect(allBad.code).toBe(2);
    expect(allBad.stderr).toContain('allbad.jsonl:1: bad_new: pair "x": "new" must be a string');
  });

  it("applies --classifier thresholds (repeatable, comma-separated, snake_case accepted); --config still works, deprecated", async () => {
    const path = file("one.jsonl", JSON.stringify({ id: "m", new: "Jobs time out after 15 min.", old: "Jobs time out after 15 minutes." }) + "\n");
    const base = await runMari(["classify", path]);
    expect(jsonLines(base.stdout)).toEqual([{ id: "m", class: "restatement", reason: "overlap 0.75, no decisive change" }]);
    const raised = await runMari(["classify", path, "--classifier", "overlap_floor=0.8,residueMax=1", "--classifier", "aliasPrefixMin=5"]);
    expect(raised.code, raised.stderr).toBe(0);
    expect(jsonLines(raised.stdout)).toEqual([{ id: "m", class: "distinct", reason: "overlap 0.75 below floor" }]);
    expect(raised.stderr).not.toContain("deprecated");
    const old = await runMari(["classify", path, "--config", "overlap_floor=0.8"]);
    expect(old.code, old.stderr).toBe(0);
    expect(jsonLines(old.stdout)).toEqual([{ id: "m", class: "distinct", reason: "overlap 0.75 below floor" }]);
    expect(old.stderr).toContain("--config key=value is deprecated, use --classifier key=value");
  });

  it.each([
    [["overlapFloor=0"], /overlapFloor must be a fraction in \(0, 1\], got 0/],
    [["residueMax=-1"], /residueMax must be an integer ≥ 0, got -1/],
    [["aliasPrefixMin=2.5"], /aliasPrefixMin must be an integer ≥ 1, got 2.5/],
    [["negOverlapFloor=NaN"], /negOverlapFloor must be a fraction/],
    [["floor=0.4"], /unknown key "floor"/],
    [["overlapFloor"], /expects key=value/],
  ])("rejects --config %j with exit 2", async (assignments, message) => {
    const r = await runMari(["classify", "datasets/memory-pairs/mari-pairs.jsonl", ...assignments.flatMap((a) => ["--classifier", a])]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });

  it("exits 2 on a missing file", async () => {
    const r = await runMari(["classify", join(tmp.dir, "nope.jsonl")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("nope.jsonl: cannot read (ENOENT)");
  });
});
