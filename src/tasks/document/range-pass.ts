// The dense aggregation of a document eval on this thread, in WebAssembly (its source
// wasm/range-pass.ts, its bytes range-pass-wasm.ts): the run table's columns and everything
// JavaScript renders once (each case's id and optional fields, run keys, judgment parts, coverage endings, each case's
// missing prediction and breakdown cells) are laid out in one memory (the run table's columns where
// the table made them, in its arena: core/wasm.ts's WasmArena); the module
// adds every cell into the totals and writes cases.jsonl's lines, range by range as range.ts cuts
// them. Its sums have range.ts's bits and its lines range.ts's bytes
// (test/document-eval/range-pass.test.ts); an eval it does not take (see `denseRangePass`) is
// aggregated by range.ts. The pass is the work per cell without the JavaScript compiler's: on
// the GRPO-shaped bench, range.ts's loops were a sixth of the main thread and a third of V8's
// compiling.
import { accuracyReward, isCheckedGold } from "../../core/document/rewards.js";
import { countColumn } from "../../core/metrics/run-sums.js";
import { REWARD_HISTOGRAM_SLOTS } from "../../core/metrics/reward-histograms.js";
import type { SliceCase } from "../../io/slice.js";
import { JUDGED_NEGATIVE, JUDGED_POSITIVE, LOC_MISS, OUTCOMES } from "../../report/explorer-summary.js";
import { instantiateOn, WasmArena } from "../../core/wasm.js";
import type { RejectionExample } from "../../report/types.js";
import { ByteSink } from "./line-bytes.js";
import {
  BREAKDOWN_FIELDS,
  cellKeysOf,
  coverageTailsOf,
  missingExample,
  RUN_LINE_FRAGMENTS,
  RUN_SUM_FIELDS,
  rangeCases,
  rangeRuns,
  CASE_LINE_FRAGMENTS,
  hasCaseLineTail,
  writeCaseLineTail,
} from "./range.js";
import { fragmentTableBytes, MOST_NUMERATORS, putFragmentTable, UINT_BYTES } from "./range-write.js";
import { RANGE_PASS_WASM } from "./range-pass-wasm.js";
import type { RunTable } from "./run-table.js";
import { CASE_REASONS, EXAMPLES_PER_REASON, scoreCase, type ScoredPrediction, type ScoreOptions } from "./score.js";
import type { CellTotals } from "./sparse.js";

interface RangePassExports {
  heapBase(): number;
  setLayout(table: number): void;
  sumRanges(first: number, last: number): number;
  startLines(): void;
  linesDone(): number;
  missingNoted(): number;
  writeLines(out: number, end: number): number;
  summaryTaken(): number;
}

/** The outcomes in the order the module numbers them (its summary's bit table starts with theirs). */
const MODULE_OUTCOMES = ["tp", "fp", "fn", "tn", "invalid"] as const satisfies readonly (typeof OUTCOMES)[number][];

/** The module's summary bit table: each outcome's bit as explorer-summary.ts numbers them, then its three other bits. */
const SUMMARY_BIT_TABLE = [...MODULE_OUTCOMES.map((o) => 1 << OUTCOMES.indexOf(o)), LOC_MISS, JUDGED_POSITIVE, JUDGED_NEGATIVE];

/**
 * What the pass gathered of each scored case (position i in the eval's cases) for the case
 * explorer: whether a run fails, the summary's bits, the accuracy rewards summed in run order, and
 * the reason codes (CASE_REASONS indices) in order of first appearance, a byte each in
 * reasons[i] from the lowest (0: none). Every case has `runs` runs, each with a reward.
 */
export interface PassCaseColumns {
  runs: number;
  failed: Uint8Array;
  bits: Uint8Array;
  rewardSum: Float64Array;
  reasons: Uint32Array;
}

/** The run sums and breakdown sums the module adds, in the order it takes their places (its FIELD_* and BREAK_*). */
const PASS_RUN_FIELDS = [
  "cases",
  "tp",
  "fp",
  "fn",
  "tn",
  "localizationHits",
  "exactLocalizations",
  "localizationPrecisionSum",
  "localizationPrecisionCases",
  "formatValid",
  "referenceCoverageSum",
  "rewardAccuracySum",
  "rewardFormatSum",
] as const satisfies readonly (typeof RUN_SUM_FIELDS)[number][];
const PASS_CELL_FIELDS = ["cases", "correct", "positives", "truePositives", "localizationHits"] as const satisfies readonly (typeof BREAKDOWN_FIELDS)[number][];

/**
 * The most memory the pass takes, its copy of the run table included: an eval that needs more is
 * aggregated by range.ts, whose range buffers are bounded and whose per-run sums take 50 bytes a
 * run, not the module's 104 (at a million runs of one case the pass would take 221 MB and the
 * process 577 MB, past the 512 MB every eval keeps under).
 */
const MOST_PASS_BYTES = 128 << 20;

/**
 * The arena for the run table of an eval the dense pass is to aggregate (score-dump.ts): the
 * columns the pass reads are made in it, so that the pass reads them in place (a copy of them was
 * 11–14 ms of CPU, most of it page faults, on the GRPO bench's `--report json` eval). Undefined when
 * one cannot be had.
 */
export function passArena(): WasmArena | undefined {
  return WasmArena.create(MOST_PASS_BYTES);
}

/** The run table's columns the pass reads, by their place in the layout table. */
type TableColumns = readonly (readonly [name: string, column: Int32Array | Uint8Array | Float64Array])[];

/**
 * Where the pass goes in `arena`: `passBytes` for its own columns from `base`, and each of the run
 * table's where it lies when the arena holds it, else copied in after the pass's; undefined when
 * the arena has no room for them.
 */
function placePass(arena: WasmArena, passBytes: number, columns: TableColumns): { base: number; columnAt: Map<string, number> } | undefined {
  let copied = 0;
  for (const [, column] of columns) if (!arena.holds(column)) copied = align8(copied + column.byteLength);
  // The module's writer reads up to 8 bytes past a fragment (wasm/fragments.ts, WIDE_SLACK): room after the last.
  const base = arena.claim(passBytes + copied + 8);
  if (base === undefined) return undefined;
  const columnAt = new Map<string, number>();
  const bytes = new Uint8Array(arena.buffer);
  let at = base + passBytes;
  for (const [name, column] of columns) {
    if (arena.holds(column)) {
      columnAt.set(name, column.byteOffset);
      continue;
    }
    bytes.set(new Uint8Array(column.buffer, column.byteOffset, column.byteLength), at);
    columnAt.set(name, at);
    at = align8(at + column.byteLength);
  }
  return { base, columnAt };
}

/**
 * Cells the module goes over in one call of sumRanges, about: V8 compiles a WebAssembly
 * function's optimized code in the background and uses it from its next call on, so one call for
 * a whole eval would run in the baseline code throughout.
 */
const SLICE_CELLS = 1 << 14;

/** Cases per call for ranges of `caseStep` cases and `runs` runs: whole ranges, about SLICE_CELLS cells. */
function passSlice(caseStep: number, runs: number): number {
  return caseStep * Math.max(1, Math.floor(SLICE_CELLS / (caseStep * runs)));
}

/**
 * Each of the two output buffers holds at least this many bytes, and four of the longest line. A
 * buffer's pages are new memory the first time it is written, a page fault each (about 2.5 µs of
 * system time on the bench machine): with 4 MiB buffers the GRPO bench's `--report json` eval took
 * 1,500 more faults and 1.03× the CPU (25 alternating pairs); more writes of 1 MiB cost less.
 */
const OUTPUT_BYTES = 1 << 20;

/** Bytes a run-table entry takes over the eight entry columns laid out below (line … evLength). */
const ENTRY_BYTES = 4 + 1 + 1 + 8 + 8 + 4 + 4 + 4;

/** Bytes of a cell's record in the module (its RECORD_BYTES): what its run line needs, in cases.jsonl's order. */
const RECORD_BYTES = 16;

const align8 = (n: number): number => (n + 7) & ~7;

/** Room for the layout table setLayout reads, in entries (checked when it is written). */
const LAYOUT_ROOM = 64;

/** Where each of the eval's columns goes in the module's memory: claimed in order, then filled. */
class Layout {
  end: number;
  constructor(start: number) {
    this.end = align8(start);
  }
  claim(bytes: number): number {
    const at = this.end;
    this.end = align8(at + bytes);
    return at;
  }
}

/** The encoded run keys: run r's JSON at data[start[r] … start[r + 1]). */
export interface PassRunKeys {
  data: Uint8Array;
  start: Int32Array;
}

/** Each case's missing prediction (an absent cell) as scoreCase scores it, a column per field. */
interface MissingPredictions {
  judgment: Uint8Array;
  predicted: Int32Array;
  matched: Int32Array;
  coverage: Float64Array;
  accuracy: Float64Array;
}

/**
 * The cases' missing predictions, or undefined when scoreCase cannot score one (it throws for a
 * case the slice reader let through broken). A case whose gold checkedGold passes as it is scores
 * no judgment, no evidence, no coverage and the accuracy reward of a wrong answer, here without a
 * call of scoreCase (37,500 of them on the GRPO bench); any other case is scored by it.
 */
function missingPredictions(cases: readonly SliceCase[], options: ScoreOptions): MissingPredictions | undefined {
  const n = cases.length;
  const missing: MissingPredictions = {
    judgment: new Uint8Array(n),
    predicted: new Int32Array(n),
    matched: new Int32Array(n),
    coverage: new Float64Array(n),
    accuracy: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const c = cases[i]!;
    if (isCheckedGold(c.gold, c.sentenceCount, c.label)) {
      missing.accuracy[i] = accuracyReward(c.label, !c.label, 0, c.gold.length);
      continue;
    }
    let m: ScoredPrediction;
    try {
      m = scoreCase(c, null, options);
    } catch {
      return undefined;
    }
    missing.judgment[i] = m.judgment ? 1 : 0;
    missing.predicted[i] = m.evidence.length;
    missing.matched[i] = m.matched;
    missing.coverage[i] = m.referenceCoverage;
    missing.accuracy[i] = m.rewardAccuracy;
  }
  return missing;
}

/** Each case's own parts of its case line, which the module assembles with CASE_LINE_FRAGMENTS. */
interface CaseLineParts {
  /**
   * Part k of case i is bytes[starts[2i + k] … starts[2i + k + 1]): part 0 its id as JSON.stringify
   * writes it between the quotes, part 1 its optional fields (often none).
   */
  bytes: Uint8Array;
  starts: Int32Array;
  /** Case i's gold IDs are gold[goldStart[i] … goldStart[i + 1]). */
  goldStart: Int32Array;
  gold: Int32Array;
  /** The most bytes a case's parts and its numbers (gold IDs, index, sentence count) take. */
  longest: number;
}

/** Text JSON.stringify writes as it is between the quotes: printable ASCII but quote and backslash. */
const PLAIN_JSON_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * The cases' parts of their lines, or undefined for a gold ID the module cannot write as range.ts
 * does (not an integer in 0 … 2^31 − 1; scoring the cases' missing predictions has already turned
 * such a slice down). Rendering whole case lines here took 32 ms of the GRPO bench's 37,500 cases
 * and V8 compiled five functions for it.
 */
function caseLineParts(cases: readonly SliceCase[]): CaseLineParts | undefined {
  const n = cases.length;
  const sizes = caseTextSizes(cases, new Float64Array(2));
  // Room for every plain ID from the start: the buffer grown inside the loop below met the growing
  // code with no type feedback, after V8 had compiled the loop on the fly.
  const sink = new ByteSink(new Uint8Array(sizes[1]! + 64));
  const starts = new Int32Array(2 * n + 1);
  const goldStart = new Int32Array(n + 1);
  const gold = new Int32Array(sizes[0]!);
  const longest = writeCaseParts(cases, sink, starts, goldStart, gold);
  if (longest < 0) return undefined;
  starts[2 * n] = sink.length;
  return { bytes: sink.room(0).subarray(0, sink.length), starts, goldStart, gold, longest };
}

/** [the cases' gold IDs, their IDs' characters]. */
function caseTextSizes(cases: readonly SliceCase[], sizes: Float64Array): Float64Array {
  for (let i = 0; i < cases.length; i++) {
    sizes[0]! += cases[i]!.gold.length;
    sizes[1]! += cases[i]!.id.length;
  }
  return sizes;
}

/**
 * Writes caseLineParts's parts and gold IDs; returns their `longest`, or −1 for a gold ID the
 * module cannot write. The loop is all it does: code after a loop V8 compiles on the fly has no
 * type feedback yet, and sent it back to the interpreter.
 */
function writeCaseParts(cases: readonly SliceCase[], sink: ByteSink, starts: Int32Array, goldStart: Int32Array, gold: Int32Array): number {
  let goldAt = 0;
  let longest = 0;
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!;
    const before = sink.length;
    starts[2 * i] = before;
    const id = c.id;
    if (PLAIN_JSON_TEXT.test(id)) sink.ascii(id);
    else sink.text(JSON.stringify(id).slice(1, -1));
    starts[2 * i + 1] = sink.length;
    if (hasCaseLineTail(c)) writeCaseLineTail(sink, c);
    const ids = c.gold;
    for (let k = 0; k < ids.length; k++) {
      const g = ids[k]!;
      if (!((g | 0) === g && g >= 0)) return -1;
      gold[goldAt++] = g;
    }
    goldStart[i + 1] = goldAt;
    longest = Math.max(longest, sink.length - before + (ids.length + 2) * UINT_BYTES);
  }
  return longest;
}

/**
 * The breakdown cells of each case, numbered in order of first appearance (range.ts's order,
 * range after range): case i's are cellList[cellStart[i] … cellStart[i + 1]). Returns cellList.
 */
function caseCells(cases: readonly SliceCase[], cellIndex: Map<string, number>, cellStart: Int32Array): number[] {
  const cellList: number[] = [];
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!;
    // cellKeysOf's keys: none without a facet (an array made for none was most of this loop).
    if (c.scope !== null || c.docType !== null || c.contraType !== null)
      for (const key of cellKeysOf(c)) {
        let id = cellIndex.get(key);
        if (id === undefined) cellIndex.set(key, (id = cellIndex.size));
        cellList.push(id);
      }
    cellStart[i + 1] = cellList.length;
  }
  return cellList;
}

/** The cases' sentence counts that have coverage endings (1 … MOST_NUMERATORS − 1), each once, in order of first appearance. */
function tailCounts(cases: readonly SliceCase[]): number[] {
  const seen = new Uint8Array(MOST_NUMERATORS);
  const counts: number[] = [];
  for (let i = 0; i < cases.length; i++) {
    const count = cases[i]!.sentenceCount;
    if (!(count >= 1 && count < MOST_NUMERATORS) || seen[count] !== 0) continue;
    seen[count] = 1;
    counts.push(count);
  }
  return counts;
}

/** Where layCases writes each case's columns: indices into the memory's bytes, or its ints for the 32-bit columns. */
interface CasePlaces {
  slot: number;
  label: number;
  gold: number;
  sentences: number;
  tailTables: number;
  /** The case parts' fragment table, and the byte where their bytes start. */
  partTable: number;
  partBytes: number;
}

/**
 * Each case's columns in the module's memory: its slot, label, gold count, sentence count, its
 * coverage endings' table (tailTableAt by sentence count; 0, none, for a count without one) and
 * its parts' two fragments (part k of case i is parts.bytes[starts[2i + k] … starts[2i + k + 1])).
 */
function layCases(cases: readonly SliceCase[], bytes: Uint8Array, ints: Int32Array, at: CasePlaces, starts: Int32Array, tailTableAt: Int32Array): void {
  const { slot, label, gold, sentences, tailTables, partTable, partBytes } = at;
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!;
    ints[slot + i] = c.index;
    bytes[label + i] = c.label ? 1 : 0;
    ints[gold + i] = c.gold.length;
    ints[sentences + i] = c.sentenceCount;
    ints[tailTables + i] = tailTableAt[c.sentenceCount] ?? 0;
    const k = 2 * i;
    ints[partTable + 2 * k] = partBytes + starts[k]!;
    ints[partTable + 2 * k + 1] = starts[k + 1]! - starts[k]!;
    ints[partTable + 2 * k + 2] = partBytes + starts[k + 1]!;
    ints[partTable + 2 * k + 3] = starts[k + 2]! - starts[k + 1]!;
  }
}

/**
 * The pass of an eval of `cases` over `table`, laid out, to `sum`, add and write; undefined when
 * range.ts aggregates it instead: no runs or no cases, a case whose missing prediction cannot be
 * scored (range.ts then reports it as it always has), or more memory than MOST_PASS_BYTES. `sum`
 * turns down an eval with a cell the module does not render: a coverage that is not k / n of its
 * case's sentence count, an accuracy reward outside its bins, a negative evidence ID.
 */
export function denseRangePass(cases: readonly SliceCase[], table: RunTable, keys: PassRunKeys, options: ScoreOptions): DenseRangePass | undefined {
  const R = table.keys.length;
  if (R === 0 || cases.length === 0) return undefined;
  const missing = missingPredictions(cases, options);
  if (missing === undefined) return undefined;
  const n = cases.length;
  const E = table.entries;
  const idCount = table.evidenceLength;
  // The biggest columns alone (slots, records, per-run sums, entry columns): an eval past the bound
  // on these is turned down before anything is rendered for it.
  if (4 * R * table.caseCount + RECORD_BYTES * R * n + 8 * R * RUN_SUM_FIELDS.length + ENTRY_BYTES * E > MOST_PASS_BYTES) return undefined;
  const parts = caseLineParts(cases);
  if (parts === undefined) return undefined;
  // Each loop over the cases is a function of its own that ends with it: V8 compiles a loop on the
  // fly, and code after it that had not run yet sent it back to the interpreter.
  const cellIndex = new Map<string, number>();
  const cellStart = new Int32Array(n + 1);
  const cellList = caseCells(cases, cellIndex, cellStart);
  // Each sentence count's coverage endings, k / n for k = 0 … n.
  const tailPieces = new Map<number, Uint8Array[]>();
  let longestTail = 0;
  for (const count of tailCounts(cases)) {
    const tails = coverageTailsOf(count);
    const pieces = Array.from({ length: count + 1 }, (_, k) => tails.bytesOf(k));
    for (const piece of pieces) longestTail = Math.max(longestTail, piece.length);
    tailPieces.set(count, pieces);
  }
  const fixedPieces = [RUN_LINE_FRAGMENTS.run, RUN_LINE_FRAGMENTS.line];
  const judgmentPieces = RUN_LINE_FRAGMENTS.judgment.flat();
  let longestKey = 0;
  for (let r = 0; r < R; r++) longestKey = Math.max(longestKey, keys.start[r + 1]! - keys.start[r]!);
  const mostIds = table.mostEvidence;
  const longestRunLine =
    fixedPieces[0]!.length +
    longestKey +
    fixedPieces[1]!.length +
    UINT_BYTES +
    Math.max(...judgmentPieces.map((p) => p.length)) +
    mostIds * UINT_BYTES +
    longestTail;
  const caseFixedPieces = [
    CASE_LINE_FRAGMENTS.idOpen,
    CASE_LINE_FRAGMENTS.index,
    ...CASE_LINE_FRAGMENTS.labelGold,
    CASE_LINE_FRAGMENTS.sentenceCount,
    CASE_LINE_FRAGMENTS.end,
  ];
  const longestCaseLine = caseFixedPieces.reduce((sum, p) => sum + p.length, 0) + parts.longest;
  const outputBytes = Math.max(OUTPUT_BYTES, 4 * Math.max(longestCaseLine, longestRunLine));

  const F = RUN_SUM_FIELDS.length;
  const BF = BREAKDOWN_FIELDS.length;
  const runStep = Math.max(1, rangeRuns(R));
  const cellCount = cellIndex.size;
  // Claimed from after the module's own data; nothing is written until the memory is made.
  const layout = new Layout(0);
  const at = {
    slot: layout.claim(4 * n),
    label: layout.claim(n),
    gold: layout.claim(4 * n),
    sentences: layout.claim(4 * n),
    missJudgment: layout.claim(n),
    missPredicted: layout.claim(4 * n),
    missMatched: layout.claim(4 * n),
    missCoverage: layout.claim(8 * n),
    missAccuracy: layout.claim(8 * n),
    cellStart: layout.claim(4 * (n + 1)),
    cellIds: layout.claim(4 * cellList.length),
    caseParts: layout.claim(16 * n + parts.bytes.length),
    caseGoldStart: layout.claim(4 * (n + 1)),
    caseGoldIds: layout.claim(4 * parts.gold.length),
    caseFixed: layout.claim(fragmentTableBytes(caseFixedPieces)),
    tailTables: layout.claim(4 * n),
    tails: layout.claim([...tailPieces.values()].reduce((sum, pieces) => sum + align8(fragmentTableBytes(pieces)), 0)),
    runKeys: layout.claim(8 * R + keys.data.length),
    fixed: layout.claim(fragmentTableBytes(fixedPieces)),
    judgments: layout.claim(fragmentTableBytes(judgmentPieces)),
    sums: layout.claim(8 * R * F),
    cellSums: layout.claim(4 * cellCount * R * BF),
    fieldTable: layout.claim(4 * (PASS_RUN_FIELDS.length + PASS_CELL_FIELDS.length)),
    codes: layout.claim(R * n),
    present: layout.claim(R * n),
    judgmentColumn: layout.claim(R * n),
    reasonCounts: layout.claim(8 * CASE_REASONS.length),
    histogram: layout.claim(8 * REWARD_HISTOGRAM_SLOTS),
    partial: layout.claim(8 * runStep * F),
    records: layout.claim(RECORD_BYTES * R * n),
    missing: layout.claim(8 * EXAMPLES_PER_REASON),
    caseFailed: layout.claim(n),
    caseBits: layout.claim(n),
    caseRewardSum: layout.claim(8 * n),
    caseReasons: layout.claim(4 * n),
    summaryBits: layout.claim(4 * SUMMARY_BIT_TABLE.length),
    output: [layout.claim(outputBytes), layout.claim(outputBytes)],
    layout: layout.claim(4 * LAYOUT_ROOM),
  };
  const tableColumns: TableColumns = [
    ["slots", table.cell.subarray(0, R * table.caseCount)],
    ["line", table.line.subarray(0, E)],
    ["judgment", table.judgment.subarray(0, E)],
    ["reason", table.reason.subarray(0, E)],
    ["coverage", table.coverage.subarray(0, E)],
    ["accuracy", table.rewardAccuracy.subarray(0, E)],
    ["matched", table.matched.subarray(0, E)],
    ["evStart", table.evStart.subarray(0, E)],
    ["evLength", table.evLength.subarray(0, E)],
    ["ids", table.evidenceIds.subarray(0, idCount)],
  ];
  // In the table's arena when it has room, else in one of the pass's own, the columns copied in.
  let arena = table.arena;
  let placed = arena === undefined ? undefined : placePass(arena, layout.end, tableColumns);
  if (placed === undefined) {
    arena = passArena();
    placed = arena === undefined ? undefined : placePass(arena, layout.end, tableColumns);
  }
  // The process cannot have that much more memory: range.ts's ranges need less at a time.
  if (arena === undefined || placed === undefined) return undefined;
  let wasm: RangePassExports;
  try {
    wasm = instantiateOn<RangePassExports>(RANGE_PASS_WASM, "range-pass", arena);
  } catch {
    return undefined;
  }
  const { base, columnAt } = placed;
  const column = (name: string): number => columnAt.get(name)!;
  const to = (offset: number): number => base + offset;
  const buffer = arena.buffer;
  const bytes = new Uint8Array(buffer);
  const ints = new Int32Array(buffer);
  const floats = new Float64Array(buffer);

  bytes.set(missing.judgment, to(at.missJudgment));
  ints.set(missing.predicted, to(at.missPredicted) >> 2);
  ints.set(missing.matched, to(at.missMatched) >> 2);
  floats.set(missing.coverage, to(at.missCoverage) >> 3);
  floats.set(missing.accuracy, to(at.missAccuracy) >> 3);
  ints.set(cellStart, to(at.cellStart) >> 2);
  ints.set(cellList, to(at.cellIds) >> 2);
  const partTable = to(at.caseParts);
  const partBytes = partTable + 16 * n;
  bytes.set(parts.bytes, partBytes);
  ints.set(parts.goldStart, to(at.caseGoldStart) >> 2);
  ints.set(parts.gold, to(at.caseGoldIds) >> 2);
  putFragmentTable(bytes, ints, to(at.caseFixed), caseFixedPieces);
  const tailTableAt = new Int32Array(MOST_NUMERATORS);
  let tailAt = to(at.tails);
  for (const [count, pieces] of tailPieces) {
    putFragmentTable(bytes, ints, tailAt, pieces);
    tailTableAt[count] = tailAt;
    tailAt += align8(fragmentTableBytes(pieces));
  }
  layCases(
    cases,
    bytes,
    ints,
    {
      slot: to(at.slot) >> 2,
      label: to(at.label),
      gold: to(at.gold) >> 2,
      sentences: to(at.sentences) >> 2,
      tailTables: to(at.tailTables) >> 2,
      partTable: partTable >> 2,
      partBytes,
    },
    parts.starts,
    tailTableAt,
  );

  // The run lines' fragments.
  const keyTable = to(at.runKeys);
  bytes.set(keys.data.subarray(keys.start[0]!, keys.start[R]!), keyTable + 8 * R);
  for (let r = 0; r < R; r++) {
    ints[(keyTable >> 2) + 2 * r] = keyTable + 8 * R + keys.start[r]! - keys.start[0]!;
    ints[(keyTable >> 2) + 2 * r + 1] = keys.start[r + 1]! - keys.start[r]!;
  }
  putFragmentTable(bytes, ints, to(at.fixed), fixedPieces);
  putFragmentTable(bytes, ints, to(at.judgments), judgmentPieces);
  const fieldTable = to(at.fieldTable) >> 2;
  PASS_RUN_FIELDS.forEach((field, k) => (ints[fieldTable + k] = RUN_SUM_FIELDS.indexOf(field)));
  PASS_CELL_FIELDS.forEach((field, k) => (ints[fieldTable + PASS_RUN_FIELDS.length + k] = BREAKDOWN_FIELDS.indexOf(field)));

  // The layout, in the order the module's setLayout reads it.
  const layoutTable = [
    n,
    to(at.slot),
    to(at.label),
    to(at.gold),
    to(at.sentences),
    to(at.missJudgment),
    to(at.missPredicted),
    to(at.missMatched),
    to(at.missCoverage),
    to(at.missAccuracy),
    to(at.cellStart),
    to(at.cellIds),
    partTable,
    to(at.caseGoldStart),
    to(at.caseGoldIds),
    to(at.caseFixed),
    to(at.tailTables),
    R,
    table.caseCount,
    column("slots"),
    column("line"),
    column("judgment"),
    column("reason"),
    column("coverage"),
    column("accuracy"),
    column("matched"),
    column("evStart"),
    column("evLength"),
    column("ids"),
    rangeCases(R),
    runStep,
    keyTable,
    to(at.fixed),
    to(at.judgments),
    RUN_LINE_FRAGMENTS.judgment[0]!.length,
    to(at.sums),
    F,
    to(at.cellSums),
    BF,
    to(at.fieldTable),
    to(at.codes),
    to(at.present),
    to(at.judgmentColumn),
    to(at.reasonCounts),
    to(at.histogram),
    to(at.partial),
    to(at.records),
    to(at.missing),
    EXAMPLES_PER_REASON,
    to(at.caseFailed),
    to(at.caseBits),
    to(at.caseRewardSum),
    to(at.caseReasons),
    to(at.summaryBits),
  ];
  if (layoutTable.length > LAYOUT_ROOM) throw new Error("range-pass: the layout table outgrew its room");
  ints.set(layoutTable, to(at.layout) >> 2);
  ints.set(SUMMARY_BIT_TABLE, to(at.summaryBits) >> 2);
  wasm.setLayout(to(at.layout));
  return new DenseRangePass(wasm, buffer, {
    caseSlice: passSlice(rangeCases(R), R),
    cases,
    runKeys: table.keys,
    cellKeys: [...cellIndex.keys()],
    at: {
      sums: to(at.sums),
      cellSums: to(at.cellSums),
      codes: to(at.codes),
      present: to(at.present),
      judgment: to(at.judgmentColumn),
      reasonCounts: to(at.reasonCounts),
      histogram: to(at.histogram),
      missing: to(at.missing),
      caseFailed: to(at.caseFailed),
      caseBits: to(at.caseBits),
      caseRewardSum: to(at.caseRewardSum),
      caseReasons: to(at.caseReasons),
      output: at.output.map(to),
    },
    outputBytes,
  });
}

interface PassPlaces {
  sums: number;
  cellSums: number;
  codes: number;
  present: number;
  judgment: number;
  reasonCounts: number;
  histogram: number;
  missing: number;
  caseFailed: number;
  caseBits: number;
  caseRewardSum: number;
  caseReasons: number;
  output: number[];
}

/** An eval laid out in the module's memory (denseRangePass): its totals, then its lines. */
export class DenseRangePass {
  constructor(
    private readonly wasm: RangePassExports,
    private readonly buffer: SharedArrayBuffer,
    private readonly laid: {
      /** Cases per call of sumRanges (whole ranges). */
      caseSlice: number;
      cases: readonly SliceCase[];
      runKeys: readonly string[];
      cellKeys: readonly string[];
      at: PassPlaces;
      outputBytes: number;
    },
  ) {}

  /**
   * Sums every cell in the module's memory: whether it took them all. False when a cell is one it
   * does not render (see denseRangePass): the eval is then range.ts's, and nothing of the pass is
   * to be read.
   */
  sum(): boolean {
    const { caseSlice, cases } = this.laid;
    for (let from = 0; from < cases.length; from += caseSlice) if (this.wasm.sumRanges(from, Math.min(cases.length, from + caseSlice)) !== 0) return false;
    return true;
  }

  /** Adds the sums (after `sum` took every cell) into `totals`, zeroed, of this eval's runs and cases: as range.ts's ranges added one by one would. */
  addInto(totals: CellTotals): void {
    const { cases, runKeys, cellKeys, at } = this.laid;
    const R = runKeys.length;
    const n = cases.length;
    const F = RUN_SUM_FIELDS.length;
    const BF = BREAKDOWN_FIELDS.length;
    const sums = new Float64Array(this.buffer, at.sums, R * F);
    for (let r = 0; r < R; r++) totals.sums.store(r, sums, r * F);
    const cellSums = new Int32Array(this.buffer, at.cellSums, cellKeys.length * R * BF);
    cellKeys.forEach((key, cell) => {
      const column = countColumn(R * BF, n);
      column.set(cellSums.subarray(cell * R * BF, (cell + 1) * R * BF));
      totals.cellSums.set(key, column);
    });
    totals.codes.set(new Uint8Array(this.buffer, at.codes, R * n));
    totals.judgments.present.set(new Uint8Array(this.buffer, at.present, R * n));
    totals.judgments.judgment.set(new Uint8Array(this.buffer, at.judgment, R * n));
    totals.reasonCounts.set(new Float64Array(this.buffer, at.reasonCounts, totals.reasonCounts.length));
    totals.histogramCounts.set(new Float64Array(this.buffer, at.histogram, totals.histogramCounts.length));
  }

  /**
   * cases.jsonl's bytes, in order, in views of the module's memory: two buffers taken in turn, so
   * a view stays as it is until the one after it has been asked for and the next one is being
   * made. The caller writes each before it asks for the one after next.
   */
  *lines(): Generator<Uint8Array> {
    const { at, outputBytes } = this.laid;
    this.wasm.startLines();
    for (let k = 0; !this.wasm.linesDone(); k ^= 1) {
      const start = at.output[k]!;
      const end = this.wasm.writeLines(start, start + outputBytes);
      // A buffer holds four of the longest line: one that takes none is a bug, not a loop.
      if (end === start) throw new Error("range-pass: a cases.jsonl line did not fit its buffer");
      yield new Uint8Array(this.buffer, start, end - start);
    }
  }

  /**
   * The case explorer's columns (after `sum` took every cell), copied out of the module's memory;
   * undefined when they do not stand for explorer.ts's tableSummary (a kept line without a line
   * number, a case with more than four reasons), which then reads the run table itself.
   */
  caseColumns(): PassCaseColumns | undefined {
    if (!this.wasm.summaryTaken()) return undefined;
    const { cases, runKeys, at } = this.laid;
    const n = cases.length;
    return {
      runs: runKeys.length,
      failed: new Uint8Array(this.buffer, at.caseFailed, n).slice(),
      bits: new Uint8Array(this.buffer, at.caseBits, n).slice(),
      rewardSum: new Float64Array(this.buffer, at.caseRewardSum, n).slice(),
      reasons: new Uint32Array(this.buffer, at.caseReasons, n).slice(),
    };
  }

  /** The first absent cells' examples, in cases.jsonl order (after `lines`). */
  missingExamples(): RejectionExample[] {
    const { cases, runKeys, at } = this.laid;
    const noted = new Int32Array(this.buffer, at.missing, 2 * this.wasm.missingNoted());
    const examples: RejectionExample[] = [];
    for (let k = 0; k < noted.length; k += 2) examples.push(missingExample(cases[noted[k]!]!, runKeys[noted[k + 1]!]!));
    return examples;
  }
}
