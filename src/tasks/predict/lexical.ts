// `predictLexical`: the built-in lexical judge over a slice, its dump written to a file or stdout.
// Everything `mari predict --judge lexical` does except reading flags and printing.
import { inPhase, SILENT_OBSERVER, type RunObserver } from "../../io/observer.js";
import { oneRunEach } from "../../io/output-guard.js";
import { isClosedPipe, writePredictionDump } from "../../judges/dump-writer.js";
import { runLexicalJudge } from "../../judges/lexical.js";
import type { JudgeCase } from "../../judges/types.js";
import { counted, readJudgeCases, type JudgeSliceSettings } from "./cases.js";

export interface LexicalPredictSettings extends JudgeSliceSettings {
  /** The dump file (written atomically); absent or "-": stdout. */
  out?: string | undefined;
}

export interface LexicalPredictOutcome {
  cases: number;
  /** Cases judged contradictory. */
  positives: number;
}

/**
 * Judges the cases and writes their dump, as two phases. A closed stdout (`mari predict … | head`)
 * ends the writing early without an error: the reader wanted no more.
 */
export async function judgeLexically(cases: readonly JudgeCase[], out: string | undefined, observer: RunObserver): Promise<LexicalPredictOutcome> {
  const predictions = await inPhase(observer, "judge (cases)", cases.length, (progress) => runLexicalJudge(counted(cases, progress)));
  try {
    await inPhase(observer, "write dump (predictions)", predictions.length, (progress) => writePredictionDump(out ?? "-", counted(predictions, progress)));
  } catch (err) {
    if (!isClosedPipe(err)) throw err;
  }
  return { cases: predictions.length, positives: predictions.filter((p) => p.judgment === true).length };
}

export const predictLexical = oneRunEach(async (settings: LexicalPredictSettings): Promise<LexicalPredictOutcome> => {
  const observer = settings.observer ?? SILENT_OBSERVER;
  return judgeLexically(await readJudgeCases(settings, observer), settings.out, observer);
});
