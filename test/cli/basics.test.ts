import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runMari } from "../support/cli.js";
import { MARI_VERSION } from "../../src/version.js";

describe("mari CLI basics", () => {
  it("keeps the version constant in step with package.json", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(MARI_VERSION).toBe(pkg.version);
  });

  it("prints help and exits 0", async () => {
    const r = await runMari(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: mari");
  });

  it("refuses '-' as a slice by name (exit 2), for eval, predict and serve alike", async () => {
    const slice = readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8").split("\n").slice(0, 3).join("\n");
    const runs = await Promise.all([
      runMari(["eval", "-", "--predictions", "dump.jsonl", "--out", "never-written"], { input: slice }),
      runMari(["predict", "-", "--judge", "lexical", "--out", "never-written.jsonl"], { input: slice }),
      runMari(["serve", "-"], { input: slice }),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("mari: -: a slice cannot be read from standard input; save it to a file and give that path");
      expect(r.stderr).not.toContain("ENOENT");
    }
  });

  it("refuses '-' by name (exit 2) wherever an input is a file: a dump, evidence inputs, reports, a grid, a config", async () => {
    const slice = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
    const evidence = join(ROOT, "datasets/evidence-example");
    const input = readFileSync(slice, "utf8").split("\n").slice(0, 3).join("\n");
    const dir = mkdtempSync(join(tmpdir(), "mari-stdin-"));
    try {
      const out = (name: string) => ["--out", join(dir, name)];
      const dump = join(dir, "dump.jsonl");
      writeFileSync(dump, '{"case_id":"none","judgment":false}\n');
      const runs = await Promise.all([
        runMari(["eval", slice, "--predictions", "-", ...out("a")], { input }),
        runMari(["eval", slice, "--predictions", dump, "--baseline", "-", ...out("b")], { input }),
        runMari(["evidence", join(evidence, "docs.jsonl"), "--facts", "-", ...out("c")], { input }),
        runMari(["evidence", "-", "--facts", join(evidence, "facts.jsonl"), ...out("d")], { input }),
        runMari(["diff", "-", "-", ...out("e")], { input }),
        runMari(["trend", "-", ...out("f")], { input }),
        runMari(["view", "-"], { input }),
        runMari(["sweep", join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl"), "--grid", "-", ...out("g")], { input }),
        runMari(["eval", slice, "--predictions", dump, "--config", "-", ...out("h")], { input }),
      ]);
      for (const r of runs) {
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain("-: this input is read from a file, not from standard input; save it to a file and give that path");
        expect(r.stderr).not.toContain("ENOENT");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a slice with no usable case is exit 2 with --workers 2 too (threads started early, then closed)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mari-noslice-"));
    try {
      writeFileSync(join(dir, "slice.jsonl"), '{"id":"a"}\n{"id":"b"}\n');
      writeFileSync(join(dir, "dump.jsonl"), '{"case_id":"a","judgment":"no"}\n');
      const r = await runMari(["eval", "slice.jsonl", "--predictions", "dump.jsonl", "--out", "out", "--workers", "2"], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("slice error: the slice has no cases");
      expect(r.stderr).not.toMatch(/^\s+at |Node\.js v|Error: the scoring pool/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 2 on an unknown command", async () => {
    const r = await runMari(["no-such-command"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command");
  });
});

describe("mari help for one command", () => {
  it("lists every command at the top level and loads the full options of the one asked about", async () => {
    const top = await runMari(["--help"]);
    for (const name of ["eval", "predict", "classify", "sweep", "evidence", "merge"]) expect(top.stdout).toContain(name);
    const evalHelp = await runMari(["help", "eval"]);
    expect(evalHelp.code).toBe(0);
    expect(evalHelp.stdout).toContain("--predictions");
    const sweepHelp = await runMari(["sweep", "--help"]);
    expect(sweepHelp.stdout).toContain("--grid");
  });
});
