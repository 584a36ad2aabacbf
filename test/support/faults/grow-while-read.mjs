// Injected into a child CLI (NODE_OPTIONS=--import) by the dump-change test: when a read of the
// file named by MARI_FAULT_GROW first reaches its end (a read stream's end, or a synchronous read
// that returns no bytes), one more line (MARI_FAULT_LINE) is appended to the file, as a judge still
// writing the dump would: the change falls between the run's read of the dump and its final look
// at it, whatever the machine's speed. No test hook in src/.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { resolve } from "node:path";

const target = resolve(process.env.MARI_FAULT_GROW ?? "");
const line = process.env.MARI_FAULT_LINE ?? "{}";
let grown = false;
const grow = () => {
  if (grown) return;
  grown = true;
  fs.appendFileSync(target, `${line}\n`);
};
const isTarget = (path) => typeof path === "string" && resolve(path) === target;

const realCreateReadStream = fs.createReadStream;
fs.createReadStream = function (path, ...rest) {
  const stream = realCreateReadStream.call(this, path, ...rest);
  if (isTarget(path)) stream.once("end", grow);
  return stream;
};

// The file descriptors open on the target, for the synchronous reads.
const targetFds = new Set();
const realOpenSync = fs.openSync;
fs.openSync = function (path, ...rest) {
  const fd = realOpenSync.call(this, path, ...rest);
  if (isTarget(path)) targetFds.add(fd);
  return fd;
};
const realCloseSync = fs.closeSync;
fs.closeSync = function (fd, ...rest) {
  targetFds.delete(fd);
  return realCloseSync.call(this, fd, ...rest);
};
const realReadSync = fs.readSync;
fs.readSync = function (fd, ...rest) {
  const read = realReadSync.call(this, fd, ...rest);
  if (read === 0 && targetFds.has(fd)) grow();
  return read;
};
syncBuiltinESMExports();
