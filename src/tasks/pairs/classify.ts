// `mari classify` as a task: every pair of a file (JSONL, CSV, JSON) or stream classified, its
// verdict line `{id, class, reason}` written to an output stream in input order, bad records counted
// with their location. It prints nothing and picks no exit code: it returns what it did.
import { stat } from "node:fs/promises";
import { assertRegularFile } from "../../io/input-file.js";
import { InputError } from "../../io/errors.js";
import { parseFlatStringObject } from "../../io/flat-json.js";
import { detectRecordFormat, isJsonObject, parseJsonLine, readRecords, type JsonObject, type RecordFormat } from "../../io/records.js";
import { inPhase, SILENT_OBSERVER, type Progress, type RunObserver } from "../../io/observer.js";
import { fileLineBlocks, forEachLine, inputSource, lineText, sourceName, type InputSource } from "../../io/lines.js";
import { CompactStringSet } from "../../io/string-set.js";
import { countLines, LineIdSet, LineRereader } from "../../io/line-id-set.js";
import { pairRecordError } from "../../core/pairs/input.js";
import { classify, DEFAULT_CONFIG, type ClassifierConfig } from "../../core/classifier/index.js";
import { LISTED_REJECTIONS } from "../../report/format.js";
import { assertPairCorpus } from "./corpus-shape.js";
import { VerdictOutput } from "./verdict-output.js";

/**
 * A JSONL file is read in chunks of this size, into one buffer. Small on purpose: the objects made
 * for a chunk live until the next one, and with a chunk of 64 KiB (about 500 pairs, more garbage
 * than V8's young generation holds) they outlived two young collections and were moved to the old
 * generation, which then grew by about 1.5 MB per 1M pairs until a full collection.
 */
const READ_CHUNK_BYTES = 1 << 14;

export interface ClassifyPairsOptions {
  /** The pairs: a JSONL, CSV or JSON file with id, new, old; "-" reads stdin. */
  pairs: string;
  /** Where the verdict lines go (JSONL, one per classified pair, in input order). */
  output: NodeJS.WritableStream;
  /** Classifier thresholds (default: the shipped ones). */
  config?: Readonly<ClassifierConfig> | undefined;
  /** Progress (one phase, "classify", counting records) goes here; silent by default. */
  observer?: RunObserver | undefined;
}

export interface ClassifyRejection {
  readonly where: string;
  readonly reason: string;
  readonly message: string;
}

export interface ClassifyOutcome {
  /** The input's name as messages give it (a path, or `<stdin>`). */
  source: string;
  classified: number;
  /** Rejected records by reason code. */
  rejected: Map<string, number>;
  rejectedTotal: number;
  /** The first rejected records, in input order. */
  examples: ClassifyRejection[];
  /** The output was closed by its reader (EPIPE) before every verdict was written; reading stopped there. */
  outputClosed: boolean;
}

/** What one run has done so far: the verdicts written and the records rejected. */
class ClassifyRun {
  classified = 0;
  readonly rejected = new Map<string, number>();
  readonly examples: ClassifyRejection[] = [];
  private first = true;

  constructor(
    private readonly pairsPath: string,
    private readonly config: Readonly<ClassifierConfig>,
    private readonly out: VerdictOutput,
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
    const error = pairRecordError(record);
    if (error !== null) {
      this.reject(where ?? `${this.pairsPath}:${line}`, error.code, error.message);
      return;
    }
    const id = record.id as string;
    if (!this.isNewId(id, line)) {
      this.reject(where ?? `${this.pairsPath}:${line}`, "duplicate_id", `duplicate id ${JSON.stringify(id)}`);
      return;
    }
    const verdict = classify(record.new as string, record.old as string, this.config);
    // JSON.stringify of {id, class, reason}, without building the object.
    this.out.push(`{"id":${JSON.stringify(id)},"class":"${verdict.class}","reason":${JSON.stringify(verdict.reason)}}\n`);
    this.classified++;
  }
}

/**
 * A JSONL file, read in small chunks and one line at a time; the seen ids are a LineIdSet (a few
 * bytes per id, sized from a first pass that counts the lines), which reads an earlier line back
 * from the file to compare ids exactly.
 */
async function classifyJsonlFile(
  path: string,
  makeRun: (isNewId: (id: string, line: number) => boolean) => ClassifyRun,
  out: VerdictOutput,
  progress: Progress,
): Promise<ClassifyRun> {
  const lineCount = countLines(path);
  const rereader = new LineRereader(path, lineCount);
  const seen = new LineIdSet((line) => idOfLine(path, rereader.line(line), line), lineCount);
  const run = makeRun((id, line) => seen.add(id, line));
  let blockOffset = 0;
  let lines = 0;
  const visit = (lineNo: number, text: string | null, start: number): void => {
    lines++;
    rereader.note(lineNo, blockOffset + start);
    // A pair line is nearly always a flat object of strings: read without JSON.parse, which would
    // intern short ids (src/io/flat-json.ts says why that matters for the peak).
    const flat = text === null ? undefined : parseFlatStringObject(text);
    if (flat !== undefined) {
      run.take(flat, undefined, lineNo);
      return;
    }
    const parsed = parseJsonLine(text);
    if ("error" in parsed) run.reject(`${path}:${lineNo}`, parsed.error.code, parsed.error.message);
    else run.take(parsed.record, undefined, lineNo);
  };
  try {
    for (const { firstLineNo, block } of fileLineBlocks(path, READ_CHUNK_BYTES)) {
      forEachLine(block, firstLineNo, visit);
      // Counted per block: a display update per line would cost more than classifying it.
      progress.tick(lines);
      lines = 0;
      blockOffset += block.length;
      if (out.isFull) await out.flush();
      if (out.isClosed) break;
    }
  } finally {
    rereader.close();
  }
  return run;
}

/** Stdin, CSV and whole-file JSON: the ids themselves are kept (CompactStringSet), exactly. */
async function classifyRecords(
  source: InputSource,
  format: RecordFormat | undefined,
  makeRun: (isNewId: (id: string, line: number) => boolean) => ClassifyRun,
  out: VerdictOutput,
  progress: Progress,
): Promise<ClassifyRun> {
  const seen = new CompactStringSet();
  const run = makeRun((id) => seen.add(id));
  for await (const item of readRecords(source, format)) {
    progress.tick();
    if (item.error !== undefined) run.reject(item.where, item.error.code, item.error.message);
    else run.take(item.record, item.where, item.line ?? 0);
    if (out.isFull) await out.flush();
    if (out.isClosed) break;
  }
  return run;
}

/** The id of a line read back from the file (it was a pair record with that id when first read). */
function idOfLine(path: string, bytes: Buffer, lineNo: number): string {
  const parsed = parseJsonLine(lineText(bytes.toString("utf8"), lineNo));
  const id = "record" in parsed && isJsonObject(parsed.record) ? parsed.record.id : undefined;
  if (typeof id !== "string") throw new InputError(`${path}: the file changed while it was read (line ${lineNo} is no longer the pair it was)`);
  return id;
}

async function assertReadableFile(path: string): Promise<void> {
  await assertRegularFile(path);
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputError(`${path}: not a file`);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/**
 * Classifies every pair of `options.pairs` and writes the verdicts to `options.output`. Input
 * errors (unreadable file, not a pair corpus) throw InputError; bad records are counted.
 */
export async function classifyPairs(options: ClassifyPairsOptions): Promise<ClassifyOutcome> {
  const config = options.config ?? DEFAULT_CONFIG;
  const source = inputSource(options.pairs);
  if (typeof source === "string") await assertReadableFile(source);
  const out = new VerdictOutput(options.output);
  try {
    const makeRun = (isNewId: (id: string, line: number) => boolean): ClassifyRun => new ClassifyRun(options.pairs, config, out, isNewId);
    const format = typeof source === "string" ? await detectRecordFormat(source) : undefined;
    const run = await inPhase(options.observer ?? SILENT_OBSERVER, "classify (records)", undefined, async (progress) => {
      const done =
        typeof source === "string" && format === "jsonl"
          ? await classifyJsonlFile(source, makeRun, out, progress)
          : await classifyRecords(source, format, makeRun, out, progress);
      await out.flush();
      return done;
    });
    const rejectedTotal = [...run.rejected.values()].reduce((a, b) => a + b, 0);
    return {
      source: sourceName(source),
      classified: run.classified,
      rejected: run.rejected,
      rejectedTotal,
      examples: run.examples,
      outputClosed: out.isClosed,
    };
  } finally {
    out.release();
  }
}
