// Under an address-space limit (`ulimit -v`), V8 cannot reserve the guard regions it places around
// every WebAssembly memory so that its compiled code needs no bounds checks (about 10 GB of address
// space each), and mari's first WebAssembly module fails to instantiate: every eval ended in exit 3.
// Node can start without its WebAssembly trap handler instead, and V8 then checks each access
// inline and needs no guard regions; that is a flag of the node process itself,
// so the launcher starts one more node with it and passes everything through. CommonJS, as the
// launcher is (bin/package.json).
const { spawn } = require("node:child_process");
const { readFileSync } = require("node:fs");
const { constants } = require("node:os");

const NO_TRAP_HANDLER = "--disable-wasm-trap-handler";

/** Whether this process runs under a finite address-space limit (Linux's /proc/self/limits; elsewhere, never). */
function addressSpaceLimited() {
  let limits;
  try {
    limits = readFileSync("/proc/self/limits", "utf8");
  } catch {
    return false;
  }
  const soft = /^Max address space\s+(\S+)/m.exec(limits)?.[1];
  return soft !== undefined && soft !== "unlimited";
}

/** Whether this node must be started again without its trap handler: a limit, and the flag not given yet. */
function needsRelaunch() {
  if (process.execArgv.includes(NO_TRAP_HANDLER) || (process.env.NODE_OPTIONS ?? "").includes(NO_TRAP_HANDLER)) return false;
  return addressSpaceLimited();
}

/**
 * Runs this command again in a node without the trap handler, with this process's stdio, and ends
 * this process as that one ends: its exit code, or its signal raised here again. The signals a
 * caller sends this process (Ctrl-C reaches both through the terminal; a second is ignored by the
 * CLI while it cleans up) are passed on, so the child stops as it would have.
 */
function relaunch() {
  const child = spawn(process.execPath, [NO_TRAP_HANDLER, ...process.execArgv, ...process.argv.slice(1)], { stdio: "inherit" });
  const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
  const forward = (signal) => child.kill(signal);
  for (const signal of forwarded) process.on(signal, forward);
  child.on("error", (err) => {
    process.stderr.write(`mari: cannot start node again without its WebAssembly trap handler: ${err.message}\n`);
    process.exit(3);
  });
  child.on("exit", (code, signal) => {
    for (const s of forwarded) process.off(s, forward);
    if (signal === null) process.exit(code ?? 3);
    // The same death here; for a signal whose default Node overrides (SIGPIPE), the shell's code.
    process.kill(process.pid, signal);
    setImmediate(() => process.exit(128 + (constants.signals[signal] ?? 0)));
  });
}

module.exports = { needsRelaunch, relaunch };
