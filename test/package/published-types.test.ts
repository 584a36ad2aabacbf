// The package as npm publishes it: `npm pack` (its prepack/postpack hooks run), then a fresh
// TypeScript project that installs the tarball and type-checks a use of the library with tsc from
// its node_modules, under --strict, without skipLibCheck and with `"types": []` (what `tsc --init`
// writes): mari's .d.ts files must bring what they use (@types/node is a dependency and is
// referenced). The published manifest has no `prepare` script, and the packed tree's is left as it was.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../support/cli.js";
import { SYNC_CHILD } from "../support/children.js";
import { scaled } from "../support/time-limits.js";

const { dir, cleanup } = tempDir("mari-pack-");
afterAll(() => cleanup());

describe("the published package", () => {
  it(
    "has no prepare script, and its types check under --strict in a fresh project",
    () => {
      // Packed from a copy of what the package ships (and the hooks' script): the prepack hook
      // rewrites package.json until postpack, and a tracked file changed in the clone meanwhile
      // makes every eval the other test files run then record the tree as dirty.
      const source = join(dir, "source");
      const shipped: string[] = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).files;
      for (const path of [...shipped, "package.json", "scripts/pack-manifest.mjs"]) cpSync(join(ROOT, path), join(source, path), { recursive: true });
      const before = readFileSync(join(source, "package.json"), "utf8");
      const packed = spawnSync("npm", ["pack", "--pack-destination", dir, "--silent"], { ...SYNC_CHILD, cwd: source, encoding: "utf8" });
      expect(packed.status, packed.stderr).toBe(0);
      // The manifest is restored, byte for byte, and the hook's copy is gone.
      expect(readFileSync(join(source, "package.json"), "utf8")).toBe(before);
      expect(existsSync(join(source, ".package.json.prepack"))).toBe(false);
      const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
      const project = join(dir, "project");
      const modules = join(project, "node_modules");
      mkdirSync(modules, { recursive: true });
      execFileSync("tar", ["xzf", join(dir, tarball), "-C", modules], SYNC_CHILD);
      execFileSync("mv", [join(modules, "package"), join(modules, "mari")], SYNC_CHILD);
      const manifest = JSON.parse(readFileSync(join(modules, "mari/package.json"), "utf8"));
      expect(manifest.scripts.prepare).toBeUndefined();
      expect(manifest.scripts.build).toBeDefined();
      expect(Object.keys(manifest.dependencies)).toContain("@types/node");
      // The installed dependencies (as npm would lay them out), and the compiler.
      for (const name of [...Object.keys(manifest.dependencies), "typescript"]) {
        const link = join(modules, name);
        mkdirSync(join(link, ".."), { recursive: true });
        symlinkSync(join(ROOT, "node_modules", name), link);
      }
      writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "user-project", type: "module" })}\n`);
      writeFileSync(
        join(project, "tsconfig.json"),
        `${JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", noEmit: true, types: [] }, files: ["main.ts"] })}\n`,
      );
      writeFileSync(
        join(project, "main.ts"),
        [
          'import { evaluateDocuments, splitSentences, trendReports } from "mari";',
          'const outcome = await evaluateDocuments({ slicePath: "slice.jsonl", outDir: "out", formats: ["json"] });',
          'const accuracy: number | null | undefined = outcome.report.metrics["accuracy"];',
          'const sentences: string[] = splitSentences("One. Two.");',
          "export { accuracy, sentences, trendReports };",
          "",
        ].join("\n"),
      );
      const tsc = spawnSync(process.execPath, [join(modules, "typescript/bin/tsc"), "-p", project], { ...SYNC_CHILD, cwd: project, encoding: "utf8" });
      expect(`${tsc.stdout}${tsc.stderr}`).toBe("");
      expect(tsc.status).toBe(0);
    },
    scaled(300_000),
  );
});
