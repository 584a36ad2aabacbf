// `mari trend REPORT_OR_DIR…`: a training run's checkpoint reports on one page; the best point of
// each metric and the checkpoint to keep on stdout and in trend.json / trend.md / trend.html.
// Exit codes as eval: 0 ok, 1 a gate failed, 2 input error.
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { chalkFor } from "../colour.js";
import { EXIT_GATE_FAILED, EXIT_OK } from "../exit-codes.js";
import { parseGateFlag, parseMaxDropFlag } from "../../gates/spec.js";
import { InputError } from "../../io/errors.js";
import { MAX_BOOTSTRAP, MAX_SEED } from "../../core/limits.js";
import { formatNumber } from "../../report/format.js";
import { parseReportFormats } from "../../report/write.js";
import type { TrendAxis } from "../../tasks/trend/inputs.js";
import { checkpointSpan, keepSentence, writeTrendFiles } from "../../tasks/trend/render.js";
import { trendReports } from "../../tasks/trend/run.js";
import { collect, integerFlag } from "../flags.js";
import { inOneStep } from "../../io/observer.js";
import { terminalObserver } from "../observer.js";
import { progressModeFor } from "../progress.js";

interface TrendFlags {
  out?: string;
  metric: string[];
  keepBy?: string;
  x?: string;
  gate: string[];
  maxDropFromBest: string[];
  report?: string;
  allowDifferentSlice?: boolean;
  pairedScan?: boolean;
  seed?: string;
  bootstrap?: string;
  quiet?: boolean;
  progress?: string;
}

const AXES: readonly TrendAxis[] = ["step", "name", "time"];

export function registerTrend(program: Command, wrap: ActionWrapper, summary: string): void {
  program
    .command("trend")
    .description(summary)
    .argument("<reports...>", "report.json files, their directories, a directory of them, or a quoted glob such as 'reports/ckpt-*'")
    .option("--out <dir>", "where trend.json, trend.md and trend.html go (default ./mari-trend)")
    .option(
      "--metric <name>",
      "a metric to draw (repeatable; default: accuracy, macro-F1, localization, format-valid rate, SetCons, reward means)",
      collect,
      [],
    )
    .option("--keep-by <metric>", "the metric the checkpoint to keep is chosen by (default macro_f1; accepted_rate for evidence)")
    .option(
      "--x <axis>",
      "order of the points: step (the number in ckpt-400, global_step_400, step400), name or time (default: step when every name has one, else name)",
    )
    .option("--gate <condition>", "gate on the last checkpoint, e.g. --gate 'accuracy>=0.6' (repeatable)", collect, [])
    .option(
      "--max-drop-from-best <metric=delta>",
      "largest allowed paired drop of the last checkpoint from the best, e.g. macro_f1=0.02 (repeatable)",
      collect,
      [],
    )
    .option("--report <formats>", "json,md,html (default) and junit")
    .option(
      "--paired-scan",
      "pair every earlier checkpoint with the best when choosing the one to keep, not only those inside the best's interval (slow on long runs)",
    )
    .option("--allow-different-slice", "draw reports of different slices; checkpoints are then compared on the case ids they share")
    .option("--seed <s>", "bootstrap seed (default 0)")
    .option("--bootstrap <b>", "bootstrap resamples of the paired comparisons (default 1000)")
    .option("--progress <mode>", "auto|bar|plain|none (stderr)")
    .option("--quiet", "no summary on stdout, and no progress display unless --progress asks for one")
    .addHelpText(
      "after",
      `
Examples:
  mari trend reports/ckpt-*                       # every checkpoint report of a run
  mari trend reports/ --max-drop-from-best macro_f1=0.02 --gate 'accuracy>=0.6'`,
    )
    .action(wrap(async (inputs: string[], flags: TrendFlags) => trendCommand(inputs, flags)));
}

function maxDropFromBest(text: string) {
  try {
    return parseMaxDropFlag(text);
  } catch (err) {
    if (err instanceof InputError) throw new InputError(err.message.replace("--max-drop", "--max-drop-from-best"));
    throw err;
  }
}

async function trendCommand(inputs: string[], flags: TrendFlags): Promise<number> {
  if (flags.x !== undefined && !(AXES as readonly string[]).includes(flags.x)) throw new InputError(`--x ${flags.x}: choose step, name or time`);
  const gates = [...flags.gate.map((text) => parseGateFlag(text)), ...flags.maxDropFromBest.map(maxDropFromBest)];
  const formats = flags.report === undefined ? (["json", "md", "html"] as const) : parseReportFormats(flags.report);
  const observer = terminalObserver(progressModeFor(flags.progress, flags.quiet === true), flags.quiet === true);
  const outcome = await trendReports({
    inputs,
    metrics: flags.metric,
    gates,
    seed: integerFlag("--seed", flags.seed, 0, MAX_SEED) ?? 0,
    resamples: integerFlag("--bootstrap", flags.bootstrap, 0, MAX_BOOTSTRAP) ?? 1000,
    allowDifferentSlice: flags.allowDifferentSlice ?? false,
    pairedScan: flags.pairedScan ?? false,
    ...(flags.keepBy !== undefined ? { keepBy: flags.keepBy } : {}),
    ...(flags.x !== undefined ? { x: flags.x as TrendAxis } : {}),
    observer,
  });
  const files = await inOneStep(observer, "report (steps)", () => writeTrendFiles(flags.out ?? "mari-trend", outcome, formats));
  const { trend } = outcome;
  if (!flags.quiet) {
    const out = [`mari trend ${trend.task}: ${checkpointSpan(trend)}, by ${trend.x}`];
    const width = Math.max(6, ...trend.series.map((s) => s.metric.length));
    out.push(`  ${"metric".padEnd(width)}  ${"last".padStart(8)}  ${"best".padStart(8)}  at`);
    for (const s of trend.series) {
      const last = trend.points.at(-1)!.values[s.metric];
      out.push(`  ${s.metric.padEnd(width)}  ${formatNumber(last).padStart(8)}  ${formatNumber(s.best?.value).padStart(8)}  ${s.best?.name ?? "n/a"}`);
    }
    out.push(keepSentence(trend));
    for (const w of trend.warnings) out.push(`warning: ${w}`);
    for (const g of trend.gates) out.push(`${g.passed ? chalkFor().green("pass") : chalkFor().red("FAIL")} ${g.name}${g.detail ? `: ${g.detail}` : ""}`);
    out.push(`trend: ${files.join(", ")}`);
    process.stdout.write(`${out.join("\n")}\n`);
  }
  return trend.gates.some((g) => !g.passed) ? EXIT_GATE_FAILED : EXIT_OK;
}
