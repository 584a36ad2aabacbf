#!/usr/bin/env node
// Makes V8's code cache of the CLI's script (dist/bundle/cli.cjs, bin/load-cli.js): compiles the
// script without a cache, runs evals in it, so that the functions an eval runs are compiled, and
// writes the cache (cli.cjs.cache) with what it holds for (cli.cjs.json: this Node, V8 and flags,
// the script's hash, the file it was read from). The evals: a dump of the three line shapes over
// the shipped 160-document slice, `--report json` with the compiled slice read afresh, then every
// report with it cached; then every report of a small dump whose second run is format-invalid in
// each way a judge gets it wrong, so that the functions report.html's case explorer explains a
// failed run with are in the cache too (else V8 compiles them in every eval that has such a line).
// Run by scripts/build.mjs in a process of its own, without flags or NODE_OPTIONS, as `mari` runs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CACHE_PATH, cliScript, KEY_PATH, readScript, runCliScript, runtimeKey, scriptText, sourceHash } from "../bin/load-cli.js";
import { dumpLine } from "./dump-lines.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");

/**
 * A format-invalid prediction for each reason a dump line is scored invalid for, in the three
 * shapes (the fields of a structured line, a cache-shaped `prediction`, a raw completion).
 */
const INVALID = [
  { judgment: "maybe", evidence_sentence_ids: [], reasoning: "Unsure." },
  { judgment: true, evidence_sentence_ids: ["1"], reasoning: "Sentence [1]." },
  { judgment: true, evidence_sentence_ids: [999], reasoning: "Sentence [1]." },
  { judgment: true, evidence_sentence_ids: [], reasoning: "Nothing cited." },
  { judgment: false, evidence_sentence_ids: [1], reasoning: "Sentence [1]." },
  { judgment: true, evidence_sentence_ids: [1], reasoning: 7 },
  { judgment: true, evidence_sentence_ids: [1], reasoning: "Sentences [1] and [999]." },
  { judgment: true, evidence_sentence_ids: "[1]", reasoning: "Sentence [1]." },
  { prediction: "yes" },
  { prediction: { judgment: true, evidence_sentence_ids: [999], reasoning: "Sentence [1]." } },
  { completion: "<think>\nSentence [1].\n</think>\n<answer>\nJudgment: perhaps\nEvidence: [1]\n</answer>" },
  { completion: "<think>\nSentence [1].\n</think>\n<answer>\nJudgment: yes\nEvidence: [999]\n</answer>" },
  { completion: "Judgment: yes" },
];

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
  // The first cases again, run 0 format-valid and run 1 invalid in the way of its entry of INVALID.
  const invalidLines = INVALID.flatMap((wrong, k) => [
    dumpLine(k % 3, ids[k], 0, false, [], "Nothing [1] contradicts."),
    JSON.stringify({ case_id: ids[k], run: 1, ...wrong }),
  ]);
  const invalidDump = join(dir, "invalid.jsonl");
  writeFileSync(invalidDump, `${invalidLines.join("\n")}\n`);
  const cacheDir = join(dir, "cache");
  const evalArgs = (predictions, out, ...more) => [
    "node",
    "mari",
    "eval",
    SLICE,
    "--predictions",
    predictions,
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
  const warmUps = [
    evalArgs(dump, "json", "--report", "json"),
    evalArgs(dump, "all"),
    // Only the cases the small dump covers (the others would be scored as missing predictions).
    evalArgs(invalidDump, "invalid", "--limit", String(INVALID.length)),
  ];
  for (const argv of warmUps) {
    const code = await main(argv);
    if (code !== 0) throw new Error(`code-cache: \`mari ${argv.slice(2).join(" ")}\` exited ${code}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
writeFileSync(CACHE_PATH, script.createCachedData());
writeFileSync(KEY_PATH, `${JSON.stringify({ runtime: runtimeKey(), source: sourceHash(bytes), file })}\n`);
