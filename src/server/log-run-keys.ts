// Run keys for the `--log` lines, so that `mari eval` on the log counts no duplicates while keeping
// repeated samples apart. A trainer sends the same case many times: several samples of one prompt
// (a GRPO group) and the same prompt again in later steps or epochs. The k-th time (counted from 0) a
// case comes without a sample number, its run is "k"; the k-th time it comes with sample s (an item's
// `sample`, else its `generation`), its run is "s" the first time and "s~k" after. One pass over
// the slice with G samples per prompt thus replays as G complete runs. An item's own `run` is logged as given, and a key it took is not handed out
// again. docs/serve.md states the rule. These keys follow the order items reached this server; `mari
// eval` replays a log whose items carry their generation identity from the identity instead
// (src/tasks/document/serve-replay.ts), which holds across resumes and several servers.

export class LogRunKeys {
  private readonly seen = new Map<string, number>();
  /** `run\0case` keys that items gave themselves. */
  private readonly given = new Set<string>();

  /** Marks a (case, run) already in the log as taken (a restarted server appending to it). */
  take(caseId: string, run: string): void {
    this.given.add(`${run}\u0000${caseId}`);
  }

  /** The run key of one logged item: its own `run` when it gives one, else the next free key of (case, sample). */
  next(caseId: string, run: string | null, sample: string | null): string {
    if (run !== null) {
      this.given.add(`${run}\u0000${caseId}`);
      return run;
    }
    const counter = `${sample ?? ""}\u0000${caseId}`;
    let k = this.seen.get(counter) ?? 0;
    let key: string;
    do {
      key = sample === null ? String(k) : k === 0 ? sample : `${sample}~${k}`;
      k++;
    } while (this.given.has(`${key}\u0000${caseId}`));
    this.seen.set(counter, k);
    return key;
  }
}
