// The floor of a server's start-up, for bench/startup.mjs: Node with node:http listening on
// 127.0.0.1 (a free port), its start line on stderr in the form `mari serve` writes, and a /health
// answer carrying the process's CPU seconds as mari's does. Nothing else is loaded or read.
import { createServer } from "node:http";

const server = createServer((_request, response) => {
  const cpu = process.cpuUsage();
  response.setHeader("content-type", "application/json");
  response.end(JSON.stringify({ process: { cpu_seconds: (cpu.user + cpu.system) / 1e6 } }));
});
server.listen(0, "127.0.0.1", () => {
  process.stderr.write(`http floor: listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
