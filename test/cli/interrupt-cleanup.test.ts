// Ctrl-C leaves nothing behind: `mari eval` interrupted while it reads the dump exits 130 and its
// --out holds neither the lock nor a temporary file (a directory it created is gone). A progress
// display that ends early says "stopped", never "done".
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createProgress } from "../../src/cli/progress.js";
import { childEnv, ROOT, tempDir, MARI_COMMAND } from "../support/cli.js";
import { endWithTest } from "../support/children.js";

const { dir, cleanup } = tempDir("mari-interrupt-");
afterAll(cleanup);

describe("interrupts", () => {
  it("eval: SIGINT during the run exits 130 and leaves no lock or temp file in --out", async () => {
    const lines = readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8").split("\n").slice(0, 10);
    writeFileSync(join(dir, "slice.jsonl"), `${lines.join("\n")}\n`);
    const id = (JSON.parse(lines[0]!) as { id: string }).id;
    // Enough lines that the run is still reading when the signal comes.
    const dump: string[] = [];
    for (let r = 0; r < 150_000; r++) dump.push(JSON.stringify({ case_id: id, run: r, judgment: false, evidence_sentence_ids: [] }));
    writeFileSync(join(dir, "dump.jsonl"), `${dump.join("\n")}\n`);
    const out = join(dir, "out");
    const child = endWithTest(
      spawn(process.execPath, [...MARI_COMMAND, "eval", join(dir, "slice.jsonl"), "--predictions", join(dir, "dump.jsonl"), "--out", out, "--quiet"], {
        env: childEnv({ NO_COLOR: "1" }),
        stdio: "ignore",
      }),
    );
    let ended = false;
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => ((ended = true), resolve(code))));
    // Wait for the lock (however loaded the machine: the test's timeout bounds it), then interrupt.
    while (!existsSync(join(out, ".mari.lock")) && !ended) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(join(out, ".mari.lock"))).toBe(true);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });

  it("a plain progress display that ends early says stopped", () => {
    let text = "";
    const stream = { write: (s: string) => ((text += s), true), isTTY: false } as unknown as NodeJS.WritableStream;
    const early = createProgress({ mode: "plain", label: "eval", total: 10, stream, now: () => 0 });
    early.tick(3);
    early.done(false);
    expect(text.trimEnd().split("\n").at(-1)).toBe("eval: 3/10 (30%) 0.0s stopped");
    text = "";
    const finished = createProgress({ mode: "plain", label: "eval", total: 10, stream, now: () => 0 });
    finished.tick(10);
    finished.done();
    expect(text.trimEnd().split("\n").at(-1)).toBe("eval: 10/10 (100%) 0.0s done");
  });
});
