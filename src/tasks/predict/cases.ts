// The cases a judge is asked about: the slice read as the first phase of a `predict` run (records
// left out are said as warnings), cut to the first `limit` cases for a smoke test.
import type { Progress, RunObserver } from "../../io/observer.js";
import { readDocumentSliceStoredObserved } from "../../io/slice-store.js";
import { sliceRejectionWarnings, type SentenceRule, type SliceCase } from "../../io/slice-kept.js";

/** What every predict task reads. */
export interface JudgeSliceSettings {
  /** A document slice: JSONL, CSV or ContraDoc JSON. */
  slicePath: string;
  /** How texts become numbered sentences in the prompts (default mari's rule). */
  sentences?: SentenceRule | undefined;
  /** Where the compiled slice is kept between runs (`--cache-dir`; default: none). */
  sliceCacheDir?: string | undefined;
  /** Judge only the first N cases of the slice, in slice order. */
  limit?: number | undefined;
  /** Phases, warnings and notes (default: silent). */
  observer?: RunObserver | undefined;
}

export async function readJudgeCases(settings: JudgeSliceSettings, observer: RunObserver): Promise<SliceCase[]> {
  const slice = await readDocumentSliceStoredObserved(settings.slicePath, { sentences: settings.sentences ?? "mari" }, settings.sliceCacheDir, observer);
  for (const warning of sliceRejectionWarnings(slice)) observer.log(`warning: ${warning}`);
  return settings.limit === undefined ? slice.cases : slice.cases.slice(0, settings.limit);
}

/** The items, each counted on `progress` once the consumer asks for the next (it is then done with it). */
export function* counted<T>(items: Iterable<T>, progress: Progress, per = 1): Generator<T> {
  for (const item of items) {
    yield item;
    progress.tick(per);
  }
}
