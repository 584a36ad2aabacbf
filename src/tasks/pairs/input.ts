// Reads a pair corpus (JSONL or CSV, docs/pairs.md, "Input") record by record, validating each one. Every bad
// record is counted under its reason with a precise `file:line`; none is dropped silently.
import type { RunObserver } from "../../io/observer.js";
import { readRecords } from "../../io/records.js";
import { parsePairRecord, type PairRecord } from "../../core/pairs/index.js";
import { located, InputError } from "../../io/errors.js";
import { heapInUse, heapWithin } from "../../io/input-contract.js";
import { listRejections } from "../../report/format.js";
import type { RejectionExample } from "../../report/types.js";
import { sha256Text } from "../../io/hashing.js";
import { shardOfCaseId, type Shard } from "../document/score-dump.js";
// In its own module, which `mari classify` loads without the rest of this one.
import { assertPairCorpus } from "./corpus-shape.js";

/** Examples of each list (rejections, unrecognised gold labels) kept in a report; the counts are always complete. */
export const MAX_EXAMPLES = 50;

export interface LocatedPair {
  pair: PairRecord;
  where: string;
  line: number | undefined;
}

/** What follows the location in an unrecognised gold label's example ("FILE:LINE: gold …"). */
export const GOLD_MESSAGE = ": gold ";

/**
 * What reading a corpus saw besides the usable pairs. With a shard, the counts cover that shard's
 * records only (a record belongs to the shard of its id; a record without a usable id to shard 0),
 * so shard reports add up exactly; `corpusPairs` and the slice hash always cover the whole file.
 */

export class PairInputStats {
  records = 0;
  pairs = 0;
  corpusPairs = 0;
  /** reason code → count. */
  readonly rejections: Record<string, number> = {};
  readonly examples: RejectionExample[] = [];
  unrecognisedGold = 0;
  readonly unrecognisedGoldExamples: string[] = [];
  private readonly caseHashes: string[] = [];

  reject(where: string, reason: string, message: string): void {
    this.rejections[reason] = (this.rejections[reason] ?? 0) + 1;
    if (this.examples.length < MAX_EXAMPLES) this.examples.push({ where, reason, message });
  }

  get rejected(): number {
    return Object.values(this.rejections).reduce((a, b) => a + b, 0);
  }

  /** A usable pair anywhere in the file: its scored fields identify the corpus (not extra columns). */
  hashPair(pair: PairRecord): void {
    this.corpusPairs++;
    this.caseHashes.push(sha256Text(JSON.stringify([pair.id, pair.newText, pair.oldText, pair.gold, pair.kind])));
  }

  /** A usable pair of this shard. */
  accept(located: LocatedPair): void {
    this.pairs++;
    if (located.pair.unrecognisedGold !== undefined) {
      this.unrecognisedGold++;
      if (this.unrecognisedGoldExamples.length < MAX_EXAMPLES) {
        this.unrecognisedGoldExamples.push(
          `${located.where}${GOLD_MESSAGE}${JSON.stringify(located.pair.unrecognisedGold)} is not distinct, restatement or update`,
        );
      }
    }
  }

  /** sha256 over the sorted per-pair hashes (as for document slices): the corpus's content, order-free. */
  sliceHash(): string {
    return sha256Text([...this.caseHashes].sort().join("\n"));
  }
}

function recordShard(record: Record<string, unknown> | undefined, shard: Shard): number {
  const id = record?.id;
  return typeof id === "string" && id !== "" ? shardOfCaseId(id, shard.count) : 0;
}

/** Records read between two checks of the heap (a check reads V8's heap statistics, about a microsecond). */
const HEAP_CHECK_RECORDS = 1024;

/**
 * Yields the usable pairs (of `shard`, when given) in input order; rejections (unreadable lines,
 * bad fields, a repeated id: the first record with an id wins) go into `stats`. An unreadable file
 * is an InputError.
 */
export async function* readPairs(path: string, stats: PairInputStats, shard?: Shard): AsyncGenerator<LocatedPair> {
  // id → where it was first seen: a line number where there is one (smaller than the location text).
  const firstSeen = new Map<string, number | string>();
  let shapeChecked = false;
  // What the read keeps (each id, each pair's hash) and what a caller holds of the pairs (a sweep
  // holds them all) grow with the corpus: one too large for the heap stops with its own error.
  const heapAtStart = heapInUse();
  let read = 0;
  try {
    for await (const item of readRecords(path)) {
      if (++read % HEAP_CHECK_RECORDS === 0) {
        heapWithin(path, "the pair corpus", heapAtStart, read, "records");
      }
      if (!shapeChecked && !item.error) {
        shapeChecked = true;
        assertPairCorpus(path, item.record, item.where);
      }
      const ours = shard === undefined || recordShard(item.record, shard) === shard.index;
      if (ours) stats.records++;
      if (item.error) {
        if (ours) stats.reject(item.where, item.error.code, item.error.message);
        continue;
      }
      const parsed = parsePairRecord(item.record);
      if ("error" in parsed) {
        if (ours) stats.reject(item.where, parsed.error.code, parsed.error.message);
        continue;
      }
      const id = parsed.pair.id;
      const first = firstSeen.get(id);
      if (first !== undefined) {
        const firstWhere = typeof first === "number" ? `${path}:${first}` : first;
        if (ours) stats.reject(item.where, "duplicate_id", `duplicate id ${JSON.stringify(id)} (first seen at ${firstWhere}); this record is not used`);
        continue;
      }
      firstSeen.set(id, item.line ?? item.where);
      stats.hashPair(parsed.pair);
      if (!ours) continue;
      const result: LocatedPair = { pair: parsed.pair, where: item.where, line: item.line };
      stats.accept(result);
      yield result;
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") {
      throw new InputError(located(path, undefined, `cannot read the pair file (${code})`));
    }
    throw err;
  }
}

/** Tells the observer the rejected records by the one listing rule (report/format.ts listRejections). */
export function logRejections(stats: PairInputStats, observer: RunObserver): void {
  for (const line of listRejections(stats.examples, stats.rejected)) observer.log(line);
}
