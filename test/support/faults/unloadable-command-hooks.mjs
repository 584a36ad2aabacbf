// Module resolution hooks of unloadable-command.mjs (they run on the loader thread). The command's
// module is dist/cli/commands/NAME.js, or in the CLI's bundle (dist/bundle/, scripts/build.mjs) the
// chunk that defines its registerNAME function.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

let target = "";
let definition = "";

export function initialize(data) {
  target = `/dist/cli/commands/${data.command}.js`;
  definition = `function register${data.command[0].toUpperCase()}${data.command.slice(1)}(`;
}

function isCommandModule(url) {
  if (url.endsWith(target)) return true;
  return /\/dist\/bundle\/[^/]+\.js$/.test(url) && readFileSync(fileURLToPath(url), "utf8").includes(definition);
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (isCommandModule(resolved.url)) throw new Error(`injected fault: cannot load ${resolved.url}`);
  return resolved;
}
