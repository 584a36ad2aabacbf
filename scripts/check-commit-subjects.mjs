#!/usr/bin/env node
// Commit subjects say what changed for the user in at most 72 characters (details go in the body).
// Checked for the commits after BASE, the commit before this check existed (earlier history is
// left as it is); a clone without BASE (shallow, or not a git checkout) is not checked.
import { spawnSync } from "node:child_process";

const BASE = "6597365742ff876e55c3cab1386ae86bd06040db";
const MAX = 72;

const has = spawnSync("git", ["cat-file", "-e", `${BASE}^{commit}`], { encoding: "utf8" });
if (has.status !== 0) {
  console.log(`check-commit-subjects: ${BASE.slice(0, 12)} is not in this clone; not checked`);
  process.exit(0);
}
const log = spawnSync("git", ["log", "--format=%h %s", `${BASE}..HEAD`], { encoding: "utf8" });
if (log.status !== 0) {
  console.error(`check-commit-subjects: git log failed: ${log.stderr.trim()}`);
  process.exit(1);
}
const long = log.stdout
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => ({ hash: line.slice(0, line.indexOf(" ")), subject: line.slice(line.indexOf(" ") + 1) }))
  .filter(({ subject }) => [...subject].length > MAX);
for (const { hash, subject } of long) console.error(`${hash}: subject of ${[...subject].length} characters (at most ${MAX}): ${subject}`);
process.exit(long.length > 0 ? 1 : 0);
