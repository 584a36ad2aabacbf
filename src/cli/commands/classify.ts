// `mari classify PAIRS [--classifier key=value ...]`: one JSON line `{id, class, reason}` per pair on
// stdout, streamed in input order; rejected records are reported on stderr with their location.
import { setFlagsFromString } from "node:v8";
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { addOptions } from "../options/add-options.js";
import { InputError } from "../../io/errors.js";
import { EXIT_INPUT_ERROR, EXIT_OK } from "../exit-codes.js";
import { listRejections } from "../../report/format.js";
import { ClassifierConfigError, parseConfigAssignments, type ClassifierConfig } from "../../core/classifier/index.js";
import { classifyPairs, type ClassifyOutcome } from "../../tasks/pairs/classify.js";
import { terminalObserver } from "../observer.js";
import { progressModeFor } from "../progress.js";

interface ClassifyOptions {
  classifier?: string[];
  /** Deprecated spelling of `classifier`. */
  config?: string[];
  strict?: boolean;
  quiet?: boolean;
  progress?: string;
}

function configFrom(assignments: string[]): ClassifierConfig {
  try {
    return parseConfigAssignments(assignments.flatMap((a) => a.split(",")).filter((a) => a.trim() !== ""));
  } catch (err) {
    if (err instanceof ClassifierConfigError) throw new InputError(err.message);
    throw err;
  }
}

async function runClassify(pairsPath: string, options: ClassifyOptions): Promise<number> {
  if (options.config !== undefined && options.config.length > 0) {
    process.stderr.write("mari classify: --config key=value is deprecated, use --classifier key=value (--config names a config file in every other command)\n");
  }
  const config = configFrom([...(options.classifier ?? []), ...(options.config ?? [])]);
  // The optimizing compiler inlines up to 920 bytes of bytecode into a hot function by default; the
  // classifier's hot loop, compiled with all of it, takes about 2 MB more peak RSS (the compiler's
  // working memory) for no measurable speed: 300 keeps the gain of inlining the small helpers.
  setFlagsFromString("--max-inlined-bytecode-size-cumulative=300");
  const quiet = options.quiet === true;
  const observer = terminalObserver(progressModeFor(options.progress, quiet), quiet);
  const outcome = await classifyPairs({ pairs: pairsPath, output: process.stdout, config, observer });
  return finish(outcome, options);
}

/** The closing summary on stderr, and the exit code. */
function finish(outcome: ClassifyOutcome, options: ClassifyOptions): number {
  const { classified, rejected, rejectedTotal, examples } = outcome;
  for (const line of listRejections(examples, rejectedTotal, "the counts below")) process.stderr.write(`${line}\n`);
  const byReason = [...rejected.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, n]) => `${code}: ${n}`)
    .join(", ");
  if (!options.quiet) {
    process.stderr.write(
      `mari classify: ${classified} pair${classified === 1 ? "" : "s"} classified, ` +
        `${rejectedTotal} record${rejectedTotal === 1 ? "" : "s"} rejected${rejectedTotal > 0 ? ` (${byReason})` : ""}\n`,
    );
  }
  if (classified === 0 && !outcome.outputClosed) {
    process.stderr.write(`mari classify: no pairs classified in ${outcome.source}\n`);
    return EXIT_INPUT_ERROR;
  }
  if (options.strict && rejectedTotal > 0) return EXIT_INPUT_ERROR;
  return EXIT_OK;
}

export function registerClassify(program: Command, wrap: ActionWrapper, summary: string): void {
  const command = program
    .command("classify")
    .description(summary)
    .argument("<pairs>", "pairs file: JSONL or CSV with id, new, old (other fields are ignored); - reads stdin");
  addOptions(command, "classify")
    .addHelpText(
      "after",
      '\nOutput lines: {"id": ..., "class": "distinct|restatement|update", "reason": ...}, in input order.\n' +
        "\nExamples:\n  mari classify datasets/memory-pairs/mari-pairs.jsonl --classifier overlapFloor=0.4 > verdicts.jsonl\n" +
        "  cat pairs.csv | mari classify - > verdicts.jsonl\n" +
        "\nExit codes: 0 every usable pair classified; 2 usage or input error (unreadable input, a bad\n" +
        "--classifier value, --strict with rejected records, stdout closed); 3 internal error.",
    )
    .action(wrap(async (pairs: string, options: ClassifyOptions) => runClassify(pairs, options)));
}
