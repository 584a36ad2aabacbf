// Injected into a child CLI (NODE_OPTIONS=--import) by the dump-change test: when a read stream of
// the file named by MARI_FAULT_GROW first reaches its end, one more line (MARI_FAULT_LINE) is
// appended to the file, as a judge still writing the dump would: the change falls between the
// run's read of the dump and its final look at it, whatever the machine's speed. No test hook in
// src/.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { resolve } from "node:path";

const target = resolve(process.env.MARI_FAULT_GROW ?? "");
const line = process.env.MARI_FAULT_LINE ?? "{}";
let grown = false;
const realCreateReadStream = fs.createReadStream;
fs.createReadStream = function (path, ...rest) {
  const stream = realCreateReadStream.call(this, path, ...rest);
  if (typeof path === "string" && resolve(path) === target) {
    stream.once("end", () => {
      if (grown) return;
      grown = true;
      fs.appendFileSync(target, `${line}\n`);
    });
  }
  return stream;
};
syncBuiltinESMExports();
