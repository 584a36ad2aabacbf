// `mari classify PAIRS [--classifier key=value ...]`: one JSON line `{id, class, reason}` per pair on
// stdout, streamed in input order; rejected records are reported on stderr with their location.
import { assertRegularFile } from "../../io/input-file.js";
import { stat } from "node:fs/promises";
import { Option, type Command } from "commander";
import type { ActionWrapper } from "../main.js";
import { COMMANDS } from "../command-list.js";
import { InputError } from "../../io/errors.js";
import { EXIT_INPUT_ERROR, EXIT_OK } from "../exit-codes.js";
import { readRecords } from "../../io/records.js";
import { inputSource, sourceName } from "../../io/lines.js";
import { parsePairRecord } from "../../core/pairs/input.js";
import { CompactStringSet } from "../../io/string-set.js";
import { assertPairCorpus } from "../../tasks/pairs/input.js";
import { LISTED_REJECTIONS, listRejections } from "../../report/format.js";
import { ClassifierConfigError, classify, parseConfigAssignments, type ClassifierConfig } from "../../core/classifier/index.js";

interface ClassifyOptions {
  classifier?: string[];
  /** Deprecated spelling of `classifier`. */
  config?: string[];
  strict?: boolean;
}

/** Output is gathered into chunks of about this many characters before each write to stdout. */
const CHUNK_CHARS = 1 << 16;

/**
 * Batched stdout writes with back-pressure (one write per line costs more than classifying it).
 * A closed pipe (`mari classify … | head`) ends the output quietly.
 */
class StdoutLines {
  private buffer = "";
  private closed = false;

  constructor() {
    process.stdout.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EPIPE") this.closed = true;
      else throw err;
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async push(line: string): Promise<void> {
    this.buffer += line;
    if (this.buffer.length >= CHUNK_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffer === "" || this.closed) return;
    const chunk = this.buffer;
    this.buffer = "";
    if (!process.stdout.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          process.stdout.off("drain", done);
          process.stdout.off("close", done);
          resolve();
        };
        process.stdout.once("drain", done);
        process.stdout.once("close", done);
      });
    }
  }
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
  if (options.config !== undefined) {
    process.stderr.write("mari classify: --config key=value is deprecated, use --classifier key=value (--config names a config file in every other command)\n");
  }
  const config = configFrom([...(options.classifier ?? []), ...(options.config ?? [])]);
  const source = inputSource(pairsPath);
  if (typeof source === "string") {
    await assertRegularFile(source);
    try {
      const info = await stat(source);
      if (!info.isFile()) throw new InputError(`${source}: not a file`);
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new InputError(`${source}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }

  const out = new StdoutLines();
  const rejected = new Map<string, number>();
  const seenIds = new CompactStringSet();
  let classified = 0;
  // Rejections are listed by the one rule (report/format.ts listRejections) after the verdicts.
  const examples: { where: string; reason: string; message: string }[] = [];
  const reject = (where: string, code: string, message: string): void => {
    if (examples.length < LISTED_REJECTIONS) examples.push({ where, reason: code, message });
    rejected.set(code, (rejected.get(code) ?? 0) + 1);
  };

  let first = true;
  for await (const item of readRecords(source)) {
    if (item.error !== undefined) {
      reject(item.where, item.error.code, item.error.message);
      continue;
    }
    if (first) {
      first = false;
      assertPairCorpus(pairsPath, item.record, item.where);
    }
    const parsed = parsePairRecord(item.record);
    if ("error" in parsed) {
      reject(item.where, parsed.error.code, parsed.error.message);
      continue;
    }
    const { id, newText, oldText } = parsed.pair;
    if (!seenIds.add(id)) {
      reject(item.where, "duplicate_id", `duplicate id ${JSON.stringify(id)}`);
      continue;
    }
    const verdict = classify(newText, oldText, config);
    await out.push(`${JSON.stringify({ id, class: verdict.class, reason: verdict.reason })}\n`);
    classified++;
    if (out.isClosed) break;
  }
  await out.flush();

  const rejectedTotal = [...rejected.values()].reduce((a, b) => a + b, 0);
  for (const line of listRejections(examples, rejectedTotal, "the counts below")) process.stderr.write(`${line}\n`);
  const byReason = [...rejected.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, n]) => `${code}: ${n}`)
    .join(", ");
  process.stderr.write(
    `mari classify: ${classified} pair${classified === 1 ? "" : "s"} classified, ` +
      `${rejectedTotal} record${rejectedTotal === 1 ? "" : "s"} rejected${rejectedTotal > 0 ? ` (${byReason})` : ""}\n`,
  );
  if (classified === 0 && !out.isClosed) {
    process.stderr.write(`mari classify: no pairs classified in ${sourceName(source)}\n`);
    return EXIT_INPUT_ERROR;
  }
  if (options.strict && rejectedTotal > 0) return EXIT_INPUT_ERROR;
  return EXIT_OK;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function registerClassify(program: Command, wrap: ActionWrapper): void {
  program
    .command("classify")
    .description(COMMANDS.classify.summary)
    .argument("<pairs>", "pairs file: JSONL or CSV with id, new, old (other fields are ignored); - reads stdin")
    .option(
      "--classifier <key=value>",
      "classifier threshold, repeatable: overlapFloor, residueMax, negOverlapFloor, aliasPrefixMin (as mari eval --classifier)",
      collect,
    )
    // The old spelling: --config means a config file in every other command, so it was renamed.
    .addOption(new Option("--config <key=value>", "deprecated spelling of --classifier").argParser(collect).hideHelp())
    .option("--strict", "exit 2 if any record was rejected")
    .addHelpText(
      "after",
      "\nExample:\n  mari classify datasets/memory-pairs/mari-pairs.jsonl --classifier overlapFloor=0.4 > verdicts.jsonl\n" +
        "  cat pairs.csv | mari classify - > verdicts.jsonl\n" +
        'Output lines: {"id": ..., "class": "distinct|restatement|update", "reason": ...}',
    )
    .action(wrap(async (pairs: string, options: ClassifyOptions) => runClassify(pairs, options)));
}
