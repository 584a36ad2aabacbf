// The lines of a prediction dump, whatever file holds them: a JSONL file as it is; a Parquet file
// as one JSON line per row (row N where line N would be); an inspect_ai or promptfoo log as one
// line per sample or result (src/judges/eval-logs.ts); an lm-evaluation-harness samples file as one
// line per response (src/judges/lm-eval-samples.ts); a `mari serve --log` whose items carried their
// generation identity as its replay of one phase (serve-replay.ts). Every dump reader of `mari eval` (shape
// check, scoring, the case explorer's texts) takes its lines from here, so each of these files is
// scored by exactly the code that scores a JSONL dump. Scoring alone takes a Parquet dump's rows
// as the values of their fields (`dumpScoreBlocks`, io/parquet-rows.ts), which read as those lines.
import { stat } from "node:fs/promises";
import { fileIdentity, settledBefore } from "../../io/content-memo.js";
import { blockLines, readFileLineBlocks, type Line } from "../../io/lines.js";
import { isParquetFile } from "../../io/magic.js";
import type { DumpRowBlock } from "../../io/parquet-rows.js";
import type { EvalLogOptions } from "../../judges/eval-logs.js";
import { detectEvalLog, detectLmEvalSamples, type EvalLogKind } from "../../judges/log-kind.js";
import { isIdentifiedServeLog, serveReplay, type ReplayPhase } from "./serve-replay.js";

/**
 * A block of whole JSONL lines. A raw one is the file's own bytes (they hash to the file's sha256
 * and have offsets in it), read through the reader's one buffer: a view of it, valid until the next
 * block is asked for (whoever keeps it longer, or moves it to a thread, copies it), with the ends
 * of its lines (`LineEnds`), as long-lived. Any other is made from another format, in a buffer of
 * its own.
 */
export type DumpBlock = {
  /** Number of the block's first line (Parquet: its first row; an eval log: its first sample or result). */
  firstLineNo: number;
  block: Buffer;
  /** Bytes of the file this block stands for (progress). */
  fileBytes: number;
} & ({ raw: true; lineEnds: Int32Array } | { raw: false });

export interface DumpSourceOptions extends EvalLogOptions {
  /** A serve log with generation identities: the phase replayed (default train). */
  phase?: ReplayPhase;
}

type DumpKind = "parquet" | "lm-eval-samples" | EvalLogKind | "serve-replay" | "jsonl";

/**
 * What holds the dump's lines, told from the content (lm-eval's results file is refused here). Every
 * reader of an eval asks (its shape check, scoring, the explorer's texts), and each sniffing reads
 * the file: the kind is told once per version of a file, its identity and times, when those times
 * are settled (content-memo.ts's rule: a file written again within the clock's tick would keep
 * them, so a file written less than SETTLED_NS ago is sniffed at every ask).
 */
async function dumpKind(path: string): Promise<DumpKind> {
  const info = await stat(path, { bigint: true }).catch(() => undefined);
  // A file that cannot be looked at is sniffed, to fail as its reader says.
  if (info === undefined || !settledBefore(info, BigInt(Date.now()) * 1_000_000n)) return sniffedKind(path);
  const version = fileIdentity(info);
  const known = kindsTold.get(path);
  if (known !== undefined && known.version === version) return known.kind;
  const told = { version, kind: sniffedKind(path) };
  kindsTold.set(path, told);
  // A refusal (lm-eval's results file, a file that went away) is told again at the next ask.
  told.kind.catch(() => {
    if (kindsTold.get(path) === told) kindsTold.delete(path);
  });
  return told.kind;
}

/** Each dump path's kind, with the version of the file it was told for (dumpKind). */
const kindsTold = new Map<string, { version: string; kind: Promise<DumpKind> }>();

async function sniffedKind(path: string): Promise<DumpKind> {
  if (await isParquetFile(path)) return "parquet";
  if (await detectLmEvalSamples(path, (await stat(path)).size)) return "lm-eval-samples";
  const log = await detectEvalLog(path);
  if (log !== undefined) return log;
  return (await isIdentifiedServeLog(path)) ? "serve-replay" : "jsonl";
}

/** Whether the dump's lines are made from another format (no line offsets in the file). */
export async function isConvertedDump(path: string): Promise<boolean> {
  const kind = await dumpKind(path);
  return kind !== "jsonl" && kind !== "serve-replay";
}

/** Whether the dump is another tool's log, whose case ids `--id-field` may point at. */
export async function isToolLog(path: string): Promise<boolean> {
  const kind = await dumpKind(path);
  return kind !== "jsonl" && kind !== "parquet" && kind !== "serve-replay";
}

const LOG_BLOCK_LINES = 4096;
const INVALID_UTF8_LINE = Buffer.from([0xff, 0x0a]);

export async function* dumpLineBlocks(path: string, options: DumpSourceOptions = {}): AsyncGenerator<DumpBlock> {
  const kind = await dumpKind(path);
  // The reader of each other format is loaded by the first dump in it: a JSONL dump loads none.
  if (kind === "parquet") {
    const { parquetLineBlocks } = await import("../../io/parquet.js");
    for await (const b of parquetLineBlocks(path)) yield { ...b, raw: false };
    return;
  }
  if (kind === "serve-replay") {
    const { blocks } = await serveReplay(path, options.phase ?? "train");
    for (const b of blocks) yield { ...b, fileBytes: b.block.length, raw: false };
    return;
  }
  if (kind !== "jsonl") {
    const lines =
      kind === "lm-eval-samples"
        ? await (await import("../../judges/lm-eval-samples.js")).lmEvalSampleLines(path, options)
        : await (await import("../../judges/eval-logs.js")).evalLogLines(path, kind, options);
    for (let first = 0; first < lines.length; first += LOG_BLOCK_LINES) {
      const parts = lines.slice(first, first + LOG_BLOCK_LINES).map((l) => (l === null ? INVALID_UTF8_LINE : Buffer.from(`${l}\n`, "utf8")));
      yield { firstLineNo: first + 1, block: Buffer.concat(parts), fileBytes: 0, raw: false };
    }
    return;
  }
  // A JSONL dump is read through one buffer, reused block after block: a fresh buffer per read (and
  // a second one joining each read's unfinished line to the next) was 2 × 178 MB of short-lived
  // memory on the 1M bench dump, for which V8 ran a full collection every ~70 ms of scoring.
  for await (const b of readFileLineBlocks(path)) yield { ...b, fileBytes: b.block.length, raw: true };
}

/**
 * What scoring reads: a Parquet dump's rows as the values of their fields (io/parquet-rows.ts), not
 * as lines to scan again; any other dump's lines (`dumpLineBlocks`).
 */
export async function* dumpScoreBlocks(path: string, options: DumpSourceOptions = {}): AsyncGenerator<DumpBlock | DumpRowBlock> {
  if (await isParquetFile(path)) yield* (await import("../../io/parquet-rows.js")).parquetDumpRows(path);
  else yield* dumpLineBlocks(path, options);
}

/** The dump's lines, decoded one at a time (its shape check reads the first few). */
export async function* dumpLines(path: string, options: DumpSourceOptions = {}): AsyncGenerator<Line> {
  for await (const { firstLineNo, block } of dumpLineBlocks(path, options)) yield* blockLines(block, firstLineNo);
}
