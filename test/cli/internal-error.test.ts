// Exit code 3 (the exit codes in README.md, "Commands"): an internal error is reported as such, with its stack, and exits 3; never
// as a gate failure or an input error. The faults are injected from outside (a module preloaded
// into the child with NODE_OPTIONS=--import, see test/support/faults/), so src/ has no test hook.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { SYNC_CHILD } from "../support/children.js";
import { preloadFault } from "../support/fault-preload.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

describe("internal errors exit 3", () => {
  it("a plain Error inside a document eval's action: exit 3, 'internal error' and the stack, no report", async () => {
    const out = join(dir, "doc");
    const r = await runMari(["eval", join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "--out", out, "--quiet"], {
      env: { NODE_OPTIONS: preloadFault("throwing-hash.mjs") },
    });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^mari: internal error: Error: injected fault: createHash in the main thread\n\s+at /);
    expect(r.stdout).toBe("");
    expect(existsSync(join(out, "report.json"))).toBe(false);
  });

  it("the same fault in a pair eval (while hashing its config for the report): exit 3", async () => {
    const r = await runMari(["eval", join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl"), "--out", join(dir, "pairs"), "--quiet"], {
      env: { NODE_OPTIONS: preloadFault("throwing-hash.mjs") },
    });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain("mari: internal error: Error: injected fault: createHash");
  });

  it("a failure outside any command's action (its module cannot load): bin/mari.js reports it, exit 3", async () => {
    const r = await runMari(["merge", join(dir, "none.json"), "--out", join(dir, "merged")], {
      env: { NODE_OPTIONS: preloadFault("unloadable-command.mjs"), MARI_FAULT_COMMAND: "merge" },
    });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^mari: internal error: Error: injected fault: cannot load file:\/\/\S+\/dist\/(cli\/commands\/merge|bundle\/merge-\w+)\.js\n\s+at /,
    );
    // Other commands are unaffected by the same preload.
    const help = await runMari(["eval", "--help"], { env: { NODE_OPTIONS: preloadFault("unloadable-command.mjs"), MARI_FAULT_COMMAND: "merge" } });
    expect(help.code).toBe(0);
  });

  it("a launcher whose CLI cannot load (a broken install: bin/ without dist/): exit 3, never the gate-failed code", () => {
    const install = join(dir, "broken-install");
    cpSync(join(ROOT, "bin"), join(install, "bin"), { recursive: true });
    for (const args of [["--version"], ["eval", "--help"]]) {
      const r = spawnSync(process.execPath, [join(install, "bin/mari.js"), ...args], { encoding: "utf8", ...SYNC_CHILD });
      expect(r.status, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/^mari: internal error: Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module '\S+\/dist\/bundle\/main\.js'/);
      expect(r.stdout).toBe("");
    }
  });
});
