// What a person sees in a real terminal (tmux, a pseudo-terminal with a screen): `mari predict`
// against a chat server on 127.0.0.1 that fails some requests (retried) and answers some cases with
// malformed text, so lines are printed while the progress bar is drawn; then `mari eval` of a dump
// with rejected lines and a failing gate. The screen's last lines must be the summary, its verdict
// last, then the shell's exit line: nothing written over old lines, nothing lost above the bar.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { honestAnswer, startFakeChatServer, type FakeChatServer, type ScriptedReply } from "../judges/support/fake-chat-server.js";
import { MARI_SHELL, tempDir } from "../support/cli.js";
import { SYNC_CHILD } from "../support/children.js";
import { scaled } from "../support/time-limits.js";

const hasTmux = spawnSync("tmux", ["-V"], SYNC_CHILD).status === 0;
const CASES = Array.from({ length: 12 }, (_, i) => `doc-${i}`);
const { dir, cleanup } = tempDir("mari-screen-");
const socket = `mari-test-${process.pid}`;
let server: FakeChatServer | undefined;

function tmux(...args: string[]): string {
  const r = spawnSync("tmux", ["-L", socket, ...args], { ...SYNC_CHILD, encoding: "utf8", env: { ...process.env, TERM: "xterm-256color" } });
  if (r.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** Runs `command` in a fresh 120×40 terminal; returns the screen's non-empty lines once it has exited. */
async function screenAfter(command: string, env: Record<string, string> = {}): Promise<string[]> {
  const script = join(dir, `run-${Math.random().toString(36).slice(2)}.sh`);
  const exports = Object.entries(env).map(([k, v]) => `export ${k}='${v}'\n`);
  writeFileSync(script, `${exports.join("")}unset NO_COLOR FORCE_COLOR CI\ncd '${dir}'\n${command}\necho "[exit $?]"\nsleep 600\n`);
  tmux("new-session", "-d", "-x", "120", "-y", "40", "-s", "screen", "sh", script);
  try {
    const deadline = Date.now() + 240_000;
    for (;;) {
      const screen = tmux("capture-pane", "-p", "-J", "-t", "screen");
      if (/^\[exit \d+\]$/m.test(screen)) {
        if (process.env["MARI_SHOW_SCREEN"]) console.log(screen);
        return screen.split("\n").filter((line) => line.trim() !== "");
      }
      if (Date.now() > deadline) throw new Error(`no exit line on the screen:\n${screen}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    tmux("kill-session", "-t", "screen");
  }
}

beforeAll(() => {
  writeFileSync(
    join(dir, "slice.jsonl"),
    `${CASES.map((id, i) =>
      JSON.stringify({
        id,
        text: `Document ${i} opens. The office has ${i + 2} floors. The office has ${i + 3} floors.`,
        label: i % 2 === 0,
        evidence: i % 2 === 0 ? `The office has ${i + 3} floors.` : null,
      }),
    ).join("\n")}\n`,
  );
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

afterAll(() => {
  spawnSync("tmux", ["-L", socket, "kill-server"], SYNC_CHILD);
  cleanup();
});

describe.skipIf(!hasTmux)("the terminal in a pseudo-terminal", () => {
  it(
    "mari predict: retry and malformed-answer lines above the bar, the summary on the last line before the prompt",
    async () => {
      // Slow answers keep the bar on screen while the retries and malformed answers are reported.
      server = await startFakeChatServer((info): ScriptedReply => {
        if (info.caseId === "doc-3" && info.previousAttempts < 2) return { status: 503, body: '{"error":{"message":"overloaded"}}' };
        if (info.caseId === "doc-7") return { content: "I think so, yes.", delayMs: 150 };
        return { content: honestAnswer(info.caseId), delayMs: 150 };
      });
      const lines = await screenAfter(
        `${MARI_SHELL} predict slice.jsonl --judge openai --base-url ${server.baseUrl} --model judge-1 --api-key-env MARI_TEST_KEY ` +
          "--retry-base-ms 1 --retry-max-ms 5 --concurrency 1 --out dump.jsonl",
        { MARI_TEST_KEY: "sk-test" },
      );
      expect(lines.at(-1)).toBe("[exit 0]");
      expect(lines.at(-2)).toMatch(
        /^mari predict: 12 predictions \(12 cases × 1 run\(s\)\): 0 from cache, 12 requested, 2 retries, 1 malformed answers, 0 failed requests/,
      );
      // The lines printed while the bar ran are each on the screen once, above the bar's last state.
      const bar = lines.findIndex((line) => line.startsWith("judge (answers) ["));
      expect(bar, lines.join("\n")).toBeGreaterThan(0);
      expect(lines.filter((line) => line.startsWith("judge (answers) ["))).toHaveLength(1);
      expect(lines[bar]).toContain("12/12");
      const retries = lines.filter((line) => /retry/i.test(line) && line.includes("503"));
      expect(retries.length, lines.join("\n")).toBe(2);
      for (const line of retries) expect(lines.indexOf(line)).toBeLessThan(bar);
      const malformed = lines.filter((line) => line.includes('"doc-7"'));
      expect(malformed.length, lines.join("\n")).toBe(1);
      // Whole, though wider than the terminal: wrapped, not cut at the edge.
      expect(malformed[0]).toMatch(/is not valid JSON$/);
      expect(lines.indexOf(malformed[0]!)).toBeLessThan(bar);
      expect(lines.filter((line) => line.startsWith("mari predict: 12 predictions"))).toHaveLength(1);
    },
    scaled(300_000),
  );

  it(
    "mari eval: rejected lines first, then the summary with the verdict as its last line",
    async () => {
      const good = CASES.map((id) => honestAnswer(id));
      const dump = [...good.slice(0, 10), "{not json", JSON.stringify({ case_id: CASES[11], judgment: "maybe" })];
      writeFileSync(join(dir, "eval-dump.jsonl"), `${dump.join("\n")}\n`);
      const lines = await screenAfter(`${MARI_SHELL} eval slice.jsonl --predictions eval-dump.jsonl --out out --gate 'accuracy>=0.99'`);
      expect(lines.at(-1)).toBe("[exit 1]");
      expect(lines.at(-2)).toBe("gates: the gate FAILED");
      expect(lines.at(-3)).toMatch(/^report: out\/report\.json, /);
      const first = lines.findIndex((line) => line.startsWith("mari documents: 12 cases"));
      const rejected = lines.findIndex((line) => line.includes("eval-dump.jsonl:11"));
      expect(rejected, lines.join("\n")).toBeGreaterThanOrEqual(0);
      expect(rejected).toBeLessThan(first);
    },
    scaled(300_000),
  );

  it(
    "mari eval on a slice without --predictions (the main job): one line on how to evaluate your own model, before the verdict",
    async () => {
      const lines = await screenAfter(`${MARI_SHELL} eval slice.jsonl --out main`);
      expect(lines.at(-1)).toBe("[exit 0]");
      expect(lines.at(-2)).toBe("gates: none set");
      expect(lines.at(-3)).toBe(
        "next: evaluate your own model: mari predict slice.jsonl --judge openai --base-url URL --model NAME --out dump.jsonl, then mari eval slice.jsonl --predictions dump.jsonl",
      );
    },
    scaled(300_000),
  );
});
