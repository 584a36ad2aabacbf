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
// scripts and tsconfig.json), one of the outputs (dist/**/*.js), and the Node the code cache was
// made with and a hash of the scripts that make and load it (another Node, or a change to those
// scripts, makes the cache again). `ensureBuilt()` (used by `npm run build`
// and by the test suite's global setup) compares both with the files on disk:
//   - both equal: dist/ is current, nothing to do;
//   - inputs changed: incremental `tsc` (fast: only the changed files and their dependents);
//   - outputs changed (a file of dist/ edited, deleted or written by another build): full `tsc`,
//     because an incremental build trusts its own record of what it emitted.
// A build that fails (a type error included) throws, so the tests never run against old output.
// Every build, the up-to-date one included, removes from dist/ the outputs of sources that no
// longer exist (removeStaleOutputs: tsc never deletes, so a renamed source left its old module).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
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

/** What the code cache is made by (its warm-up evals and their dump lines) and loaded by (the script's wrapper). */
const CODE_CACHE_INPUTS = ["scripts/code-cache.mjs", "scripts/dump-lines.mjs", "bin/load-cli.js"].map((path) => join(ROOT, path));

/** The current hashes of the build's inputs and outputs, and of the code cache's own inputs. */
export function currentHashes() {
  return {
    src: hashFiles([...listFiles(SRC, ".ts"), ...listFiles(BROWSER, ".js"), join(ROOT, "tsconfig.json")]),
    dist: hashFiles(listFiles(DIST, ".js")),
    codeCache: hashFiles(CODE_CACHE_INPUTS),
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
 * The outputs of dist/ that come from a source of src/, by suffix (the longest first), each with the
 * suffixes its source may have: tsc's JavaScript, declarations and their maps of a .ts, and the
 * browser scripts copied as they are.
 */
const OUTPUT_SOURCES = [
  [".d.ts.map", [".ts"]],
  [".d.ts", [".ts"]],
  [".js.map", [".ts"]],
  [".js", [".ts", ".js"]],
];

/**
 * Removes the outputs in `dist` whose source in `src` no longer exists (a source renamed or
 * removed), and the folders that leaves empty: tsc writes over what it finds and never deletes, so
 * a removed source's old module would stay in dist/, importable and packed. dist/bundle/ (esbuild
 * makes it anew) and the build's own files are left alone. Returns the removed paths, relative to
 * `dist`.
 */
export function removeStaleOutputs(src = SRC, dist = DIST) {
  if (!existsSync(dist)) return [];
  const sources = new Set(
    readdirSync(src, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(src, join(e.parentPath, e.name))),
  );
  const removed = [];
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const output = relative(dist, path);
    if (output.startsWith(`bundle${sep}`)) continue;
    const match = OUTPUT_SOURCES.find(([suffix]) => output.endsWith(suffix));
    if (match === undefined) continue;
    const [suffix, sourceSuffixes] = match;
    const stem = output.slice(0, -suffix.length);
    if (sourceSuffixes.some((s) => sources.has(stem + s))) continue;
    rmSync(path);
    removed.push(output);
  }
  const folders = new Set();
  for (const output of removed) for (let dir = dirname(join(dist, output)); dir !== dist; dir = dirname(dir)) folders.add(dir);
  // A folder's path is longer than its parent's: a folder left holding only emptied folders is empty by its turn.
  for (const dir of [...folders].sort((a, b) => b.length - a.length)) if (readdirSync(dir).length === 0) rmdirSync(dir);
  return removed;
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
 * Makes dist/ the build of the current sources. Returns what it did: "current" (nothing), "code
 * cache" (made again for this Node), "stale outputs removed", "incremental" or "full".
 */
export async function ensureBuilt() {
  const stamp = readStamp();
  const before = currentHashes();
  if (stamp && stamp.src === before.src && stamp.dist === before.dist) {
    // Outputs of sources removed before a build that left them (nothing built imports them).
    const stale = removeStaleOutputs().length > 0;
    const cacheCurrent = stamp.node === process.version && stamp.codeCache === before.codeCache;
    if (cacheCurrent && !stale) return "current";
    // Another Node than the one the code cache was made with, or other scripts making it: the cache again, nothing else.
    if (!cacheCurrent) makeCodeCache();
    writeFileSync(STAMP, `${JSON.stringify({ ...currentHashes(), node: process.version })}\n`);
    return cacheCurrent ? "stale outputs removed" : "code cache";
  }
  const full = !stamp || stamp.dist !== before.dist;
  tsc(full);
  removeStaleOutputs();
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
