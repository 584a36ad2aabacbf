#!/usr/bin/env node
// Makes V8's code cache of the CLI's script (dist/bundle/cli.cjs, bin/load-cli.js): compiles the
// script without a cache, runs evals in it, so that the functions an eval runs are compiled, and
// writes the cache (cli.cjs.cache) with what it holds for (cli.cjs.json: this Node, V8 and flags,
// the script's hash, the file it was read from). The evals: a dump of the three line shapes over
// the shipped 160-document slice, `--report json` with the compiled slice read afresh, then every
// report with it cached.
// Run by scripts/build.mjs in a process of its own, without flags or NODE_OPTIONS, as `mari` runs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CACHE_PATH, cliScript, KEY_PATH, readScript, runCliScript, runtimeKey, scriptText, sourceHash } from "../bin/load-cli.js";
import { dumpLine } from "./dump-lines.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");

rmSync(CACHE_PATH, { force: true });
rmSync(KEY_PATH, { force: true });
const { bytes, file } = readScript();
const script = cliScript(scriptText(bytes), undefined);
const { main } = runCliScript(script);

const dir = mkdtempSync(join(tmpdir(), "mari-code-cache-"));
try {
  const ids = readFileSync(SLICE, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line).id);
  const lines = [];
  for (let run = 0; run < 8; run++) {
    ids.forEach((id, k) => {
      const judgment = (k + run) % 3 === 0;
      lines.push(dumpLine((k + run) % 3, id, run, judgment, judgment ? [1, 2] : [], `Sentence [1] and [2] ${judgment ? "disagree" : "agree"}.`));
    });
  }
  const dump = join(dir, "dump.jsonl");
  writeFileSync(dump, `${lines.join("\n")}\n`);
  const cacheDir = join(dir, "cache");
  const evalArgs = (out, ...more) => [
    "node",
    "mari",
    "eval",
    SLICE,
    "--predictions",
    dump,
    "--out",
    join(dir, out),
    "--workers",
    "1",
    "--cache-dir",
    cacheDir,
    "--quiet",
    "--progress",
    "none",
    ...more,
  ];
  for (const argv of [evalArgs("json", "--report", "json"), evalArgs("all")]) {
    const code = await main(argv);
    if (code !== 0) throw new Error(`code-cache: \`mari ${argv.slice(2).join(" ")}\` exited ${code}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
writeFileSync(CACHE_PATH, script.createCachedData());
writeFileSync(KEY_PATH, `${JSON.stringify({ runtime: runtimeKey(), source: sourceHash(bytes), file })}\n`);
