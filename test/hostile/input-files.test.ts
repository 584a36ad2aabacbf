// Hangs: one rule for every input file of every command. A path must be a regular file
// (symlinks followed): /dev/zero behind a symlink (read forever) and a FIFO with no writer (blocks
// forever) are refused up front, exit 2 naming the path. A UTF-16 file says how to fix it.
import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { DOC_SLICE, EVIDENCE_DOCS, EVIDENCE_FACTS, expectInputError, PAIRS, write } from "./helpers.js";
import { SYNC_CHILD } from "../support/children.js";

const tmp = tempDir("mari-input-files-");
afterAll(() => tmp.cleanup());
const zero = join(tmp.dir, "zero.jsonl");
symlinkSync("/dev/zero", zero);
const fifo = join(tmp.dir, "fifo.jsonl");
execFileSync("mkfifo", [fifo], SYNC_CHILD);
const out = join(tmp.dir, "out");
const q = ["--quiet", "--progress", "none"];

/** Every input role of every command, with X standing for the hostile path. */
const ROLES: Array<[string, string[]]> = [
  ["eval slice", ["eval", "X", "--out", out, ...q]],
  ["eval --predictions", ["eval", DOC_SLICE, "--predictions", "X", "--out", out, ...q]],
  ["eval --baseline", ["eval", DOC_SLICE, "--baseline", "X", "--out", out, ...q]],
  ["eval --config", ["eval", DOC_SLICE, "--config", "X", "--out", out, ...q]],
  ["eval pairs --costs", ["eval", PAIRS, "--costs", "X", "--out", out, ...q]],
  ["classify", ["classify", "X"]],
  ["sweep pairs", ["sweep", "X", "--out", out, ...q]],
  ["sweep --grid", ["sweep", PAIRS, "--grid", "X", "--out", out, ...q]],
  ["evidence docs", ["evidence", "X", "--facts", EVIDENCE_FACTS, "--out", out, ...q]],
  ["evidence --facts", ["evidence", EVIDENCE_DOCS, "--facts", "X", "--out", out, ...q]],
  ["predict slice", ["predict", "X", "--judge", "lexical", "--out", join(tmp.dir, "dump.jsonl")]],
  ["merge report", ["merge", "X", "--out", out, "--quiet"]],
];

describe.each([
  ["/dev/zero via a symlink", zero, /is a character device, not a regular file/],
  ["a FIFO with no writer", fifo, /is a FIFO \(named pipe\), not a regular file/],
])("%s", (_name, path, message) => {
  it.each(ROLES)("%s: exit 2, no hang", async (_role, args) => {
    const r = await runMari(args.map((a) => (a === "X" ? path : a)));
    // merge checks for the shard's cases.jsonl beside the report first.
    expectInputError(r, _role === "merge report" ? /cases\.jsonl|not a regular file/ : message);
  });
});

describe("UTF-16 input", () => {
  const utf16 = (name: string, text: string) => write(tmp.dir, name, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
  it.each([
    ["eval slice", (p: string) => ["eval", p, "--out", out, ...q], "slice16.jsonl", '{"id": "a", "text": "One. Two.", "label": false}\n'],
    ["eval --predictions", (p: string) => ["eval", DOC_SLICE, "--predictions", p, "--out", out, ...q], "dump16.jsonl", '{"case_id": "a", "judgment": "no"}\n'],
    ["classify", (p: string) => ["classify", p], "pairs16.csv", "id,new,old\na,x,y\n"],
    ["--costs", (p: string) => ["eval", PAIRS, "--costs", p, "--out", out, ...q], "costs16.json", '{"stale_kept": 1}'],
  ])("%s: says to convert to UTF-8", async (_role, args, name, text) => {
    const r = await runMari(args(utf16(name, text)));
    expectInputError(r, new RegExp(`${name.replace(".", "\\.")}: UTF-16: convert to UTF-8`));
  });
});
