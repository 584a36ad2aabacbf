// Injected into a child `mari serve` (NODE_OPTIONS=--import) by the log agreement test: the disk
// fills in the middle of a write to the file named by MARI_FAULT_FULL_LOG. The write call number
// MARI_FAULT_FULL_AT_WRITE (1 = the first) to that file writes the first half of its bytes and says
// so, as write(2) does when the disk fills; every later write to it fails with ENOSPC. No test hook
// in src/.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { resolve } from "node:path";

const target = resolve(process.env.MARI_FAULT_FULL_LOG ?? "");
const fullAt = Number(process.env.MARI_FAULT_FULL_AT_WRITE ?? 1);
const fds = new Set();
let writes = 0;

function enospc() {
  return Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28, syscall: "write" });
}

const realOpen = fs.open;
fs.open = function (path, ...rest) {
  const callback = rest.pop();
  return realOpen.call(this, path, ...rest, (err, fd) => {
    if (!err && typeof path === "string" && resolve(path) === target) fds.add(fd);
    callback(err, fd);
  });
};

const realWrite = fs.write;
fs.write = function (fd, buffer, ...rest) {
  if (!fds.has(fd)) return realWrite.call(this, fd, buffer, ...rest);
  const callback = rest.pop();
  writes++;
  if (writes > fullAt) {
    process.nextTick(() => callback(enospc()));
    return;
  }
  if (writes < fullAt) return realWrite.call(this, fd, buffer, ...rest, callback);
  // This write fills the disk: half of it gets there.
  const bytes = typeof buffer === "string" ? Buffer.from(buffer, typeof rest[1] === "string" ? rest[1] : "utf8") : buffer;
  const offset = typeof buffer === "string" ? 0 : (rest[0] ?? 0);
  const length = typeof buffer === "string" ? bytes.length : (rest[1] ?? bytes.length - offset);
  const half = Math.max(1, Math.floor(length / 2));
  realWrite.call(this, fd, bytes, offset, half, null, (err, written) => callback(err, written, buffer));
};

const realWritev = fs.writev;
fs.writev = function (fd, buffers, ...rest) {
  if (!fds.has(fd)) return realWritev.call(this, fd, buffers, ...rest);
  const callback = rest.pop();
  writes++;
  if (writes >= fullAt) {
    process.nextTick(() => callback(enospc()));
    return;
  }
  return realWritev.call(this, fd, buffers, ...rest, callback);
};
syncBuiltinESMExports();
