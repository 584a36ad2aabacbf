// The README's command examples, run as written and in order (each shell line through `sh -c`,
// `mari` on PATH as a shim for bin/mari.js, in a directory holding the shipped datasets and nothing
// else: the examples make what the later ones read), and the main job's summary as the README
// shows it. A line is left out only by a pattern in SKIPPED, with its reason; a README line
// matching none of those is run, so a new example is tested unless someone decides otherwise here.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEnv, ROOT, tempDir, MARI_SHELL } from "./support/cli.js";
import { SYNC_CHILD } from "./support/children.js";

const SKIPPED: { pattern: RegExp; why: string }[] = [
  { pattern: /^npm /, why: "npm itself (the suite is what it runs)" },
  { pattern: /^mari serve |^curl |^"completion": |^kill /, why: "the serve session (test/cli/error-next-step.test.ts runs it as written)" },
  { pattern: /--predictions rewards-served\.jsonl/, why: "replays the serve session's log (test/cli/error-next-step.test.ts)" },
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
});

describe("README examples run as written", () => {
  const commands = readmeCommands().filter((line) => !SKIPPED.some((s) => s.pattern.test(line)));

  it("finds the examples (the README's main job among them)", () => {
    expect(commands).toContain("npx mari eval datasets/contradoc/contradoc-160.jsonl");
    expect(commands.length).toBeGreaterThanOrEqual(9);
  });

  it("the main job prints the summary the README shows", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const shown = /```text\n([\s\S]*?)```/.exec(readme)![1]!;
    const fresh = join(tmp.dir, "fresh");
    mkdirSync(fresh);
    symlinkSync(join(ROOT, "datasets"), join(fresh, "datasets"));
    const r = spawnSync("sh", ["-c", "npx mari eval datasets/contradoc/contradoc-160.jsonl"], {
      ...SYNC_CHILD,
      cwd: fresh,
      env: childEnv({ NO_COLOR: "1", PATH: `${bin}:${process.env.PATH}` }),
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(shown);
  });

  it.each(commands)("%s", (command) => {
    const r = spawnSync("sh", ["-c", command], { ...SYNC_CHILD, cwd, env: childEnv({ NO_COLOR: "1", PATH: `${bin}:${process.env.PATH}` }), encoding: "utf8" });
    // 0: done; 1: a gate the example sets failed on this data (still a complete run). Never a usage
    // or input error (2) or an internal error (3).
    expect([0, 1], `${command}\n${r.stderr}`).toContain(r.status);
    expect(r.stderr).not.toMatch(/internal error/);
  });
});
