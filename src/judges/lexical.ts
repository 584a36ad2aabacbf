// The built-in lexical judge: an offline, deterministic BASELINE. Within a document, each later
// sentence is classified as "new" against each earlier sentence as "old" with the `contradict`
// classifier; an `update` verdict is contradiction evidence.
//
// Which pairs are compared: only pairs that could possibly be an update. The classifier calls a
// pair `distinct` unless overlap = |shared tokens| / min(|N|, |O|) ≥ overlapFloor, so with the
// classifier's own content tokens in an inverted index we count, for each sentence, the tokens it
// shares with every earlier sentence and classify only the pairs that clear the floor. The pruning
// is exact (the verdicts are those of classifying all n(n−1)/2 pairs) as long as overlapFloor > 0;
// with a zero floor every pair is compared. Cost: one feature extraction per sentence, plus the
// posting-list walk (Σ over tokens of (occurrences choose 2), small unless a token is everywhere),
// plus one classifier call per surviving pair.
import {
  classifyFeatures,
  DEFAULT_CONFIG,
  extractFeatures,
  type ClassifierConfig,
  type TextFeatures,
} from "../core/classifier/index.js";
import { predictionLine, type JudgeCase, type Prediction } from "./types.js";

export const LEXICAL_JUDGE_NAME = "lexical";
/** Said in every report that evaluates this judge's predictions. */
export const LEXICAL_JUDGE_NOTE =
  "Predictions from mari's built-in lexical judge: a word-overlap baseline (the contradict classifier over sentence pairs), not a model of meaning.";

export interface LexicalFinding {
  /** 1-based ids: `older` is the "old" text, `newer` the "new" one. */
  older: number;
  newer: number;
  reason: string;
}

export interface LexicalJudgment {
  judgment: boolean;
  evidenceSentenceIds: number[];
  reasoning: string;
  findings: LexicalFinding[];
  /** Pairs handed to the classifier (the rest were pruned as certainly distinct). */
  comparedPairs: number;
}

/** Pairs (i < j) whose token overlap reaches the classifier's floor, by shared-token counts. */
function candidatePairs(features: readonly TextFeatures[], overlapFloor: number): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  if (!(overlapFloor > 0)) {
    for (let j = 1; j < features.length; j++) for (let i = 0; i < j; i++) pairs.push([i, j]);
    return pairs;
  }
  const postings = new Map<string, number[]>();
  const sharedCounts = new Int32Array(features.length);
  const touched: number[] = [];
  for (let j = 0; j < features.length; j++) {
    const tokens = features[j]!.tokens;
    for (const token of tokens) {
      const list = postings.get(token);
      if (list === undefined) {
        postings.set(token, [j]);
        continue;
      }
      for (const i of list) {
        if (sharedCounts[i] === 0) touched.push(i);
        sharedCounts[i]!++;
      }
      list.push(j);
    }
    touched.sort((a, b) => a - b);
    for (const i of touched) {
      const shared = sharedCounts[i]!;
      sharedCounts[i] = 0;
      if (shared / Math.min(tokens.size, features[i]!.tokens.size) >= overlapFloor) pairs.push([i, j]);
    }
    touched.length = 0;
  }
  return pairs;
}

export function judgeDocumentLexically(
  sentences: readonly string[],
  config: Readonly<ClassifierConfig> = DEFAULT_CONFIG,
): LexicalJudgment {
  const features = sentences.map((sentence) => extractFeatures(sentence));
  const pairs = candidatePairs(features, config.overlapFloor);
  const findings: LexicalFinding[] = [];
  for (const [i, j] of pairs) {
    const verdict = classifyFeatures(features[j]!, features[i]!, config);
    if (verdict.class === "update") findings.push({ older: i + 1, newer: j + 1, reason: verdict.reason });
  }
  const evidence = new Set<number>();
  for (const f of findings) {
    evidence.add(f.older);
    evidence.add(f.newer);
  }
  const reasoning =
    findings.length === 0
      ? `No update verdict among ${pairs.length} compared sentence pairs (lexical baseline).`
      : findings.map((f) => `[${f.older}] vs [${f.newer}]: ${f.reason}`).join("; ");
  return {
    judgment: findings.length > 0,
    evidenceSentenceIds: [...evidence].sort((a, b) => a - b),
    reasoning,
    findings,
    comparedPairs: pairs.length,
  };
}

/** One prediction per case (run 0), in the order given. */
export function runLexicalJudge(
  cases: Iterable<JudgeCase>,
  config: Readonly<ClassifierConfig> = DEFAULT_CONFIG,
): Prediction[] {
  const predictions: Prediction[] = [];
  for (const judgeCase of cases) {
    const result = judgeDocumentLexically(judgeCase.sentences, config);
    predictions.push(
      predictionLine(judgeCase.id, 0, {
        judgment: result.judgment,
        evidence_sentence_ids: result.evidenceSentenceIds,
        reasoning: result.reasoning,
      }),
    );
  }
  return predictions;
}
