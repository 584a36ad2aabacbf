// `mari sweep PAIRS [--grid default|full|FILE] [--costs FILE] [--out DIR] [--workers N]` (docs/pairs.md, "mari sweep PAIRS").
// Flags win over mari.config.json (grid, costs, out, workers, gate, progress, quiet), which wins
// over defaults.
import { lockOutputDir } from "../../io/lock.js";
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { addOptions, integerOption } from "../options/add-options.js";
import { OPTIONS } from "../../core/options/index.js";
import { progressModeFor } from "../progress.js";
import { loadMariConfig, pickOption } from "../../gates/run-config.js";
import { combineGates, parseGateFlag } from "../../gates/spec.js";
import { defaultWorkerCount, runSweep, type SweepOutcome } from "../../tasks/pairs/sweep.js";
import { EXIT_GATE_FAILED, EXIT_OK } from "../exit-codes.js";
import { terminalObserver } from "../observer.js";

interface SweepFlags {
  grid?: string;
  costs?: string;
  out?: string;
  workers?: string;
  gate: string[];
  quiet?: boolean;
  progress?: string;
  config?: string;
}

export function registerSweep(program: Command, wrap: ActionWrapper, summary: string): void {
  const command = program.command("sweep").description(summary).argument("<pairs>", "labelled pairs (JSONL or CSV: id, new, old, gold, kind)");
  addOptions(command, "sweep")
    .addHelpText(
      "after",
      `
Writes sweep.json, sweep.csv, report.md, report.html and pareto.svg into --out; they are identical for any
--workers.

Examples:
  mari sweep datasets/memory-pairs/mari-pairs.jsonl --out sweep-out
  mari sweep datasets/memory-pairs/mari-pairs.jsonl --grid full --costs costs.json --workers 2 --out sweep-out

Exit codes: 0 some config passes every gate; 1 none does; 2 usage or input error (unreadable
corpus, bad grid or costs); 3 internal error.`,
    )
    .action(
      wrap(async (pairs: string, flags: SweepFlags) => {
        const config = await loadMariConfig(flags.config, undefined, "pairs");
        const quiet = pickOption(flags.quiet, config.quiet, false);
        const out = pickOption(flags.out, config.out, OPTIONS.sweepOut.default);
        lockOutputDir(out);
        const outcome = await runSweep({
          pairs,
          grid: flags.grid ?? config.grid,
          costs: flags.costs ?? config.costs,
          out,
          workers: pickOption(integerOption("workers", flags.workers), config.workers, defaultWorkerCount()),
          // Only bound gates apply to a sweep row (no baseline, no invalid-prediction count).
          gates: combineGates(
            flags.gate.map((g) => parseGateFlag(g)),
            config.gates.filter((g) => g.kind === "min" || g.kind === "max"),
          ),
          observer: terminalObserver(progressModeFor(flags.progress ?? config.progress, quiet), quiet),
        });
        printSweepSummary(outcome, quiet);
        return outcome.result.best === null ? EXIT_GATE_FAILED : EXIT_OK;
      }),
    );
}

/** How the sweep ran (stderr), then the headline choices and the files written (stdout); nothing with --quiet. */
function printSweepSummary({ result, files, seconds, threads }: SweepOutcome, quiet: boolean): void {
  const { rows, best } = result;
  const labelled = result.pairs.labelled;
  // A note, silenced by --quiet like every command's notes.
  if (quiet) return;
  process.stderr.write(
    `mari: swept ${rows.length} configs over ${labelled} labelled pairs in ${seconds.toFixed(2)} s (${threads <= 1 ? "in-process" : `${threads} worker threads`})\n`,
  );
  const passing = rows.filter((r) => r.passed).length;
  const lines = [
    `configs: ${rows.length} (${passing} pass all gates), labelled pairs: ${labelled}`,
    best === null ? "best: none (no config passes every gate)" : `best: ${rows[best]!.label} (revision_cost ${rows[best]!.metrics.revision_cost!.toFixed(4)})`,
    `pareto front: ${result.pareto_front.length} config(s)`,
    ...files.map((p) => `wrote ${p}`),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}
