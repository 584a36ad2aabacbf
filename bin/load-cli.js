// Loads the CLI's code for bin/mari.js. Node 20 compiles every ES module from its source on every
// start, and a short `mari eval` spent about a third of its CPU there (parsing and compiling the
// bundle's functions). The build therefore also writes the CLI as one script (dist/bundle/cli.cjs)
// and V8's code cache of it (cli.cjs.cache, made by scripts/code-cache.mjs after an eval ran in
// it), which V8 takes instead of compiling again: an eval loads from it. The cache holds only for
// the Node, V8 and flags it was made with (cli.cjs.json); with any other (a `node --flag`,
// NODE_OPTIONS, an upgraded Node) V8 would refuse it after compiling the whole script, so the CLI
// loads from its ES modules instead (dist/bundle/main.js), as it does for the other commands and
// under module hooks and preloads, which see ES modules only.
//
// bin/ is CommonJS (bin/package.json): an eval from the script needs no ES module, and an ES module
// entry has Node run its module loader first and read every export of each Node module it
// imports (node:fs's streams included), 1 to 3 ms of an eval's CPU. The other commands import
// their ES modules from here.
const { isAscii } = require("node:buffer");
const { closeSync, fstatSync, openSync, readFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { dirname, join } = require("node:path");
const { setFlagsFromString } = require("node:v8");
const vm = require("node:vm");

const SCRIPT_PATH = join(__dirname, "../dist/bundle/cli.cjs");
const CACHE_PATH = `${SCRIPT_PATH}.cache`;
const KEY_PATH = `${SCRIPT_PATH}.json`;

/** What the running process must share with the one that made the cache for V8 to take it. */
function runtimeKey() {
  return {
    node: process.version,
    v8: process.versions.v8,
    arch: process.arch,
    execArgv: process.execArgv,
    nodeOptions: process.env.NODE_OPTIONS ?? "",
  };
}

/** The script of `source` as this loader runs it: a CommonJS function, strict as the ES modules it was bundled from. */
function cliScript(source, cachedData) {
  // No dynamic import inside (scripts/build.mjs requires its packages and Node's modules instead).
  return new vm.Script(`(function (exports, require, module, __filename, __dirname) {"use strict";${source}\n})`, { filename: SCRIPT_PATH, cachedData });
}

/** Runs the script, returning its exports (the CLI's `main`). */
function runCliScript(script) {
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(SCRIPT_PATH), module, SCRIPT_PATH, dirname(SCRIPT_PATH));
  return module.exports;
}

/** The sha256 of the script's bytes, recorded with its cache. */
function sourceHash(bytes) {
  // Loaded here: the commands that do not load the script need no node:crypto to start.
  const { createHash } = require("node:crypto");
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The script's bytes, and the file they were read from as its size, inode and change time (which
 * every write of the file sets and, unlike its modification time, no copy or `touch` sets back),
 * taken after the read: a script written since the cache was made, even with its length kept, has
 * another.
 */
function readScript() {
  const fd = openSync(SCRIPT_PATH, "r");
  try {
    const bytes = readFileSync(fd);
    const { size, ino, ctimeNs } = fstatSync(fd, { bigint: true });
    return { bytes, file: `${size}:${ino}:${ctimeNs}` };
  } finally {
    closeSync(fd);
  }
}

/**
 * The script's text. The build writes it in ASCII (scripts/build.mjs), which read as Latin-1 is the
 * same text and becomes a one-byte string without a UTF-8 decoding pass: the UTF-8 reading of its
 * 2.5 MB then, into a two-byte string when one character is not ASCII, took 4 ms of every eval's start.
 */
function scriptText(bytes) {
  return isAscii(bytes) ? bytes.latin1Slice(0, bytes.length) : bytes.toString("utf8");
}

/** The script's source and its code cache, when the cache was made for this process; else undefined. */
function cachedSource() {
  let key;
  try {
    key = JSON.parse(readFileSync(KEY_PATH, "utf8"));
  } catch {
    return undefined;
  }
  if (JSON.stringify(key.runtime) !== JSON.stringify(runtimeKey())) return undefined;
  let script;
  let cachedData;
  try {
    script = readScript();
    cachedData = readFileSync(CACHE_PATH);
  } catch {
    return undefined;
  }
  // The file the cache was made from (readScript) still holds the bytes it was made from, which
  // then need no hashing; any other file (a copy of the build, a script rebuilt since: a partial
  // build) holds them only if they hash alike. A script rebuilt since its cache would compile whole
  // and then be refused, or with the same length be taken with a cache of other code.
  if (script.file !== key.file && sourceHash(script.bytes) !== key.source) return undefined;
  return { source: scriptText(script.bytes), cachedData };
}

/**
 * The command the cache is made for (scripts/code-cache.mjs runs evals): the script holds every
 * command, and loading it with its cache costs a command whose functions the cache does not hold
 * more than its ES modules do (`mari --version` 20 ms of CPU and 17 MB more; `mari classify`
 * would pass its 64 MB bound).
 */
const CACHED_COMMAND = "eval";

/**
 * V8 settings of an eval run from the code-cached script (whose key holds no flags of the user's:
 * a user's choice of them runs the ES modules, as they are). On-stack replacement compiles a
 * function whose loop runs long while the loop goes on; compiled on the eval's own thread instead
 * of a helper's, the GRPO bench's `--report json` eval took 0.94× the CPU (31 alternating pairs),
 * its wall time unchanged: V8 made 38 optimized compiles instead of 49 (`--trace-opt`).
 */
const EVAL_V8_FLAGS = "--no-concurrent-osr";

/** The CLI's `main`: from the code-cached script for an eval when its cache holds for this process, else from the ES modules. */
async function loadCli(argv = process.argv) {
  // Under V8 coverage (NODE_V8_COVERAGE, `npm run coverage`) tsc's own modules, whose source maps lead back to src/.
  if (process.env.NODE_V8_COVERAGE) return import("../dist/cli/main.js");
  const command = argv.slice(2).find((arg) => !arg.startsWith("-"));
  const cached = command === CACHED_COMMAND ? cachedSource() : undefined;
  if (cached === undefined) return import("../dist/bundle/main.js");
  const script = cliScript(cached.source, cached.cachedData);
  // Set once the cache is taken: V8 takes a cache only under the flags it was made with.
  setFlagsFromString(EVAL_V8_FLAGS);
  return runCliScript(script);
}

module.exports = { SCRIPT_PATH, CACHE_PATH, KEY_PATH, runtimeKey, cliScript, runCliScript, sourceHash, readScript, scriptText, cachedSource, loadCli };
