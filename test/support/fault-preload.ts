// NODE_OPTIONS that preload one of the fault modules of test/support/faults/ into a child CLI.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./cli.js";

export function preloadFault(name: string): string {
  return `--import ${pathToFileURL(join(ROOT, "test/support/faults", name)).href}`;
}
