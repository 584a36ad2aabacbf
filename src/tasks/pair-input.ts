// Reads a pair corpus (JSONL or CSV, SPEC §2.2) record by record, validating each one. Every bad
// record is counted under its reason with a precise `file:line`; none is dropped silently.
import { readRecords } from "../io/records.js";
import { parsePairRecord, type PairRecord } from "../core/pairs/index.js";
import { located, InputError } from "../cli/errors.js";
import type { RejectionExample } from "../report/types.js";
import { canonicalJson, sha256Text } from "../report/system.js";
import { createHash } from "node:crypto";

/** Rejection examples kept in a report; the counts are always complete. */
const MAX_EXAMPLES = 50;

export interface LocatedPair {
  pair: PairRecord;
  where: string;
  line: number | undefined;
}

/** What reading a corpus saw besides the usable pairs. */
export class PairInputStats {
  records = 0;
  pairs = 0;
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

  accept(located: LocatedPair, record: Record<string, unknown>): void {
    this.pairs++;
    this.caseHashes.push(sha256Text(canonicalJson(record)));
    if (located.pair.unrecognisedGold !== undefined) {
      this.unrecognisedGold++;
      if (this.unrecognisedGoldExamples.length < MAX_EXAMPLES) {
        this.unrecognisedGoldExamples.push(`${located.where}: gold ${JSON.stringify(located.pair.unrecognisedGold)} is not distinct, restatement or update`);
      }
    }
  }

  /** sha256 over the sorted per-pair hashes: the corpus's content, independent of record order. */
  sliceHash(): string {
    const hash = createHash("sha256");
    for (const h of [...this.caseHashes].sort()) hash.update(`${h}\n`);
    return hash.digest("hex");
  }
}

/**
 * Yields the usable pairs in input order; rejections (unreadable lines, bad fields, a repeated id:
 * the first record with an id wins) go into `stats`. An unreadable file is an InputError.
 */
export async function* readPairs(path: string, stats: PairInputStats): AsyncGenerator<LocatedPair> {
  const firstSeen = new Map<string, string>();
  try {
    for await (const item of readRecords(path)) {
      stats.records++;
      if (item.error) {
        stats.reject(item.where, item.error.code, item.error.message);
        continue;
      }
      const parsed = parsePairRecord(item.record);
      if ("error" in parsed) {
        stats.reject(item.where, parsed.error.code, parsed.error.message);
        continue;
      }
      const id = parsed.pair.id;
      const first = firstSeen.get(id);
      if (first !== undefined) {
        stats.reject(item.where, "duplicate_id", `duplicate id ${JSON.stringify(id)} (first seen at ${first}); this record is not used`);
        continue;
      }
      firstSeen.set(id, item.where);
      const result: LocatedPair = { pair: parsed.pair, where: item.where, line: item.line };
      stats.accept(result, item.record);
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

/** Prints each kept rejection example as `mari: file:line: reason: message`, then the unshown count. */
export function writeRejections(stats: PairInputStats, stream: NodeJS.WritableStream): void {
  for (const ex of stats.examples) stream.write(`mari: ${ex.where}: ${ex.reason}: ${ex.message}\n`);
  const unshown = stats.rejected - stats.examples.length;
  if (unshown > 0) stream.write(`mari: … ${unshown} more rejected records (counts in the report)\n`);
}
