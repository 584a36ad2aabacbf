// The CLI's code-cached script (bin/load-cli.js; dist/bundle/cli.cjs and its V8 code cache, made
// by scripts/build.mjs and scripts/code-cache.mjs): V8 takes the build's cache in a plain `node`,
// an eval run from the script writes what the ES modules write (with one worker thread and two),
// a flag, NODE_OPTIONS or another command loads the ES modules, and a script that is not the one
// the cache was made from is taken only with the same bytes.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SYNC_CHILD } from "../support/children.js";
import { dumpLine } from "../../scripts/dump-lines.mjs";
import { childEnv, MARI_BIN, ROOT, tempDir } from "../support/cli.js";

const { dir, cleanup } = tempDir("mari-code-cache-");
afterAll(cleanup);

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const LOADER = join(ROOT, "bin/load-cli.js");

/** A child's environment without NODE_OPTIONS (which would send it to the ES modules). */
function plainEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = childEnv({ NO_COLOR: "1", ...extra });
  if (extra["NODE_OPTIONS"] === undefined) delete env["NODE_OPTIONS"];
  return env;
}

function node(args: string[], env: NodeJS.ProcessEnv = plainEnv()): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: "utf8", ...SYNC_CHILD });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What the loader does in a child started with `flags`: whether the cache holds, V8's verdict on it, and where an eval and a classify load from. */
function probe(flags: string[], env?: NodeJS.ProcessEnv): { holds: boolean; rejected: boolean | null; evalFrom: string; classifyFrom: string } {
  const file = join(dir, "probe.mjs");
  writeFileSync(
    file,
    `const m = await import(${JSON.stringify(LOADER)});
const cached = m.cachedSource();
const from = (loaded) => (loaded[Symbol.toStringTag] === "Module" ? "modules" : "script");
console.log(JSON.stringify({
  holds: cached !== undefined,
  rejected: cached ? m.cliScript(cached.source, cached.cachedData).cachedDataRejected : null,
  evalFrom: from(await m.loadCli(["node", "mari", "eval"])),
  classifyFrom: from(await m.loadCli(["node", "mari", "--no-color", "classify"])),
}));
`,
  );
  const r = node([...flags, file], env);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe("the CLI's code-cached script", () => {
  it("holds for a plain node: V8 takes the build's cache, and an eval (only) loads from the script", () => {
    expect(probe([])).toEqual({ holds: true, rejected: false, evalFrom: "script", classifyFrom: "modules" });
  });

  it("a flag or NODE_OPTIONS (V8 would refuse the cache) loads the ES modules", () => {
    const modules = { holds: false, rejected: null, evalFrom: "modules", classifyFrom: "modules" };
    expect(probe(["--no-warnings"])).toEqual(modules);
    expect(probe([], plainEnv({ NODE_OPTIONS: "--no-warnings" }))).toEqual(modules);
  });

  it("an eval from the script writes what it writes from the ES modules, with one worker and two", () => {
    // The three line shapes, format-invalid lines among them, 3 runs of the first 60 documents.
    const ids = readFileSync(SLICE, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .slice(0, 60)
      .map((line) => JSON.parse(line).id as string);
    const lines: string[] = [];
    ids.forEach((id, k) => {
      for (let run = 0; run < 3; run++) {
        const judgment = (k + run) % 2 === 0;
        const evidence = judgment ? [1 + (k % 3), 2] : k % 7 === 0 ? [1] : [];
        lines.push(dumpLine((k + run) % 3, id, run, judgment, evidence, `Sentence [${1 + (run % 2)}] says so.`));
      }
    });
    const dump = join(dir, "dump.jsonl");
    writeFileSync(dump, `${lines.join("\n")}\n`);
    const run = (flags: string[], out: string, workers: string) => {
      const r = node([
        ...flags,
        MARI_BIN,
        "eval",
        SLICE,
        "--predictions",
        dump,
        "--out",
        join(dir, out),
        "--workers",
        workers,
        "--quiet",
        "--progress",
        "none",
      ]);
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, out, "report.json"), "utf8"));
      return {
        cases: readFileSync(join(dir, out, "cases.jsonl"), "utf8"),
        numbers: { metrics: report.metrics, ci: report.ci, setcons: report.setcons, rejections: report.rejections, breakdowns: report.breakdowns },
        explorer: readFileSync(join(dir, out, "report.html"), "utf8").match(/<script type="application\/json" id="mari-explorer-data">(.*?)<\/script>/s)?.[1],
      };
    };
    const modules = run(["--no-warnings"], "modules", "1");
    expect(modules.explorer).toBeDefined();
    expect(modules.numbers.metrics.accuracy).toBeDefined();
    for (const workers of ["1", "2"]) expect(run([], `script-${workers}`, workers)).toEqual(modules);
  });

  it("checks the script the cache was made from by its file, any other by its bytes: a changed one is refused", () => {
    // A copy of the launcher and the script's files: a copied file is another file (its change time).
    const copy = join(dir, "copy");
    for (const file of ["bin/load-cli.js", "bin/package.json", "dist/bundle/cli.cjs", "dist/bundle/cli.cjs.cache", "dist/bundle/cli.cjs.json"]) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      copyFileSync(join(ROOT, file), join(copy, file));
    }
    const checkFile = join(dir, "check.cjs");
    writeFileSync(
      checkFile,
      `const m = require(${JSON.stringify(join(copy, "bin/load-cli.js"))});
const holds = m.cachedSource() !== undefined;
console.log(JSON.stringify({ holds, hashed: process.moduleLoadList.includes("NativeModule crypto"), file: m.readScript().file }));
`,
    );
    const check = (): { holds: boolean; hashed: boolean; file: string } => {
      const r = node([checkFile]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const keyPath = join(copy, "dist/bundle/cli.cjs.json");
    const scriptPath = join(copy, "dist/bundle/cli.cjs");
    // Another file with the same bytes: hashed, and taken.
    const copied = check();
    expect(copied).toMatchObject({ holds: true, hashed: true });
    // The file the cache was made from: taken without hashing (node:crypto is not even loaded).
    writeFileSync(keyPath, JSON.stringify({ ...JSON.parse(readFileSync(keyPath, "utf8")), file: copied.file }));
    expect(check()).toMatchObject({ holds: true, hashed: false });
    // That file rewritten with one byte changed, its length kept: hashed, and refused.
    const bytes = readFileSync(scriptPath);
    bytes[4] = bytes[4] === 0x58 ? 0x59 : 0x58;
    writeFileSync(scriptPath, bytes);
    expect(check()).toMatchObject({ holds: false, hashed: true });
  });

  it("the build writes the script in ASCII; the loader reads any script as its UTF-8 text", async () => {
    const bytes = readFileSync(join(ROOT, "dist/bundle/cli.cjs"));
    expect(bytes.every((b) => b < 0x80)).toBe(true);
    const { scriptText } = await import(LOADER);
    expect(scriptText(bytes)).toBe(bytes.toString("utf8"));
    const wide = Buffer.from("// a \u2014 dash, caf\u00e9, \u{1f600}\nmodule.exports = 1;\n", "utf8");
    expect(scriptText(wide)).toBe("// a \u2014 dash, caf\u00e9, \u{1f600}\nmodule.exports = 1;\n");
  });
});
