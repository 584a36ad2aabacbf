#!/usr/bin/env node
// Thin launcher: the CLI lives in the compiled package (run `npm run build` first), and runs from
// its bundle (dist/bundle/, scripts/build.mjs), with V8's code cache of it when that holds for this
// process (load-cli.js). CommonJS, as load-cli.js is (bin/package.json; load-cli.js says why).
const { needsRelaunch, relaunch } = require("./address-space.js");
const { loadCli } = require("./load-cli.js");

/** The one report of an internal error (exit 3): the CLI's own failures, and a CLI that cannot load (a broken install). */
function internalError(err) {
  process.stderr.write(`mari: internal error: ${err && err.stack ? err.stack : String(err)}\n`);
  process.exitCode = 3;
}

/** Loads the CLI and runs the command line, its exit code the process's. */
function run() {
  loadCli().then(({ main }) => {
    // stdout that cannot be written (a full disk, /dev/full, a reader that went away) is an unwritable
    // output: one line on stderr and exit 2 (the exit codes in the README), never a stack trace or the gate-failed code.
    process.stdout.on("error", (err) => {
      process.stderr.write(`mari: stdout: cannot write (${(err && (err.code ?? err.message)) || String(err)})\n`);
      process.exit(2);
    });

    // stderr that cannot be written (2>/dev/full, a closed pipe) only loses the messages: the run goes
    // on and its exit code still says how it ended. Without a listener the stream's `error` event
    // would crash the process with the gate-failed code.
    process.stderr.on("error", () => {});

    main(process.argv).then((code) => {
      process.exitCode = code;
    }, internalError);
  }, internalError);
}

// Under an address-space limit the CLI runs in a node started again for it (address-space.js).
if (needsRelaunch()) relaunch();
else run();
