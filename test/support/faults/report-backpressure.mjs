// Injected into a child CLI (NODE_OPTIONS=--import) by the pipe test: the first time a write to
// stdout cannot go through at once (the pipe is full and nobody reads: the write is left pending,
// or refused outright when more than the stream's high-water mark waits), "mari-fault: stdout
// full" goes to stderr. Writes smaller than that mark are never refused, so pending bytes are
// looked at too. The test starts reading only then, so it knows the run had to wait for its
// reader. No test hook in src/.
const realWrite = process.stdout.write.bind(process.stdout);
let told = false;
process.stdout.write = (...args) => {
  const accepted = realWrite(...args);
  if ((!accepted || process.stdout.writableLength > 0) && !told) {
    told = true;
    process.stderr.write("mari-fault: stdout full\n");
  }
  return accepted;
};
