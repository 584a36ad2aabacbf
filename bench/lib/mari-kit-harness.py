"""mari-kit's side of `node bench/mari-kit.mjs`: scores a prediction dump against a document slice
the way mari-kit's benchmark does (docs/eval.md, "Performance"): sentences split on whitespace
after . ! ?, gold = the sentence of highest token Jaccard with each evidence string, each dump line
validated and rewarded with mari_kit.verification.contradiction; a validation error makes the
prediction format-invalid and negative. Like mari-kit's own benchmark loop, it keeps one record per
line (judgments, ids, localization hit, the rewards as a dict) and computes accuracy, macro-F1,
localization recall and the format-valid rate from them at the end; it prints those, the line count
and the summed accuracy reward (which must equal mari's: the bench checks it).

    python3 bench/lib/mari-kit-harness.py SLICE.jsonl DUMP.jsonl
"""
import json
from dataclasses import asdict
import re
import sys

from mari_kit.verification.contradiction import document_contradiction_rewards, validate_document_contradiction

SPLIT = re.compile(r"(?<=[.!?])\s+")
TOKEN = re.compile(r"[a-z0-9]+")
LAYOUT = re.compile(r"<think>\n(.*)\n</think>\n<answer>\nJudgment: (.*)\nEvidence: (.*)\n</answer>", re.S)


def tokens(text):
    return set(TOKEN.findall(text.casefold()))


def jaccard(a, b):
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def read_slice(path):
    cases = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            record = json.loads(line)
            sentences = [s.strip() for s in SPLIT.split(record["text"]) if s.strip()] or [record["text"].strip()]
            label = bool(record["label"])
            gold = set()
            evidence = record.get("evidence") or []
            for quote in [evidence] if isinstance(evidence, str) else evidence:
                if quote.strip():
                    quote_tokens = tokens(quote)
                    scores = [jaccard(quote_tokens, tokens(s)) for s in sentences]
                    gold.add(scores.index(max(scores)) + 1)
            cases[record["id"]] = (len(sentences), label, tuple(sorted(gold)))
    return cases


def prediction(line):
    source = line.get("prediction", line)
    if "judgment" not in source and "completion" in source:
        m = LAYOUT.fullmatch(source["completion"])
        if m is None:
            raise ValueError("completion layout")
        judgment = {"yes": True, "no": False, "true": True, "false": False}[m.group(2).lower()]
        return judgment, json.loads(m.group(3)), m.group(1)
    return source["judgment"], source.get("evidence_sentence_ids") or [], source.get("reasoning") or ""


def main(slice_path, dump_path):
    cases = read_slice(slice_path)
    rows = []
    with open(dump_path, encoding="utf-8") as f:
        for text in f:
            line = json.loads(text)
            n, label, gold = cases[line.get("case_id", line.get("id"))]
            format_valid = True
            try:
                judgment, evidence, reasoning = prediction(line)
                assessment = validate_document_contradiction(
                    sentence_count=n, judgment=bool(judgment), evidence_sentence_ids=tuple(evidence), reasoning=str(reasoning)
                )
            except (KeyError, TypeError, ValueError):
                format_valid = False
                assessment = validate_document_contradiction(sentence_count=n, judgment=False)
            rewards = document_contradiction_rewards(
                assessment, expected_judgment=label, gold_evidence_sentence_ids=gold, format_valid=format_valid
            )
            # One record per line, as mari-kit's own benchmark keeps per case.
            predicted = assessment.judgment
            rows.append(
                {
                    "expected_judgment": label,
                    "predicted_judgment": predicted,
                    "gold_evidence_sentence_ids": sorted(gold),
                    "predicted_evidence_sentence_ids": list(assessment.evidence_sentence_ids),
                    "reasoning_sentence_ids": list(assessment.reasoning_sentence_ids),
                    "format_valid": format_valid,
                    "judgment_correct": predicted == label,
                    "localization_hit": bool(set(gold) & set(assessment.evidence_sentence_ids)) if label else None,
                    "rewards": asdict(rewards),
                }
            )
    positive = [r for r in rows if r["expected_judgment"]]
    negative = [r for r in rows if not r["expected_judgment"]]
    tp = sum(r["predicted_judgment"] for r in positive)
    fp = sum(r["predicted_judgment"] for r in negative)
    fn, tn = len(positive) - tp, len(negative) - fp
    metrics = {
        "lines": len(rows),
        "accuracy_sum": sum(r["rewards"]["accuracy"] for r in rows),
        "accuracy": sum(r["judgment_correct"] for r in rows) / len(rows),
        "macro_f1": (f1(tp / max(1, tp + fp), tp / max(1, tp + fn)) + f1(tn / max(1, tn + fn), tn / max(1, tn + fp))) / 2,
        "localization_recall": sum(bool(r["localization_hit"]) for r in positive) / max(1, len(positive)),
        "format_valid_rate": sum(r["format_valid"] for r in rows) / len(rows),
    }
    print(json.dumps(metrics))


def f1(precision, recall):
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
