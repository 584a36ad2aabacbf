// The README's command examples, run as written (each shell line through `sh -c`, `mari` on PATH
// as a shim for bin/mari.js, in a directory holding the shipped datasets and the files the
// examples name). Lines that need what this machine has not got are left out, each for a reason
// stated in SKIPPED; a README line matching none of those is run, so a new example is tested
// unless someone decides otherwise here.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEnv, ROOT, tempDir, MARI_COMMAND, MARI_SHELL } from "./support/cli.js";

const SKIPPED: { pattern: RegExp; why: string }[] = [
  { pattern: /^npm /, why: "npm itself (the suite is what it runs)" },
  { pattern: /--judge openai --base-url https:/, why: "a live judge endpoint on the internet" },
  { pattern: /^export /, why: "sets a key for the live judge line" },
  { pattern: /^python -m vllm/, why: "vLLM is not installed here (test/judges/batch-roundtrip.test.ts plays its part)" },
  { pattern: /--predictions output\.jsonl/, why: "reads vLLM's output (the batch round trip test covers it)" },
  { pattern: /^mari serve|^curl |^"completion": |^kill |^# /, why: "the serve example is a session (test/server/ runs the server for real)" },
  { pattern: /--predictions rewards-served\.jsonl/, why: "replays the serve session's log (test/cli/error-next-step.test.ts runs that session as written)" },
];

/** Shell lines of the README's sh blocks, with `\` continuations joined and comments dropped. */
function readmeCommands(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const lines: string[] = [];
  for (const [, block] of readme.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)) {
    const joined = block!.replace(/\\\n\s*/g, "");
    for (const raw of joined.split("\n")) {
      const line = raw.trim();
      if (line === "") continue;
      // "npm ci && COMMAND": the install is this checkout's; the command is the example.
      lines.push(line.startsWith("#") ? line : line.replace(/\s+#\s.*$/, "").replace(/^npm ci && /, ""));
    }
  }
  return lines;
}

const tmp = tempDir("mari-readme-");
afterAll(() => tmp.cleanup());
const cwd = join(tmp.dir, "work");
const bin = join(tmp.dir, "bin");

beforeAll(() => {
  mkdirSync(cwd);
  mkdirSync(bin);
  symlinkSync(join(ROOT, "datasets"), join(cwd, "datasets"));
  // `mari` and `npx mari` both mean the built CLI of this checkout.
  writeFileSync(join(bin, "mari"), `#!/bin/sh\nexec ${MARI_SHELL} "$@"\n`);
  writeFileSync(join(bin, "npx"), `#!/bin/sh\n[ "$1" = mari ] && shift\nexec ${MARI_SHELL} "$@"\n`);
  chmodSync(join(bin, "mari"), 0o755);
  chmodSync(join(bin, "npx"), 0o755);
  // The files the examples take as the user's: a model's dump, a baseline report, costs, a CSV.
  const run = (args: string[]) => execFileSync(process.execPath, [...MARI_COMMAND, ...args], { cwd, env: childEnv({ NO_COLOR: "1" }) });
  run(["predict", "datasets/contradoc/contradoc-160.jsonl", "--judge", "lexical", "--out", "my-model.jsonl", "--quiet"]);
  // The full example gates on SetCons, which needs several runs: the lexical answers as runs 0 and 1.
  const answers = readFileSync(join(cwd, "my-model.jsonl"), "utf8").trim().split("\n");
  const asRun = (run: string) => answers.map((l) => JSON.stringify({ ...JSON.parse(l), run }));
  writeFileSync(join(cwd, "dump.jsonl"), `${[...asRun("0"), ...asRun("1")].join("\n")}\n`);
  run(["eval", "datasets/contradoc/contradoc-160.jsonl", "--predictions", "dump.jsonl", "--out", "reports/ckpt-30", "--quiet", "--progress", "none"]);
  writeFileSync(join(cwd, "costs.json"), JSON.stringify({ downrank_live: 5 }));
  const pairs = readFileSync(join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl"), "utf8")
    .trim()
    .split("\n")
    .slice(0, 20)
    .map((l) => JSON.parse(l) as { id: string; new: string; old: string });
  const csvField = (text: string) => `"${text.replace(/"/g, '""')}"`;
  writeFileSync(join(cwd, "pairs.csv"), `id,new,old\n${pairs.map((p) => [p.id, p.new, p.old].map(csvField).join(",")).join("\n")}\n`);
});

describe("README examples run as written", () => {
  const commands = readmeCommands().filter((line) => !SKIPPED.some((s) => s.pattern.test(line)));

  it("finds the examples (the README's main job among them)", () => {
    expect(commands).toContain("npx mari eval datasets/contradoc/contradoc-160.jsonl");
    expect(commands.length).toBeGreaterThanOrEqual(9);
  });

  it.each(commands)("%s", (command) => {
    const r = spawnSync("sh", ["-c", command], { cwd, env: childEnv({ NO_COLOR: "1", PATH: `${bin}:${process.env.PATH}` }), encoding: "utf8" });
    // 0: done; 1: a gate the example sets failed on this data (still a complete run). Never a usage
    // or input error (2) or an internal error (3).
    expect([0, 1], `${command}\n${r.stderr}`).toContain(r.status);
    expect(r.stderr).not.toMatch(/internal error/);
  });
});
