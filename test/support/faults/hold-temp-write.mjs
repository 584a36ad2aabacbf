// Injected into a child CLI (NODE_OPTIONS=--import) by the signal tests: the first write stream on
// a temp file (`*.tmp`) takes its first chunk and, once that is on disk, says so on stderr
// ("mari-fault: holding PATH"); then it never drains, so the run waits with its temp file on disk
// until the test signals it. The test reacts to the message instead of racing the writer. No test
// hook in src/.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const realCreateWriteStream = fs.createWriteStream;
let held = false;
fs.createWriteStream = function (path, ...rest) {
  const stream = realCreateWriteStream.call(this, path, ...rest);
  if (held || !String(path).endsWith(".tmp")) return stream;
  held = true;
  const realWrite = stream.write.bind(stream);
  const realEmit = stream.emit.bind(stream);
  let first = true;
  stream.emit = (event, ...args) => (event === "drain" ? false : realEmit(event, ...args));
  stream.write = (chunk) => {
    if (first) {
      first = false;
      setInterval(() => {}, 1 << 30); // the run awaits a drain that never comes: stay alive
      realWrite(chunk, () => process.stderr.write(`mari-fault: holding ${path}\n`));
    } else realWrite(chunk);
    return false;
  };
  return stream;
};
syncBuiltinESMExports();
