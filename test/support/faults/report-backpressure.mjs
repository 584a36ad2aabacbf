// Injected into a child CLI (NODE_OPTIONS=--import) by the pipe test: the first time a write to
// stdout is refused for now (process.stdout.write returns false: the pipe is full and nobody
// reads), "mari-fault: stdout full" goes to stderr. The test starts reading only then, so it knows
// the run had to wait for its reader. No test hook in src/.
const realWrite = process.stdout.write.bind(process.stdout);
let told = false;
process.stdout.write = (...args) => {
  const accepted = realWrite(...args);
  if (!accepted && !told) {
    told = true;
    process.stderr.write("mari-fault: stdout full\n");
  }
  return accepted;
};
