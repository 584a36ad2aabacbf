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
import { classifyFeatures, DEFAULT_CONFIG, extractFeatures, type ClassifierConfig, type TextFeatures } from "../core/classifier/index.js";
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

/**
 * Findings kept and cited one by one in the reasoning. A long document of near-identical sentences
 * can have a quadratic number of update verdicts; past this many, the reasoning names the remaining
 * sentences without repeating every pair, so it stays bounded by the document's length.
 */
export const MAX_CITED_FINDINGS = 1000;

export interface LexicalJudgment {
  judgment: boolean;
  evidenceSentenceIds: number[];
  reasoning: string;
  /** The first MAX_CITED_FINDINGS update verdicts, in order of the newer then the older sentence. */
  findings: LexicalFinding[];
  /** Every update verdict, including those beyond `findings`. */
  findingCount: number;
  /** Pairs handed to the classifier (the rest were pruned as certainly distinct). */
  comparedPairs: number;
}

/**
 * Visits the pairs (i < j, in order of j then i) whose token overlap reaches the classifier's floor,
 * by shared-token counts, and returns how many there were. Pairs are visited, never collected: a
 * long document of near-identical sentences has a quadratic number of them.
 */
function forEachCandidatePair(features: readonly TextFeatures[], overlapFloor: number, visit: (i: number, j: number) => void): number {
  let count = 0;
  if (!(overlapFloor > 0)) {
    for (let j = 1; j < features.length; j++) {
      for (let i = 0; i < j; i++) {
        visit(i, j);
        count++;
      }
    }
    return count;
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
      if (shared / Math.min(tokens.size, features[i]!.tokens.size) >= overlapFloor) {
        visit(i, j);
        count++;
      }
    }
    touched.length = 0;
  }
  return count;
}

export function judgeDocumentLexically(sentences: readonly string[], config: Readonly<ClassifierConfig> = DEFAULT_CONFIG): LexicalJudgment {
  const features = sentences.map((sentence) => extractFeatures(sentence));
  const findings: LexicalFinding[] = [];
  const evidence = new Set<number>();
  let findingCount = 0;
  const compared = forEachCandidatePair(features, config.overlapFloor, (i, j) => {
    const verdict = classifyFeatures(features[j]!, features[i]!, config);
    if (verdict.class !== "update") return;
    findingCount++;
    evidence.add(i + 1);
    evidence.add(j + 1);
    if (findings.length < MAX_CITED_FINDINGS) findings.push({ older: i + 1, newer: j + 1, reason: verdict.reason });
  });
  let reasoning =
    findingCount === 0
      ? `No update verdict among ${compared} compared sentence pairs (lexical baseline).`
      : findings.map((f) => `[${f.older}] vs [${f.newer}]: ${f.reason}`).join("; ");
  if (findingCount > findings.length) {
    // Every sentence in an update verdict is still cited once, so reference coverage is unchanged.
    const cited = new Set<number>();
    for (const f of findings) {
      cited.add(f.older);
      cited.add(f.newer);
    }
    const rest = [...evidence].filter((id) => !cited.has(id)).sort((a, b) => a - b);
    reasoning += `; and ${findingCount - findings.length} more update verdicts${rest.length > 0 ? ` involving ${rest.map((id) => `[${id}]`).join(" ")}` : ""}`;
  }
  return {
    judgment: findingCount > 0,
    evidenceSentenceIds: [...evidence].sort((a, b) => a - b),
    reasoning,
    findings,
    findingCount,
    comparedPairs: compared,
  };
}

/** One prediction per case (run 0), in the order given. */
export function runLexicalJudge(cases: Iterable<JudgeCase>, config: Readonly<ClassifierConfig> = DEFAULT_CONFIG): Prediction[] {
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
