// Injected fault for the exit-code-3 tests, preloaded into a child CLI with
// NODE_OPTIONS=--import: loading the module of command <MARI_FAULT_COMMAND> fails, so main() itself
// rejects (outside any command's action) and bin/mari.js must report it. No test hook in src/.
import { register } from "node:module";

register("./unloadable-command-hooks.mjs", import.meta.url, { data: { command: process.env.MARI_FAULT_COMMAND ?? "merge" } });
