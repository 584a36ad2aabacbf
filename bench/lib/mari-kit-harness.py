"""mari-kit's side of `node bench/mari-kit.mjs`: scores a prediction dump against a document slice
the way mari-kit's benchmark does (docs/eval.md, "Performance"): sentences split on whitespace
after . ! ?, gold = the sentence of highest token Jaccard with each evidence string, each dump line
validated and rewarded with mari_kit.verification.contradiction; a validation error makes the
prediction format-invalid and negative. Prints the line count and the summed accuracy reward.

    python3 bench/lib/mari-kit-harness.py SLICE.jsonl DUMP.jsonl
"""
import json
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
    lines = 0
    accuracy = 0.0
    with open(dump_path, encoding="utf-8") as f:
        for text in f:
            line = json.loads(text)
            n, label, gold = cases[line.get("case_id", line.get("id"))]
            format_valid = True
            try:
                judgment, evidence, reasoning = prediction(line)
                assessment = validate_document_contradiction(n, judgment, tuple(evidence), reasoning)
            except (KeyError, TypeError, ValueError):
                format_valid = False
                assessment = validate_document_contradiction(n, False, (), "")
            rewards = document_contradiction_rewards(assessment, label, gold, format_valid=format_valid)
            accuracy += rewards.accuracy
            lines += 1
    print(json.dumps({"lines": lines, "accuracy_sum": accuracy}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
