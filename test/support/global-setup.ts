// Global setup of the suite: the CLI tests spawn bin/mari.js and the pool loads its workers from
// dist/, so dist/ must be the build of the sources under test. ensureBuilt() rebuilds whatever
// changed (see scripts/build.mjs) and throws on a failed build, which stops the run. In watch mode
// the same happens before every rerun.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuilt } from "../../scripts/build.mjs";

async function build(): Promise<void> {
  const what = (await ensureBuilt()) as string;
  if (what !== "current") process.stdout.write(`dist/ rebuilt (${what}) from src/\n`);
}

export default async function setup(project: TestProject): Promise<() => void> {
  await build();
  project.onTestsRerun(() => build());
  // The compiled-slice cache of every mari the suite runs (children inherit the environment) goes
  // into a directory of the run's own, never into the user's cache.
  const cacheHome = mkdtempSync(join(tmpdir(), "mari-test-cache-"));
  process.env["XDG_CACHE_HOME"] = cacheHome;
  return () => rmSync(cacheHome, { recursive: true, force: true });
}
