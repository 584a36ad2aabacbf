// The suite's Python: the virtualenv scripts/python-env.sh creates (.ci/run runs it first) with the
// real tools and oracles pinned in test/python/requirements*.txt. Tests that drive a real tool
// take it from here. Without it they are skipped on a developer's machine and fail under CI, so that a missing
// install step can never turn into a green run that tested nothing.
import { existsSync } from "node:fs";
import { join } from "node:path";

export const VENV_DIR = join(import.meta.dirname, "..", "..", ".venv");
export const VENV_PYTHON = join(VENV_DIR, "bin", "python");

export function hasVenv(): boolean {
  return existsSync(VENV_PYTHON);
}

/** true when the real-tool tests must run: the virtualenv exists, or CI demands it (and then a
 * missing one fails the test that needs it, naming the script that makes it). */
export function realToolsRequired(): boolean {
  return hasVenv() || process.env.CI === "true";
}

export function venvPython(): string {
  if (!hasVenv()) {
    throw new Error(`${VENV_PYTHON} is missing: run scripts/python-env.sh (as .ci/run does)`);
  }
  return VENV_PYTHON;
}
