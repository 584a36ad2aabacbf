// A finished run's cases.jsonl read into one side of a paired comparison (a PairedSide): each line
// becomes a (case, run) outcome, lines that give none are counted with their reason, and a repeated
// (case, run) is refused with the line it was first seen on. A document eval's run lines, a million
// on a large run, are the cost: the ones in the exact shape mari writes (the keys in the writer's
// order, no spaces, plain strings and numbers) are read in WebAssembly (run-lines.ts) and go into the side as indices,
// with no record and no object per line; every other line (case lines, older layouts, anything
// unusual) takes the one general reader, src/report/document-cases.ts, and gives the same outcome.
import { InputError, located } from "../io/errors.js";
import { assertRegularFile } from "../io/input-file.js";
import { fileLineBlocks, forEachLine, LINE_BLOCK_BYTES } from "../io/lines.js";
import type { JsonObject } from "../io/records.js";
import type { CaseRanges } from "../report/case-ranges.js";
import {
  type CaseHeader,
  type CaseItem,
  DocumentCasesDecoder,
  decideRun,
  matchedEvidence,
  newRunDecision,
  readCaseLineItems,
  readDocumentCases,
  type RunDecision,
} from "../report/document-cases.js";
import { type CaseSummary, facetsOf } from "../report/explorer-summary.js";
import { pairedFields } from "../core/metrics/descriptors/index.js";
import { documentClass } from "./paired.js";
import { type PairedOutcome, PairedSide } from "./paired-side.js";
import { type RunLineRows, withRunLineRows } from "./run-lines.js";

const SKIPPED_EXAMPLES = 5;
/** How many bytes of a document cases.jsonl are read between turns of the event loop. */
const TURN_BYTES = 32 << 20;

/**
 * Per-case fields of a documents cases.jsonl line that become paired metrics, and the headline
 * metric each one's mean is (declared with the metric: src/core/metrics/descriptors/). Booleans
 * count as 0/1; null leaves the case out (e.g. gold negatives).
 */
export const DOCUMENT_CASE_VALUES: Readonly<Record<string, string>> = Object.fromEntries(pairedFields("documents"));

/** The same for a pairs cases.jsonl line (the cost of the verdict, whose mean is revision_cost). */
export const PAIR_CASE_VALUES: Readonly<Record<string, string>> = Object.fromEntries(pairedFields("pairs"));

/** [field, metric] of every per-case value a line may carry, in the order its values are taken. */
const CASE_VALUE_FIELDS: readonly (readonly [string, string])[] = [...Object.entries(DOCUMENT_CASE_VALUES), ...Object.entries(PAIR_CASE_VALUES)];

/** What a document run line gives for each per-case field, from what decideRun decided and the line's validity and coverage. */
type RunLineValue = (decision: RunDecision, formatValid: boolean, coverage: number) => number | undefined;
const RUN_LINE_VALUES: Readonly<Record<string, RunLineValue>> = {
  localization_hit: (d) => caseValue(d.localizationHit),
  exact_localization: (d) => caseValue(d.exactLocalization),
  format_valid: (_d, formatValid) => caseValue(formatValid),
  reference_coverage: (_d, _valid, coverage) => caseValue(coverage),
  reward_accuracy: (d) => caseValue(d.rewardAccuracy),
};

/** The run-line reading of each documents field, in CASE_VALUE_FIELDS order (a declared field without one is a programming error). */
const DOCUMENT_RUN_VALUES: readonly RunLineValue[] = Object.keys(DOCUMENT_CASE_VALUES).map((field) => {
  const read = RUN_LINE_VALUES[field];
  if (read === undefined) throw new Error(`side-reader: the documents per-case field ${field} has no run-line reading`);
  return read;
});

/**
 * A document run line as a unit of a side (PairedSide.addUnit's arguments), made as
 * outcomeFromCaseLine would make it from the line's full record: its gold and predicted classes,
 * and DOCUMENT_CASE_VALUES in order with the null ones (gold negatives) left out. Metric names and
 * classes are interned in the side on first use; one is reused line after line.
 */
export class DocumentRunUnit {
  readonly keys = new Int32Array(CASE_VALUE_FIELDS.length);
  readonly values = new Float64Array(CASE_VALUE_FIELDS.length);
  /** How many of keys/values the last line gave. */
  count = 0;
  gold = 0;
  predicted = 0;
  private readonly metricIndex = new Int32Array(CASE_VALUE_FIELDS.length).fill(-1);
  private readonly classIndex = new Int32Array(2).fill(-1);

  constructor(private readonly side: PairedSide) {}

  /** The unit of a run line under a case labelled `label`, whose judgment, validity and coverage decided `d` (decideRun). */
  take(label: boolean, judgment: boolean, formatValid: boolean, coverage: number, d: RunDecision): void {
    let count = 0;
    for (let k = 0; k < DOCUMENT_RUN_VALUES.length; k++) {
      const v = DOCUMENT_RUN_VALUES[k]!(d, formatValid, coverage);
      if (v === undefined) continue;
      if (this.metricIndex[k]! < 0) this.metricIndex[k] = this.side.valueName(CASE_VALUE_FIELDS[k]![1]);
      this.keys[count] = this.metricIndex[k]!;
      this.values[count++] = v;
    }
    this.count = count;
    this.gold = this.classOf(label);
    this.predicted = this.classOf(judgment);
  }

  private classOf(judgment: boolean): number {
    const k = judgment ? 0 : 1;
    if (this.classIndex[k]! < 0) this.classIndex[k] = this.side.label(documentClass(judgment));
    return this.classIndex[k]!;
  }
}

/** A field's value as a paired value: booleans 0/1, finite numbers as they are, else none (undefined). */
function caseValue(v: unknown): number | undefined {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" && Number.isFinite(v)) return v;
  return undefined;
}

function label(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return documentClass(value);
  return null;
}

/**
 * The default reading of one cases.jsonl line, documents or pairs: the case id from `case_id`
 * (else `id`), `run` (string or integer, default "0"), the gold class from `gold` (string) or
 * `label` (boolean), the class as scored from `predicted`, `judgment` (boolean) or `class`, and the
 * DOCUMENT_CASE_VALUES / PAIR_CASE_VALUES fields. Null when the line lacks them (e.g. an
 * unlabelled pair).
 */
export function outcomeFromCaseLine(line: JsonObject): PairedOutcome | null {
  const caseId = line["case_id"] ?? line["id"];
  if (typeof caseId !== "string") return null;
  const run = line["run"] ?? "0";
  if (typeof run !== "string" && !(typeof run === "number" && Number.isInteger(run))) return null;
  const gold = label(line["gold"] ?? line["label"]);
  const predicted = label(line["predicted"] ?? line["judgment"] ?? line["class"]);
  if (gold === null || predicted === null) return null;
  return { case_id: caseId, run: String(run), gold, predicted, values: caseValues(line, CASE_VALUE_FIELDS) };
}

/** The per-case values of a cases.jsonl line: for each [field, metric], the field's value as a paired value, when it has one. */
export function caseValues(line: JsonObject, fields: readonly (readonly [string, string])[]): Record<string, number> {
  const values: Record<string, number> = {};
  for (const [field, metric] of fields) {
    const v = caseValue(line[field]);
    if (v !== undefined) values[metric] = v;
  }
  return values;
}

/** How a task's cases.jsonl is read: documents through their one reader, other tasks line by line. */
export type CaseReader = (casesPath: string) => AsyncIterable<CaseItem>;

/** The reader of a document eval's cases.jsonl (src/report/document-cases.ts). */
const readDocumentCaseItems: CaseReader = (path) => readDocumentCases(path);

/** The reader of a task's cases.jsonl (src/report/document-cases.ts for documents). */
export function caseReaderOf(task: string): CaseReader {
  return task === "documents" ? readDocumentCaseItems : readCaseLineItems;
}

/** What reading a cases.jsonl into a side gives besides the side. */
export interface SideSkips {
  /** Lines that gave no outcome (blank, malformed, or lacking fields). */
  skippedLines: number;
  /** The first few of them as `file:line: why`. */
  skippedExamples: string[];
}

/** Fills a side line by line: the skips, and the line of each unit so that a repeat names it. */
class SideFiller {
  readonly side = new PairedSide();
  readonly skips: SideSkips = { skippedLines: 0, skippedExamples: [] };
  /** Per unit, in arrival order: the line it was read from. */
  private lineOf = new Float64Array(1024);

  constructor(private readonly casesPath: string) {}

  skip(lineNo: number, why: string): void {
    this.skips.skippedLines++;
    if (this.skips.skippedExamples.length < SKIPPED_EXAMPLES) this.skips.skippedExamples.push(located(this.casesPath, lineNo, why));
  }

  /** A line read by the general reader: its outcome by `convert`, or a skip. */
  item(item: CaseItem, convert: (line: JsonObject) => PairedOutcome | null): PairedOutcome | null {
    if ("error" in item) {
      this.skip(item.lineNo, item.error);
      return null;
    }
    const outcome = convert(item.record);
    if (outcome === null) {
      this.skip(item.lineNo, "no case id, or no gold or predicted class");
      return null;
    }
    const c = this.side.caseFor(outcome.case_id);
    this.refuseRepeat(item.lineNo, c, this.side.runs.add(outcome.run));
    this.side.add(outcome);
    this.noteLine(item.lineNo);
    return outcome;
  }

  /** A unit given as indices (PairedSide.addUnit), read from line `lineNo`. */
  unit(lineNo: number, c: number, r: number, g: number, p: number, keys: ArrayLike<number>, values: ArrayLike<number>, count: number): void {
    this.refuseRepeat(lineNo, c, r);
    this.side.addUnit(c, r, g, p, keys, values, count);
    this.noteLine(lineNo);
  }

  /** Case c, run r already added: its runs would be paired twice. */
  refuseRepeat(lineNo: number, c: number, r: number): void {
    if (!this.side.has(c, r)) return;
    const earlier = this.lineOf[this.side.order[c]![r]!]!;
    throw new InputError(
      located(
        this.casesPath,
        lineNo,
        `case ${JSON.stringify(this.side.cases.list[c])} run ${JSON.stringify(this.side.runs.list[r])} is already on line ${earlier}: not a cases.jsonl mari wrote`,
      ),
    );
  }

  private noteLine(lineNo: number): void {
    const unit = this.side.size - 1;
    if (unit >= this.lineOf.length) {
      const next = new Float64Array(this.lineOf.length * 2);
      next.set(this.lineOf);
      this.lineOf = next;
    }
    this.lineOf[unit] = lineNo;
  }
}

const NEWLINE = 0x0a;

/**
 * What the case explorer of `mari diff` takes from the same reading of a document cases.jsonl:
 * where each case's lines are (`ranges`), and what every case's runs say (`summary`, filled with
 * the full records' values in file order, as a reading of all records would fill it).
 */
export interface SideExtras {
  ranges?: CaseRanges;
  summary?: CaseSummary;
  /** Fed the file's bytes in order in the same pass (a document cases.jsonl only: the result then says `hashed`). */
  hash?: { update(bytes: Uint8Array): void };
}

/** The summary's reading of a record (the general reader's, or a previous-layout line). */
function summarizeRecord(summary: CaseSummary, record: JsonObject): void {
  summary.add(record["case_index"], record, 1, () => facetsOf(record));
}

/** Whether `bytes[start … start + length)` are the code units of `known` (ASCII, as a run key or reason is). */
function bytesSpell(known: string, bytes: Uint8Array, start: number, length: number): boolean {
  if (known.length !== length) return false;
  for (let k = 0; k < length; k++) if (known.charCodeAt(k) !== bytes[start + k]) return false;
  return true;
}

/**
 * A document eval's cases.jsonl into `filler`: run lines in mari's own shape from their rows (`rows`),
 * every other line through the general reader (DocumentCasesDecoder), with the outcome
 * outcomeFromCaseLine would give; and `extras` alongside.
 */
async function fillDocumentSide(casesPath: string, filler: SideFiller, rows: RunLineRows, extras: SideExtras = {}): Promise<void> {
  const side = filler.side;
  const { ranges, summary } = extras;
  const decoder = new DocumentCasesDecoder();
  const decided = newRunDecision();
  const unit = new DocumentRunUnit(side);
  let header: CaseHeader | null = null;
  let caseIdx = -1;
  // The run keys of the case before, in order: the next case's run lines usually repeat them, so
  // the key is matched in place of making a string of it.
  let previousRuns: number[] = [];
  let currentRuns: number[] = [];
  const runOf = (bytes: Buffer): number => {
    const start = rows.runStart();
    const length = rows.runEnd() - start;
    const expected = previousRuns[currentRuns.length];
    if (expected !== undefined && bytesSpell(side.runs.list[expected]!, bytes, start, length)) return expected;
    return side.runs.add(bytes.toString("latin1", start, start + length));
  };
  // Reason codes met so far, matched in place as run keys are.
  const reasons: string[] = [];
  const reasonOf = (bytes: Buffer): string => {
    const start = rows.reasonStart();
    const length = rows.reasonEnd() - start;
    for (const known of reasons) if (bytesSpell(known, bytes, start, length)) return known;
    const text = bytes.toString("latin1", start, start + length);
    reasons.push(text);
    return text;
  };
  // The facets of the case line the run lines read from rows are under (asked for once per case).
  const headerFacets = (): Record<string, string> => facetsOf((header ?? {}) as unknown as Record<string, unknown>);
  let block: Buffer = Buffer.alloc(0);
  /** The file offset of `block`. */
  let offset = 0;
  /** Of the line being decoded: its number, and the record it gave (null: none). */
  let current = 0;
  let currentRecord: CaseItem | null = null;
  const take = (item: CaseItem): void => {
    filler.item(item, outcomeFromCaseLine);
    if (!("record" in item)) return;
    if (summary !== undefined) summarizeRecord(summary, item.record);
    if (item.lineNo === current) currentRecord = item;
  };
  const visit = (lineNo: number, text: string | null, start: number): void => {
    if (ranges === undefined) {
      decoder.decode(lineNo, text, take);
      return;
    }
    current = lineNo;
    currentRecord = null;
    decoder.decode(lineNo, text, take);
    let end = block.indexOf(NEWLINE, start);
    if (end < 0) end = block.length;
    const h = decoder.header;
    const item = currentRecord as CaseItem | null;
    if (lineNo === 1 && decoder.sparse) ranges.runsLineEnd = offset + end;
    // A case line; a previous-layout line (its own case); any other line under a case line belongs
    // to that case, even one that gives no record (a sparse file's run line still moves its case on).
    if (item !== null && "record" in item && item.caseLineNo === lineNo)
      ranges.note(String(item.record["case_id"]), item.record["case_index"], offset + start, offset + end, lineNo);
    else if (h !== null) ranges.note(h.case_id, h.case_index, offset + start, offset + end, lineNo);
  };
  const takeBytes = (lineNo: number, start: number, end: number): boolean => {
    const h = decoder.header;
    // A sparse file's run lines all go through the decoder: it yields the absent runs between them.
    if (h === null || decoder.sparse || !rows.rowAt(start)) return false;
    const coverage = rows.coverage();
    // Not a number the reader takes (1e999): the general reader says so.
    if (!Number.isFinite(coverage)) return false;
    if (h !== header) {
      header = h;
      caseIdx = side.caseFor(h.case_id);
      if (currentRuns.length > 0) previousRuns = currentRuns;
      currentRuns = [];
    }
    const r = runOf(block);
    currentRuns.push(r);
    const judgment = rows.judgment();
    const formatValid = rows.reasonStart() < 0;
    const count = rows.evidenceCount();
    const from = rows.evidenceFrom();
    const matched = matchedEvidence(h.goldSet, rows.ids, from, from + count);
    const d = decideRun(decided, h, judgment, formatValid, count, matched, coverage);
    unit.take(h.label, judgment, formatValid, coverage, d);
    filler.unit(lineNo, caseIdx, r, unit.gold, unit.predicted, unit.keys, unit.values, unit.count);
    if (summary !== undefined) {
      // With the values the record expandRunLine makes of this line would carry.
      const reason = formatValid ? null : reasonOf(block);
      summary.addFields(h.case_index, h.label, judgment, formatValid, d.correct, d.localizationHit, reason, d.rewardAccuracy, 1, headerFacets);
    }
    if (ranges !== undefined) ranges.note(h.case_id, h.case_index, offset + start, offset + end, lineNo);
    return true;
  };
  const hash = extras.hash;
  await assertRegularFile(casesPath);
  // One buffer reused block after block (no allocation per chunk); the event loop gets a turn now and then.
  let sinceTurn = 0;
  for (const chunk of fileLineBlocks(casesPath, LINE_BLOCK_BYTES)) {
    block = chunk.block;
    hash?.update(block);
    rows.scan(block, chunk.lineEnds);
    forEachLine(block, chunk.firstLineNo, visit, takeBytes);
    offset += block.length;
    sinceTurn += block.length;
    if (sinceTurn >= TURN_BYTES) {
      sinceTurn = 0;
      await new Promise(setImmediate);
    }
  }
  decoder.finish(take);
}

/**
 * Streams a cases.jsonl file into per-case accumulators (src/gates/paired-side.ts), without an
 * object per line; a document eval's run lines in mari's own shape are read from their rows (run-lines.ts).
 */
export async function readPairedSide(
  casesPath: string,
  convert: (line: JsonObject) => PairedOutcome | null = outcomeFromCaseLine,
  read: CaseReader = readCaseLineItems,
  extras: SideExtras = {},
): Promise<{ side: PairedSide; hashed?: true } & SideSkips> {
  const filler = new SideFiller(casesPath);
  if (read === readDocumentCaseItems && convert === outcomeFromCaseLine) {
    await withRunLineRows((rows) => fillDocumentSide(casesPath, filler, rows, extras));
    return { side: filler.side, ...(extras.hash !== undefined ? { hashed: true as const } : {}), ...filler.skips };
  }
  for await (const item of read(casesPath)) filler.item(item, convert);
  return { side: filler.side, ...filler.skips };
}

/**
 * Streams a cases.jsonl file into paired outcomes, one per kept line (the general reader, line by
 * line). Case ids, run keys and labels repeat across runs, so they are interned: one string per
 * distinct value instead of one per line.
 */
export async function readPairedOutcomes(
  casesPath: string,
  convert: (line: JsonObject) => PairedOutcome | null = outcomeFromCaseLine,
  read: CaseReader = readCaseLineItems,
): Promise<{ outcomes: PairedOutcome[] } & SideSkips> {
  const outcomes: PairedOutcome[] = [];
  const strings = new Map<string, string>();
  const intern = (text: string): string => {
    const known = strings.get(text);
    if (known !== undefined) return known;
    strings.set(text, text);
    return text;
  };
  const filler = new SideFiller(casesPath);
  for await (const item of read(casesPath)) {
    const outcome = filler.item(item, convert);
    if (outcome === null) continue;
    const compact: PairedOutcome = {
      case_id: intern(outcome.case_id),
      run: intern(outcome.run),
      gold: intern(outcome.gold),
      predicted: intern(outcome.predicted),
    };
    if (outcome.values !== undefined && Object.keys(outcome.values).length > 0) compact.values = outcome.values;
    outcomes.push(compact);
  }
  return { outcomes, ...filler.skips };
}

/** readPairedSide of a document eval's cases.jsonl (with what the case explorer takes from the same reading). */
export function readDocumentSide(casesPath: string, extras: SideExtras = {}): Promise<{ side: PairedSide; hashed?: true } & SideSkips> {
  return readPairedSide(casesPath, outcomeFromCaseLine, readDocumentCaseItems, extras);
}
