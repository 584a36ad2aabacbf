// `mari diff OLD NEW`: two finished reports (report.json or its directory, cases.jsonl beside it)
// compared without re-scoring; the deltas, changed cases and gates on stdout and in
// diff.json / diff.md / diff.html. Exit codes as eval: 0 ok, 1 a gate failed, 2 input error.
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { chalkFor } from "../colour.js";
import { EXIT_GATE_FAILED, EXIT_OK } from "../exit-codes.js";
import { parseGateFlag, parseMaxDropFlag } from "../../gates/spec.js";
import { diffReports } from "../../tasks/diff/run.js";
import { deltaRows, writeDiffFiles } from "../../tasks/diff/render.js";
import type { CaseChange } from "../../gates/changes.js";
import { addOptions, integerOption } from "../options/add-options.js";
import { OPTIONS } from "../../core/options/index.js";
import { inOneStep } from "../../io/observer.js";
import { terminalObserver } from "../observer.js";
import { progressModeFor } from "../progress.js";

interface DiffFlags {
  out?: string;
  gate: string[];
  maxDrop: string[];
  allowDifferentSlice?: boolean;
  seed?: string;
  explorerCases?: string;
  bootstrap?: string;
  quiet?: boolean;
  progress?: string;
}

/** Changed cases printed per status on stdout; the files have all of them. */
const LISTED = 10;

export function registerDiff(program: Command, wrap: ActionWrapper, summary: string): void {
  const command = program
    .command("diff")
    .description(summary)
    .argument("<old>", "the older report.json (or its directory)")
    .argument("<new>", "the newer report.json (or its directory)");
  addOptions(command, "diff")
    .addHelpText(
      "after",
      `
Compares two finished reports (each with its cases.jsonl beside it) without scoring anything
again: metric deltas with paired intervals, McNemar, the regressed and fixed cases. Writes
diff.json, diff.md and diff.html (OLD and NEW side by side for each changed case) into --out.

Examples:
  mari diff old new                                          # two --out directories of mari eval
  mari diff old/report.json new/report.json --max-drop macro_f1=0.02 --gate 'accuracy>=0.6' --out diff

Exit codes: 0 every gate passed (or none was set); 1 a gate failed; 2 usage or input error
(unreadable or mismatched reports, reports of different slices without --allow-different-slice);
3 internal error.`,
    )
    .action(wrap(async (oldPath: string, newPath: string, flags: DiffFlags) => diffCommand(oldPath, newPath, flags)));
}

function caseLines(title: string, list: readonly CaseChange[]): string[] {
  if (list.length === 0) return [];
  const lines = [`${title} (${list.length}):`];
  for (const c of list.slice(0, LISTED)) lines.push(`  ${c.case_id}: ${c.old} -> ${c.new}`);
  if (list.length > LISTED) lines.push(`  … ${list.length - LISTED} more in diff.md`);
  return lines;
}

async function diffCommand(oldPath: string, newPath: string, flags: DiffFlags): Promise<number> {
  const gates = [...flags.maxDrop.map((text) => parseMaxDropFlag(text)), ...flags.gate.map((text) => parseGateFlag(text))];
  const seed = integerOption("seed", flags.seed) ?? OPTIONS.seed.default;
  const bootstrap = integerOption("bootstrap", flags.bootstrap) ?? OPTIONS.bootstrap.default;
  const outDir = flags.out ?? OPTIONS.diffOut.default;
  const explorerCases = integerOption("explorerCases", flags.explorerCases);
  const observer = terminalObserver(progressModeFor(flags.progress, flags.quiet === true), flags.quiet === true);
  const outcome = await diffReports({
    oldPath,
    newPath,
    gates,
    seed,
    bootstrap,
    allowDifferentSlice: flags.allowDifferentSlice ?? false,
    ...(explorerCases !== undefined ? { explorerCases } : {}),
    observer,
  });
  const files = await inOneStep(observer, "report (steps)", () => writeDiffFiles(outDir, outcome));
  const { diff } = outcome;
  const failed = diff.gates.filter((g) => !g.passed);
  if (!flags.quiet) {
    const c = diff.comparison;
    const out: string[] = [
      `mari diff ${diff.new.task}: ${c.matched_cases} paired cases (units: OLD ${c.units.baseline}, NEW ${c.units.current})${diff.same_slice ? "" : `, different slices: ${diff.shared_cases} shared case ids`}`,
    ];
    const rows = deltaRows(diff);
    const width = Math.max(6, ...rows.map((r) => r[0]!.length));
    out.push(`  ${"metric".padEnd(width)}  ${"OLD".padStart(8)}  ${"NEW".padStart(8)}  ${"diff".padStart(8)}  95% CI`);
    for (const [name, before, after, delta, ci] of rows)
      out.push(`  ${name!.padEnd(width)}  ${before!.padStart(8)}  ${after!.padStart(8)}  ${delta!.padStart(8)}  ${ci}`);
    out.push(
      `  McNemar p = ${c.mcnemar.p_value.toPrecision(4)}; regressed ${diff.regressed.length}, fixed ${diff.fixed.length}${diff.mixed.length ? `, mixed ${diff.mixed.length}` : ""}`,
    );
    out.push(...caseLines("regressed", diff.regressed), ...caseLines("fixed", diff.fixed));
    for (const g of diff.gates) out.push(`${g.passed ? chalkFor().green("pass") : chalkFor().red("FAIL")} ${g.name}${g.detail ? `: ${g.detail}` : ""}`);
    out.push(`diff: ${files.join(", ")}`);
    process.stdout.write(`${out.join("\n")}\n`);
  }
  return failed.length > 0 ? EXIT_GATE_FAILED : EXIT_OK;
}
