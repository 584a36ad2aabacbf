#!/usr/bin/env node
// `npm run coverage`: statement, branch, function and line coverage of src/ by the whole suite,
// counting both the code the tests run in-process and the code the CLI runs in the child processes
// (and their worker threads) that the tests spawn.
//
//   1. dist/ is built from src/ (scripts/build.mjs);
//   2. vitest runs the suite with @vitest/coverage-v8 (in-process code, remapped to src/*.ts) and
//      with MARI_CHILD_V8_COVERAGE set, which test/support/cli.ts turns into NODE_V8_COVERAGE for
//      every spawned CLI: each child process and worker thread writes its raw V8 coverage there;
//   3. the raw child coverage of dist/**/*.js is merged per script (@bcoe/v8-coverage) and remapped
//      to src/*.ts through the tsc source maps with ast-v8-to-istanbul, the converter vitest uses,
//      so both halves describe the same statements;
//   4. the two maps are merged (istanbul-lib-coverage) and reported: a table per file and per
//      folder on stdout, coverage/coverage-final.json, coverage/coverage-summary.json and an HTML
//      report in coverage/html/.
// Extra arguments go to vitest (e.g. `npm run coverage -- test/evidence`).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { mergeProcessCovs } from "@bcoe/v8-coverage";
import astV8ToIstanbul from "ast-v8-to-istanbul";
import libCoverage from "istanbul-lib-coverage";
import libReport from "istanbul-lib-report";
import reports from "istanbul-reports";
import { parseAstAsync } from "vitest/node";
import { ensureBuilt, ROOT } from "./build.mjs";

const OUT = join(ROOT, "coverage");
const IN_PROCESS = join(OUT, "in-process");
const CHILDREN_RAW = join(OUT, "children-v8");
const DIST_URL = pathToFileURL(join(ROOT, "dist")).href + "/";

/** Raw V8 coverage of the children, merged per dist/ script (other scripts are dropped early). */
function mergedChildCoverage() {
  let merged = { result: [] };
  let files = 0;
  for (const name of readdirSync(CHILDREN_RAW)) {
    if (!name.endsWith(".json")) continue;
    const raw = JSON.parse(readFileSync(join(CHILDREN_RAW, name), "utf8"));
    const ours = raw.result.filter((script) => script.url.startsWith(DIST_URL) && script.url.endsWith(".js"));
    merged = mergeProcessCovs([merged, { result: ours }]);
    files++;
  }
  return { merged, files };
}

/** The children's coverage as an istanbul map of src/*.ts. */
async function childCoverageMap() {
  const { merged, files } = mergedChildCoverage();
  const map = libCoverage.createCoverageMap({});
  for (const script of merged.result) {
    const path = fileURLToPath(script.url);
    const code = readFileSync(path, "utf8");
    const sourceMap = JSON.parse(readFileSync(`${path}.map`, "utf8"));
    sourceMap.sources = sourceMap.sources.map((source) => pathToFileURL(resolve(dirname(path), sourceMap.sourceRoot ?? "", source)).href);
    const data = await astV8ToIstanbul({
      code,
      sourceMap,
      ast: await parseAstAsync(code),
      coverage: { functions: script.functions, url: script.url },
      wrapperLength: 0,
    });
    map.merge(data);
  }
  return { map, files, scripts: merged.result.length };
}

// The two halves come from the same converter over two compilations of the same source (vite's
// for the in-process tests, tsc's for dist/), so they hold the same statements, functions and
// branches, but the two source maps place some of them a few columns apart (an async arrow starts
// at `async` in one, at its body in the other; an end column may be missing). istanbul's own merge
// keys by exact start and end and would count such an item twice. Here an item is named by its
// start line, its kind (for branches) and its rank among the items of that line, ordered by column.
const ITEM_KINDS = [
  { hits: "s", map: "statementMap", loc: (item) => item, tag: () => "" },
  { hits: "f", map: "fnMap", loc: (item) => item.loc, tag: () => "" },
  { hits: "b", map: "branchMap", loc: (item) => item.loc ?? item.locations[0], tag: (item) => `${item.type}/${item.locations.length}` },
];

/** The merge keys of one kind of item of one file's data, by item id. */
function itemKeys(data, kind) {
  const entries = Object.entries(data[kind.map]).map(([id, item]) => ({ id, item, loc: kind.loc(item) }));
  entries.sort((x, y) => x.loc.start.line - y.loc.start.line || x.loc.start.column - y.loc.start.column);
  const rank = new Map();
  const keys = new Map();
  for (const { id, item, loc } of entries) {
    const line = `${loc.start.line}:${kind.tag(item)}`;
    const n = rank.get(line) ?? 0;
    rank.set(line, n + 1);
    keys.set(id, `${line}#${n}`);
  }
  return keys;
}

function addHits(a, b) {
  return Array.isArray(a) ? a.map((hits, i) => hits + (b[i] ?? 0)) : a + b;
}

function hasEnd(item) {
  const loc = item.loc ?? item;
  return loc.end && loc.end.column !== null && loc.end.column !== undefined;
}

/** File coverage data `a` and `b` of one file, merged by start position (a new object). */
function mergeFileData(a, b) {
  const out = { path: a.path, statementMap: {}, fnMap: {}, branchMap: {}, s: {}, f: {}, b: {} };
  for (const kind of ITEM_KINDS) {
    const items = new Map();
    for (const data of [a, b]) {
      const keys = itemKeys(data, kind);
      for (const [id, item] of Object.entries(data[kind.map])) {
        const key = keys.get(id);
        const seen = items.get(key);
        const hits = data[kind.hits][id];
        if (!seen) items.set(key, { item, hits: Array.isArray(hits) ? [...hits] : hits });
        else {
          seen.hits = addHits(seen.hits, hits);
          if (!hasEnd(seen.item) && hasEnd(item)) seen.item = item;
        }
      }
    }
    let index = 0;
    for (const { item, hits } of items.values()) {
      out[kind.map][index] = item;
      out[kind.hits][index] = hits;
      index++;
    }
  }
  return out;
}

/** Coverage map data `a` and `b` merged file by file (a new object). */
function mergeMapData(a, b) {
  const out = { ...a };
  for (const [file, data] of Object.entries(b)) out[file] = out[file] ? mergeFileData(out[file], data) : data;
  return out;
}

function pct(covered, total) {
  return total === 0 ? "100.00" : ((100 * covered) / total).toFixed(2);
}

/** One row per folder of src/ (and its subfolders summed), then the total. */
function folderTable(map) {
  const folders = new Map();
  const add = (key, summary) => {
    const entry = folders.get(key) ?? libCoverage.createCoverageSummary();
    entry.merge(summary);
    folders.set(key, entry);
  };
  const total = libCoverage.createCoverageSummary();
  for (const file of map.files()) {
    const summary = map.fileCoverageFor(file).toSummary();
    total.merge(summary);
    const parts = relative(ROOT, file).split("/").slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) add(parts.slice(0, depth).join("/"), summary);
  }
  const rows = [...folders.entries()].sort(([a], [b]) => a.localeCompare(b));
  rows.push(["all files", total]);
  const lines = ["| folder | statements | branches | functions | lines |", "| --- | ---: | ---: | ---: | ---: |"];
  for (const [folder, s] of rows) {
    const cell = (k) => `${pct(s[k].covered, s[k].total)}% (${s[k].covered}/${s[k].total})`;
    lines.push(`| ${folder} | ${cell("statements")} | ${cell("branches")} | ${cell("functions")} | ${cell("lines")} |`);
  }
  return lines.join("\n");
}

async function main() {
  const built = await ensureBuilt();
  if (built !== "current") process.stdout.write(`dist/ rebuilt (${built}) from src/\n`);
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(CHILDREN_RAW, { recursive: true });

  const vitest = spawnSync(
    process.execPath,
    [
      join(ROOT, "node_modules/vitest/vitest.mjs"),
      "run",
      "--coverage.enabled",
      "--coverage.provider=v8",
      "--coverage.include=src/**/*.ts",
      "--coverage.reporter=json",
      // A failing test still leaves its coverage: the report below says the run failed.
      "--coverage.reportOnFailure",
      `--coverage.reportsDirectory=${IN_PROCESS}`,
      ...process.argv.slice(2),
    ],
    { cwd: ROOT, stdio: "inherit", env: { ...process.env, MARI_CHILD_V8_COVERAGE: CHILDREN_RAW } },
  );
  if (vitest.status !== 0) process.stdout.write(`\nvitest exited ${vitest.status ?? vitest.signal}; coverage below is of the run as it went\n`);

  const inProcessData = JSON.parse(readFileSync(join(IN_PROCESS, "coverage-final.json"), "utf8"));
  const children = await childCoverageMap();
  rmSync(CHILDREN_RAW, { recursive: true, force: true });
  const inSrc = (data) => Object.fromEntries(Object.entries(data).filter(([file]) => file.startsWith(join(ROOT, "src") + "/")));
  const inProcess = libCoverage.createCoverageMap(inSrc(structuredClone(inProcessData)));
  const merged = libCoverage.createCoverageMap(inSrc(mergeMapData(inProcessData, children.map.toJSON())));

  writeFileSync(join(OUT, "coverage-final.json"), JSON.stringify(merged.toJSON()));
  writeFileSync(join(OUT, "children-final.json"), JSON.stringify(children.map.toJSON()));
  const context = libReport.createContext({ dir: OUT, coverageMap: merged, defaultSummarizer: "nested" });
  reports.create("json-summary").execute(context);
  reports.create("html", { subdir: "html" }).execute(context);
  reports.create("text", { skipFull: false }).execute(context);

  process.stdout.write(`\nchild processes and worker threads: ${children.files} coverage files, ${children.scripts} dist/ scripts\n\n`);
  process.stdout.write("in-process only:\n\n" + folderTable(inProcess) + "\n\n");
  process.stdout.write("in-process and child processes:\n\n" + folderTable(merged) + "\n");
  process.exit(vitest.status === 0 ? 0 : 1);
}

await main();
