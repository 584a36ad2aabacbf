// `mari trend REPORT_OR_DIR…`: a training run's checkpoint reports on one page; the best point of
// each metric and the checkpoint to keep on stdout and in trend.json / trend.md / trend.html.
// Exit codes as eval: 0 ok, 1 a gate failed, 2 input error.
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { chalkFor } from "../colour.js";
import { EXIT_GATE_FAILED, EXIT_OK } from "../exit-codes.js";
import { parseGateFlag, parseMaxDropFlag } from "../../gates/spec.js";
import { InputError } from "../../io/errors.js";
import { formatNumber } from "../../report/format.js";
import { parseReportFormats } from "../../report/write.js";
import type { TrendAxis } from "../../tasks/trend/inputs.js";
import { checkpointSpan, keepSentence, writeTrendFiles } from "../../tasks/trend/render.js";
import { trendReports } from "../../tasks/trend/run.js";
import { addOptions, integerOption } from "../options/add-options.js";
import { OPTIONS } from "../../core/options/index.js";
import { TREND_AXES } from "../../core/options/comparison.js";
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

export function registerTrend(program: Command, wrap: ActionWrapper, summary: string): void {
  const command = program
    .command("trend")
    .description(summary)
    .argument("<reports...>", "report.json files, their directories, a directory of them, or a quoted glob such as 'reports/ckpt-*'");
  addOptions(command, "trend")
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
  if (flags.x !== undefined && !(TREND_AXES as readonly string[]).includes(flags.x)) throw new InputError(`--x ${flags.x}: choose step, name or time`);
  const gates = [...flags.gate.map((text) => parseGateFlag(text)), ...flags.maxDropFromBest.map(maxDropFromBest)];
  const formats = flags.report === undefined ? (["json", "md", "html"] as const) : parseReportFormats(flags.report);
  const observer = terminalObserver(progressModeFor(flags.progress, flags.quiet === true), flags.quiet === true);
  const outcome = await trendReports({
    inputs,
    metrics: flags.metric,
    gates,
    seed: integerOption("seed", flags.seed) ?? OPTIONS.seed.default,
    bootstrap: integerOption("bootstrap", flags.bootstrap) ?? OPTIONS.bootstrap.default,
    allowDifferentSlice: flags.allowDifferentSlice ?? false,
    pairedScan: flags.pairedScan ?? false,
    ...(flags.keepBy !== undefined ? { keepBy: flags.keepBy } : {}),
    ...(flags.x !== undefined ? { x: flags.x as TrendAxis } : {}),
    observer,
  });
  const files = await inOneStep(observer, "report (steps)", () => writeTrendFiles(flags.out ?? OPTIONS.trendOut.default, outcome, formats));
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
