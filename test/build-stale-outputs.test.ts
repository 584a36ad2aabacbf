// The build removes from dist/ what a source no longer there left behind (scripts/build.mjs,
// removeStaleOutputs): tsc's .js, .d.ts and their maps of a removed or renamed .ts, a copied browser
// script whose source is gone, and the folders left empty; it keeps every output whose source
// exists, esbuild's dist/bundle/ and the build's own files. On real files in a folder of the test's.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeStaleOutputs } from "../scripts/build.mjs";
import { tempDir } from "./support/cli.js";

const tmp = tempDir("mari-stale-outputs-");
afterAll(() => tmp.cleanup());

function files(root: string, paths: readonly string[]): void {
  for (const path of paths) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), "// a file\n");
  }
}
const tscOutputs = (stem: string) => [`${stem}.js`, `${stem}.js.map`, `${stem}.d.ts`, `${stem}.d.ts.map`];
const listed = (root: string) =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1) + (e.isDirectory() ? "/" : ""))
    .sort();

describe("the build's removal of stale outputs", () => {
  it("removes the outputs of sources that are gone, and only those", () => {
    const src = join(tmp.dir, "src");
    const dist = join(tmp.dir, "dist");
    files(src, ["index.ts", "report/cases-digest.ts", "report/browser/explorer.js", "tasks/run.ts"]);
    const kept = [
      ...tscOutputs("index"),
      ...tscOutputs("report/cases-digest"),
      "report/browser/explorer.js",
      ...tscOutputs("tasks/run"),
      "bundle/main.js",
      "bundle/chunk-ABC.js",
      "bundle/cli.cjs",
      ".build-stamp.json",
      ".tsbuildinfo",
    ];
    const stale = [
      // cases-hash.ts was renamed cases-digest.ts; old/ and every source in it were removed.
      ...tscOutputs("report/cases-hash"),
      "report/browser/view.js",
      ...tscOutputs("old/gone"),
      ...tscOutputs("old/deeper/also-gone"),
    ];
    files(dist, [...kept, ...stale]);

    expect(removeStaleOutputs(src, dist).sort()).toEqual([...stale].sort());
    const folders = ["bundle/", "report/", "report/browser/", "tasks/"];
    expect(listed(dist)).toEqual([...kept, ...folders].sort());
    // A second pass finds nothing more.
    expect(removeStaleOutputs(src, dist)).toEqual([]);
  });

  it("does nothing before the first build (no dist/)", () => {
    expect(removeStaleOutputs(join(tmp.dir, "src"), join(tmp.dir, "no-dist"))).toEqual([]);
  });
});
