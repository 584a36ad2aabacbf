#!/usr/bin/env node
// Builds src/ into dist/ and records what was built, so that a test run can tell whether dist/ is
// the compiled form of the sources in front of it.
//
// Plain browser scripts (src/report/browser/*.js, inlined into the HTML reports) are copied into
// dist/ unchanged after tsc.
//
// The CLI runs from a bundle of tsc's output (dist/bundle/, made by esbuild): Node 20 resolves,
// reads and links every ES module on its own, about half a millisecond each, and `mari eval` loads
// about 200 of them. The bundle keeps the commands' lazy imports as chunks, leaves the packages of
// node_modules to Node, and keeps each module's `import.meta.url` the URL of its file in dist/, so
// the files found next to a module (the browser scripts, the punkt data, the worker and task modules
// that worker threads load) are found where tsc put them.
//
// It also writes the CLI as one CommonJS script (dist/bundle/cli.cjs) and V8's code cache of it
// (scripts/code-cache.mjs), which bin/load-cli.js runs instead of the ES modules when the cache
// holds for the process: Node 20 compiles ES modules from source on every start.
//
// The stamp (dist/.build-stamp.json) holds one content hash of the inputs (src/**/*.ts, the browser
// scripts and tsconfig.json), one of the outputs (dist/**/*.js) and the Node the code cache was
// made with (another Node makes the cache again). `ensureBuilt()` (used by `npm run build`
// and by the test suite's global setup) compares both with the files on disk:
//   - both equal: dist/ is current, nothing to do;
//   - inputs changed: incremental `tsc` (fast: only the changed files and their dependents);
//   - outputs changed (a file of dist/ edited, deleted or written by another build): full `tsc`,
//     because an incremental build trusts its own record of what it emitted.
// A build that fails (a type error included) throws, so the tests never run against old output.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const ROOT = resolve(import.meta.dirname, "..");
const SRC = join(ROOT, "src");
const DIST = join(ROOT, "dist");
const STAMP = join(DIST, ".build-stamp.json");
const BUILD_INFO = join(DIST, ".tsbuildinfo");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const BROWSER = join(SRC, "report", "browser");
const BUNDLE = join(DIST, "bundle");

function listFiles(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(suffix))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function hashFiles(files) {
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(relative(ROOT, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

/** The current hashes of the build's inputs and outputs. */
export function currentHashes() {
  return {
    src: hashFiles([...listFiles(SRC, ".ts"), ...listFiles(BROWSER, ".js"), join(ROOT, "tsconfig.json")]),
    dist: hashFiles(listFiles(DIST, ".js")),
  };
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, "utf8"));
  } catch {
    return undefined;
  }
}

function tsc(full) {
  // Without its build info an incremental build emits every file.
  if (full) rmSync(BUILD_INFO, { force: true });
  const args = [TSC, "-p", join(ROOT, "tsconfig.json"), "--incremental", "--tsBuildInfoFile", BUILD_INFO];
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
    throw new Error(`build failed (tsc exit ${result.status ?? result.signal}):\n${output}`);
  }
}

function copyBrowserScripts() {
  for (const file of listFiles(BROWSER, ".js")) {
    const target = join(DIST, relative(SRC, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
}

/**
 * An esbuild plugin: each module of dist/ passed through `also` (default: as it is), then with
 * `import.meta.url` replaced by the URL of that module's own file, found from `base`, an expression
 * for the URL of the output file it lands in (every output lies in dist/bundle/).
 */
function distModules(base, also = (contents) => contents) {
  return {
    name: "dist-modules",
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        let contents = readFileSync(args.path, "utf8");
        if (!args.path.startsWith(DIST)) return { contents, loader: "js" };
        contents = also(contents);
        if (contents.includes("import.meta.url")) {
          const fromBundle = relative(BUNDLE, args.path).split("\\").join("/");
          contents = contents.replaceAll("import.meta.url", `new URL(${JSON.stringify(fromBundle)}, ${base}).href`);
        }
        return { contents, loader: "js" };
      });
    },
  };
}

/**
 * A CommonJS script has no dynamic import of its own (one needs vm's experimental loader hook):
 * the packages the script leaves to node_modules, and Node's built-in modules, are required
 * instead, when first asked for as before.
 */
const SCRIPT_EXTERNALS = ["piscina"];

/**
 * The CommonJS packages the CLI requires through `createRequire` (src/cli/main.ts) that the script
 * holds instead, so that the code cache holds them too: commander, which every run loads, cost an
 * eval about 8 ms of CPU compiled from its own files.
 */
const SCRIPT_BUNDLED_REQUIRES = ["commander"];

/** A module of dist/ as the script holds it: see SCRIPT_EXTERNALS and SCRIPT_BUNDLED_REQUIRES. */
function scriptModule(contents) {
  return contents
    .replace(/\bimport\("((?:node:)[a-z_/]+|piscina)"\)/g, (_, name) => `Promise.resolve().then(() => require(${JSON.stringify(name)}))`)
    .replace(/\bcreateRequire\(import\.meta\.url\)\("([^"]+)"\)/g, (call, name) =>
      SCRIPT_BUNDLED_REQUIRES.includes(name) ? `require(${JSON.stringify(name)})` : call,
    );
}

/** dist/bundle/: the CLI's entry (dist/cli/main.js) and everything it imports from dist/, as one module and its lazy chunks. */
async function bundleCli() {
  rmSync(BUNDLE, { recursive: true, force: true });
  await build({
    entryPoints: [join(DIST, "cli", "main.js")],
    outdir: BUNDLE,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    plugins: [distModules("import.meta.url")],
    logLevel: "error",
  });
}

/**
 * dist/bundle/cli.cjs: the CLI as one CommonJS script, its packages included, which bin/load-cli.js
 * runs with V8's code cache of it (an ES module cannot take one in Node 20). piscina stays a
 * package of node_modules: it starts its worker threads from a file beside its own.
 */
async function bundleCliScript() {
  await build({
    entryPoints: [join(DIST, "cli", "main.js")],
    outfile: join(BUNDLE, "cli.cjs"),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    external: SCRIPT_EXTERNALS,
    // Without its indentation and line breaks (a quarter of its bytes), which every eval read and
    // copied into a string; the code and its names are kept, so a stack trace still names functions.
    minifyWhitespace: true,
    // A CommonJS function has no `import.meta`: the script's own URL, from its file.
    banner: { js: 'var __mariScriptUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [distModules("__mariScriptUrl", scriptModule)],
    logLevel: "error",
  });
  const script = join(BUNDLE, "cli.cjs");
  const text = readFileSync(script, "utf8");
  const left = text.match(/\bimport\("[^"]*"\)/g);
  if (left) throw new Error(`build failed: dist/bundle/cli.cjs keeps a dynamic import, which it cannot run: ${left.join(", ")}`);
  writeFileSync(script, asciiScript(text));
}

/**
 * The script in ASCII, which bin/load-cli.js reads as a one-byte string without decoding UTF-8.
 * esbuild escapes the code's own characters (its default `charset: "ascii"`) and leaves those of
 * comments, which become \u escapes here (one per UTF-16 unit).
 */
function asciiScript(text) {
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** V8's code cache of dist/bundle/cli.cjs, made by scripts/code-cache.mjs in a process without flags, as `mari` runs. */
function makeCodeCache() {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const result = spawnSync(process.execPath, [join(ROOT, "scripts", "code-cache.mjs")], { cwd: ROOT, env, encoding: "utf8" });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
    throw new Error(`build failed (code cache, exit ${result.status ?? result.signal}):\n${output}`);
  }
}

/**
 * Makes dist/ the build of the current sources. Returns what it did: "current" (nothing),
 * "incremental" or "full".
 */
export async function ensureBuilt() {
  const stamp = readStamp();
  const before = currentHashes();
  if (stamp && stamp.src === before.src && stamp.dist === before.dist) {
    if (stamp.node === process.version) return "current";
    // Another Node than the one the code cache was made with: the cache again, nothing else.
    makeCodeCache();
    writeFileSync(STAMP, `${JSON.stringify({ ...before, node: process.version })}\n`);
    return "code cache";
  }
  const full = !stamp || stamp.dist !== before.dist;
  tsc(full);
  copyBrowserScripts();
  await bundleCli();
  await bundleCliScript();
  makeCodeCache();
  const after = currentHashes();
  writeFileSync(STAMP, `${JSON.stringify({ ...after, node: process.version })}\n`);
  return full ? "full" : "incremental";
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await ensureBuilt();
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
