// An eval's own side of a `--baseline` comparison, made from its run table in memory rather than
// by reading back the cases.jsonl it just wrote from that table: on the 1M bench that reading was
// half the extra CPU of `--baseline`. The side is the one readDocumentSide gives for the file, call
// for call: the written cases in order, each case's runs in run order, an absent (case, run) as the
// missing-prediction line the file has for it (dense) or stands for (sparse), each unit's classes
// and values as the reader's (DocumentRunUnit, after matchedEvidence and decideRun).
import { PairedSide } from "../../gates/paired-side.js";
import { DocumentRunUnit } from "../../gates/side-reader.js";
import { decideRun, matchedEvidence, newRunDecision } from "../../report/document-cases.js";
import type { SliceCase } from "../../io/slice.js";
import { headerOf } from "./explorer.js";
import type { RunTable } from "./run-table.js";
import { CASE_REASONS } from "./score.js";

/**
 * The side of the cases.jsonl written from `table` for `cases` (the cases the eval scored, in the
 * order it wrote them); undefined when an entry has what the file's reader refuses (no line number,
 * a coverage that is not a number), so that the caller reads the file instead.
 */
export function tableSide(table: RunTable, cases: readonly SliceCase[]): PairedSide | undefined {
  const { keys, coverage, reason, judgment, evStart, evLength, evidenceIds } = table;
  for (let e = 0; e < table.entries; e++) if (table.refusedOnReadBack(e)) return undefined;
  const side = new PairedSide();
  const unit = new DocumentRunUnit(side);
  const decision = newRunDecision();
  // Each run's index in the side, interned when its first unit is added, as the reader meets it.
  const runOf = new Int32Array(keys.length).fill(-1);
  for (const c of cases) {
    const header = headerOf(c);
    // Interned at its first unit, as the reader interns it (a slice without runs gives none).
    let caseIdx = -1;
    for (let r = 0; r < keys.length; r++) {
      const e = table.entry(r, c.index);
      if (e < 0) {
        // The missing-prediction line: judgment false, not valid, no evidence, coverage 0.
        unit.take(c.label, false, false, 0, decideRun(decision, header, false, false, 0, 0, 0));
      } else {
        const valid = CASE_REASONS[reason[e]!] === null;
        const from = evStart[e]!;
        const count = evLength[e]!;
        const matched = matchedEvidence(header.goldSet, evidenceIds, from, from + count);
        unit.take(c.label, judgment[e] === 1, valid, coverage[e]!, decideRun(decision, header, judgment[e] === 1, valid, count, matched, coverage[e]!));
      }
      if (caseIdx < 0) caseIdx = side.caseFor(c.id);
      if (runOf[r]! < 0) runOf[r] = side.runs.add(keys[r]!);
      side.addUnit(caseIdx, runOf[r]!, unit.gold, unit.predicted, unit.keys, unit.values, unit.count);
    }
  }
  return side;
}
