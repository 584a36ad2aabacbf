// Preloaded into a measured Node child (`node --import ./bench/lib/main-thread-cpu.mjs …`): on exit,
// prints the CPU seconds of the process's main thread alone, read from /proc (Linux). The rest of a
// process's CPU is its other threads': V8's optimizing compiler and garbage collector helpers, the
// libuv pool (file reads, hashing) and any worker threads. Prints nothing where /proc is missing.
import { readFileSync } from "node:fs";

// The unit of /proc times: 100 per second on Linux for every architecture Node supports.
const USER_HZ = 100;

process.on("exit", () => {
  let stat;
  try {
    stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "latin1");
  } catch {
    return;
  }
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const seconds = (Number(fields[11]) + Number(fields[12])) / USER_HZ;
  process.stderr.write(`Main thread CPU (seconds): ${seconds.toFixed(2)}\n`);
});
