// Injected into a child CLI (NODE_OPTIONS=--import) by the signal tests: the first file opened for
// writing under a temp name (`*.tmp`) takes its first write and, once that is on disk, says so on
// stderr ("mari-fault: holding PATH"); that write then never completes, so the run waits with its
// temp file on disk until the test signals it. The test reacts to the message instead of racing
// the writer. No test hook in src/.
import fsPromises from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";

const realOpen = fsPromises.open;
let held = false;
fsPromises.open = async function (path, ...rest) {
  const file = await realOpen.call(this, path, ...rest);
  if (held || !String(path).endsWith(".tmp")) return file;
  held = true;
  const realWrite = file.write.bind(file);
  file.write = async (...args) => {
    await realWrite(...args);
    process.stderr.write(`mari-fault: holding ${path}\n`);
    setInterval(() => {}, 1 << 30); // the run awaits a write that never ends: stay alive
    return new Promise(() => {});
  };
  return file;
};
syncBuiltinESMExports();
