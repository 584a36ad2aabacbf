// `mari classify PAIRS [--classifier key=value ...]`: one JSON line `{id, class, reason}` per pair on
// stdout, streamed in input order; rejected records are reported on stderr with their location.
import { assertRegularFile } from "../../io/input-file.js";
import { stat } from "node:fs/promises";
import { Option, type Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { collect } from "../flags.js";
import { InputError } from "../../io/errors.js";
import { EXIT_INPUT_ERROR, EXIT_OK } from "../exit-codes.js";
import { detectRecordFormat, isJsonObject, parseJsonLine, readRecords, type JsonObject } from "../../io/records.js";
import { fileLineBlocks, forEachLine, inputSource, lineText, sourceName, type InputSource } from "../../io/lines.js";
import { parsePairRecord } from "../../core/pairs/input.js";
import { CompactStringSet } from "../../io/string-set.js";
import { LineIdSet, LineRereader } from "../../io/line-id-set.js";
import { assertPairCorpus } from "../../tasks/pairs/corpus-shape.js";
import { LISTED_REJECTIONS, listRejections } from "../../report/format.js";
import { inPhase, type Progress } from "../../io/observer.js";
import { terminalObserver } from "../observer.js";
import { progressModeFor } from "../progress.js";
import { ClassifierConfigError, classify, parseConfigAssignments, type ClassifierConfig } from "../../core/classifier/index.js";

interface ClassifyOptions {
  classifier?: string[];
  /** Deprecated spelling of `classifier`. */
  config?: string[];
  strict?: boolean;
  quiet?: boolean;
  progress?: string;
}

/** Output is gathered into a buffer of this many bytes before each write to stdout. */
const CHUNK_BYTES = 1 << 16;
/** A JSONL file is read in chunks of this size, into one buffer. */
const READ_CHUNK_BYTES = 1 << 16;

/**
 * Batched stdout writes with back-pressure (one write per line costs more than classifying it),
 * encoded straight into a byte buffer so that no string of many lines is built. A closed pipe
 * (`mari classify … | head`) ends the output quietly.
 */
class StdoutLines {
  private buffer: Buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
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

  get isFull(): boolean {
    return this.used >= CHUNK_BYTES / 2;
  }

  /** Adds a line; the caller flushes once `isFull`. */
  push(line: string): void {
    if (this.used + 3 * line.length > this.buffer.length) {
      // Only a line longer than half the buffer gets here with the buffer half empty: grow it.
      const bigger = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.used + 3 * line.length));
      this.buffer.copy(bigger, 0, 0, this.used);
      this.buffer = bigger;
    }
    this.used += this.buffer.write(line, this.used, "utf8");
  }

  /**
   * Writes the buffered lines and waits until the stream is done with them (one write in flight,
   * so one buffer is reused). Waiting on the write's callback also lets the event loop turn, which
   * a file read synchronously would otherwise never do: callbacks and errors (EPIPE) are seen.
   */
  async flush(): Promise<void> {
    if (this.used === 0 || this.closed) return;
    const chunk = this.buffer.subarray(0, this.used);
    await new Promise<void>((resolve) => {
      process.stdout.write(chunk, () => resolve());
    });
    this.used = 0;
  }
}

/** What one run has done so far: the verdicts written and the records rejected. */
class ClassifyRun {
  classified = 0;
  readonly rejected = new Map<string, number>();
  // Rejections are listed by the one rule (report/format.ts listRejections) after the verdicts.
  readonly examples: { where: string; reason: string; message: string }[] = [];
  private first = true;

  constructor(
    private readonly pairsPath: string,
    private readonly config: ClassifierConfig,
    private readonly out: StdoutLines,
    /** False when the id was seen before (`line` is where this record starts, when there is one). */
    private readonly isNewId: (id: string, line: number) => boolean,
  ) {}

  reject(where: string, code: string, message: string): void {
    if (this.examples.length < LISTED_REJECTIONS) this.examples.push({ where, reason: code, message });
    this.rejected.set(code, (this.rejected.get(code) ?? 0) + 1);
  }

  /**
   * One readable record: rejected, or classified and its verdict added to the output. Where it is
   * comes as text (`where`) or as `file:line` (built only when needed: a string for every line
   * would be kept alive by V8's number-to-string cache and grow the young generation).
   */
  take(record: JsonObject, where: string | undefined, line: number): void {
    if (this.first) {
      this.first = false;
      assertPairCorpus(this.pairsPath, record, where ?? `${this.pairsPath}:${line}`);
    }
    const parsed = parsePairRecord(record);
    if ("error" in parsed) {
      this.reject(where ?? `${this.pairsPath}:${line}`, parsed.error.code, parsed.error.message);
      return;
    }
    const { id, newText, oldText } = parsed.pair;
    if (!this.isNewId(id, line)) {
      this.reject(where ?? `${this.pairsPath}:${line}`, "duplicate_id", `duplicate id ${JSON.stringify(id)}`);
      return;
    }
    const verdict = classify(newText, oldText, this.config);
    this.out.push(`${JSON.stringify({ id, class: verdict.class, reason: verdict.reason })}\n`);
    this.classified++;
  }
}

/**
 * A JSONL file, read in small chunks and one line at a time; the seen ids are a LineIdSet (a few
 * bytes per id), which reads an earlier line back from the file to compare ids exactly.
 */
async function classifyJsonlFile(path: string, run: ClassifyRun, out: StdoutLines, rereader: LineRereader, progress: Progress): Promise<void> {
  let blockOffset = 0;
  let lines = 0;
  const visit = (lineNo: number, text: string | null, start: number): void => {
    lines++;
    rereader.note(lineNo, blockOffset + start);
    const parsed = parseJsonLine(text);
    if ("error" in parsed) run.reject(`${path}:${lineNo}`, parsed.error.code, parsed.error.message);
    else run.take(parsed.record, undefined, lineNo);
  };
  for (const { firstLineNo, block } of fileLineBlocks(path, READ_CHUNK_BYTES)) {
    forEachLine(block, firstLineNo, visit);
    // Counted per block: a display update per line would cost more than classifying it.
    progress.tick(lines);
    lines = 0;
    blockOffset += block.length;
    if (out.isFull) await out.flush();
    if (out.isClosed) break;
  }
}

/** The id of a line read back from the file (it was a pair record with that id when first read). */
function idOfLine(path: string, bytes: Buffer, lineNo: number): string {
  const parsed = parseJsonLine(lineText(bytes.toString("utf8"), lineNo));
  const id = "record" in parsed && isJsonObject(parsed.record) ? parsed.record.id : undefined;
  if (typeof id !== "string") throw new InputError(`${path}: the file changed while it was read (line ${lineNo} is no longer the pair it was)`);
  return id;
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
  const format = typeof source === "string" ? await detectRecordFormat(source) : undefined;
  const observer = terminalObserver(progressModeFor(options.progress, options.quiet === true), options.quiet === true);
  const run = await inPhase(observer, "classify (records)", undefined, (progress) => classifyAll(pairsPath, source, format, config, out, progress));
  return finish(run, out, source, options);
}

/** Classifies every record of the input, writing the verdicts to stdout as it goes. */
async function classifyAll(
  pairsPath: string,
  source: InputSource,
  format: Awaited<ReturnType<typeof detectRecordFormat>> | undefined,
  config: ClassifierConfig,
  out: StdoutLines,
  progress: Progress,
): Promise<ClassifyRun> {
  if (typeof source === "string" && format === "jsonl") {
    const rereader = new LineRereader(source);
    const seen = new LineIdSet((line) => idOfLine(source, rereader.line(line), line));
    const run = new ClassifyRun(pairsPath, config, out, (id, line) => seen.add(id, line));
    try {
      await classifyJsonlFile(source, run, out, rereader, progress);
    } finally {
      rereader.close();
    }
    await out.flush();
    return run;
  }
  // Stdin, CSV and whole-file JSON: the ids themselves are kept (CompactStringSet), exactly.
  const seen = new CompactStringSet();
  const run = new ClassifyRun(pairsPath, config, out, (id) => seen.add(id));
  for await (const item of readRecords(source, format)) {
    progress.tick();
    if (item.error !== undefined) run.reject(item.where, item.error.code, item.error.message);
    else run.take(item.record, item.where, item.line ?? 0);
    if (out.isFull) await out.flush();
    if (out.isClosed) break;
  }
  await out.flush();
  return run;
}

/** The closing summary on stderr, and the exit code. */
function finish(run: ClassifyRun, out: StdoutLines, source: InputSource, options: ClassifyOptions): number {
  const { classified, rejected, examples } = run;
  const rejectedTotal = [...rejected.values()].reduce((a, b) => a + b, 0);
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
  if (classified === 0 && !out.isClosed) {
    process.stderr.write(`mari classify: no pairs classified in ${sourceName(source)}\n`);
    return EXIT_INPUT_ERROR;
  }
  if (options.strict && rejectedTotal > 0) return EXIT_INPUT_ERROR;
  return EXIT_OK;
}

export function registerClassify(program: Command, wrap: ActionWrapper, summary: string): void {
  program
    .command("classify")
    .description(summary)
    .argument("<pairs>", "pairs file: JSONL or CSV with id, new, old (other fields are ignored); - reads stdin")
    .option(
      "--classifier <key=value>",
      "classifier threshold, repeatable: overlapFloor, residueMax, negOverlapFloor, aliasPrefixMin (as mari eval --classifier)",
      collect,
    )
    // The old spelling: --config means a config file in every other command, so it was renamed.
    .addOption(new Option("--config <key=value>", "deprecated spelling of --classifier").argParser(collect).hideHelp())
    .option("--strict", "exit 2 if any record was rejected")
    .option("--progress <mode>", "auto|bar|plain|none (stderr)")
    .option("--quiet", "no closing count on stderr, and no progress display unless --progress asks for one")
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
