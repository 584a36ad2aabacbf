// Ctrl-C (SIGINT) during a long command: run a cleanup (drop temp files, say how to resume), then
// exit 130 (128 + SIGINT, the shell convention). Returns a function that removes the handler.
export const EXIT_INTERRUPTED = 130;

export function onInterrupt(cleanup: () => Promise<void>): () => void {
  let running = false;
  const handler = () => {
    if (running) return; // a second Ctrl-C while cleaning up: let the first finish
    running = true;
    cleanup().finally(() => process.exit(EXIT_INTERRUPTED));
  };
  process.on("SIGINT", handler);
  return () => process.off("SIGINT", handler);
}
