"""mari-kit's side of `node bench/mari-kit.mjs`: scores a prediction dump against a document slice
with mari-kit's own validation and rewards (mari_kit.verification.contradiction), in one of two
forms (docs/eval.md, "Performance"):

--as-written OUT_DIR  mari-kit's benchmark loop as its `document-contradiction` suite writes it
    (in MariHQ/mari-kit's benchmarks), run once per dump line instead of once per case of its
    160-document slice: for every line, the document's sentences split on whitespace
    after . ! ?, gold = the sentence of highest token Jaccard with the case's evidence string (a
    positive case only), the prediction validated (a KeyError, TypeError or ValueError makes it
    format-invalid and negative) and rewarded, one record per line with the rewards as a dict;
    then the suite's metrics and its two result files, OUT_DIR/document-contradiction.json (with
    the suite's environment block: git commit, dirty flag, the runner's sha256, Python, platform)
    and OUT_DIR/document-contradiction.cases.jsonl (one sorted-keys JSON line per record). What
    differs from the suite: the slice and the dump are read instead of ContraDoc's JSON and the
    DeepSeek prediction cache, a raw completion is read through its layout into the suite's
    prediction fields, and the suite file's module imports (numpy and the other suites'
    components) are left out.

(no option)  a leaner form: each case's sentences and gold worked out once, the same per-line
    validation, rewards and records, the metrics printed as one JSON object with the line count
    and the summed accuracy reward, and no files written.

    python3 bench/lib/mari-kit-harness.py [--as-written OUT_DIR] SLICE.jsonl DUMP.jsonl
"""
import hashlib
import json
from dataclasses import asdict
from pathlib import Path
import platform
import re
import subprocess
import sys

from mari_kit.verification.contradiction import document_contradiction_rewards, validate_document_contradiction

SPLIT = re.compile(r"(?<=[.!?])\s+")
TOKEN = re.compile(r"[a-z0-9]+")
LAYOUT = re.compile(r"<think>\n(.*)\n</think>\n<answer>\nJudgment: (.*)\nEvidence: (.*)\n</answer>", re.S)
JUDGMENT_WORDS = {"yes": True, "no": False, "true": True, "false": False}


def tokens(text):
    return tuple(TOKEN.findall(str(text).casefold()))


def token_set(text):
    return set(tokens(text))


def jaccard(a, b):
    """Token Jaccard of two token sets."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def text_jaccard(left, right):
    """Token Jaccard of two texts, as the suite computes it: each text's tokens found again on every call."""
    a, b = token_set(left), token_set(right)
    return len(a & b) / len(a | b) if a or b else 0.0


def split_sentences(text):
    return [s.strip() for s in SPLIT.split(text) if s.strip()] or [text.strip()]


def read_slice_records(path):
    records = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                record = json.loads(line)
                records[record["id"]] = record
    return records


def prediction_fields(line):
    """The suite's prediction fields of a dump line: its own, or a raw completion's read through the layout."""
    source = line.get("prediction", line)
    if "judgment" not in source and "completion" in source:
        m = LAYOUT.fullmatch(source["completion"])
        if m is None:
            raise ValueError("completion layout")
        return {"judgment": JUDGMENT_WORDS[m.group(2).lower()], "evidence_sentence_ids": json.loads(m.group(3)), "reasoning": m.group(1)}
    return source


def assess(n, raw):
    """The suite's validation of one prediction: (assessment, format_valid)."""
    try:
        fields = prediction_fields(raw)
        assessment = validate_document_contradiction(
            sentence_count=n,
            judgment=bool(fields["judgment"]),
            evidence_sentence_ids=fields.get("evidence_sentence_ids", ()),
            reasoning=str(fields.get("reasoning", "")),
        )
        return assessment, True
    except (KeyError, TypeError, ValueError):
        return validate_document_contradiction(sentence_count=n, judgment=False), False


def record_of(case_id, expected, gold, assessment, format_valid):
    rewards = document_contradiction_rewards(assessment, expected_judgment=expected, gold_evidence_sentence_ids=gold, format_valid=format_valid)
    predicted = assessment.judgment
    return {
        "case_id": case_id,
        "expected_judgment": expected,
        "predicted_judgment": predicted,
        "gold_evidence_sentence_ids": sorted(gold),
        "predicted_evidence_sentence_ids": list(assessment.evidence_sentence_ids),
        "reasoning_sentence_ids": list(assessment.reasoning_sentence_ids),
        "format_valid": format_valid,
        "judgment_correct": predicted == expected,
        "localization_hit": bool(gold & set(assessment.evidence_sentence_ids)) if expected else None,
        "rewards": asdict(rewards),
    }


def f1(precision, recall):
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def mean(values):
    rows = tuple(values)
    return sum(rows) / len(rows) if rows else 0.0


def metrics_of(rows):
    positive = [r for r in rows if r["expected_judgment"]]
    negative = [r for r in rows if not r["expected_judgment"]]
    tp = sum(r["predicted_judgment"] for r in positive)
    fp = sum(r["predicted_judgment"] for r in negative)
    fn, tn = len(positive) - tp, len(negative) - fp
    positive_f1 = f1(tp / max(1, tp + fp), tp / max(1, tp + fn))
    negative_f1 = f1(tn / max(1, tn + fn), tn / max(1, tn + fp))
    return {
        "accuracy": mean(float(r["judgment_correct"]) for r in rows),
        "macro_f1": (positive_f1 + negative_f1) / 2,
        "positive_f1": positive_f1,
        "negative_f1": negative_f1,
        "localization_recall": mean(float(r["localization_hit"]) for r in positive),
        "format_valid_rate": mean(float(r["format_valid"]) for r in rows),
    }


def file_sha256(path):
    value = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1024 * 1024), b""):
            value.update(block)
    return value.hexdigest()


def environment():
    status = subprocess.check_output(["git", "status", "--porcelain"], text=True).splitlines()
    return {
        "mari_commit": subprocess.check_output(["git", "rev-parse", "HEAD"], text=True).strip(),
        "source_worktree_dirty": bool([row for row in status if not row[3:].startswith("benchmarks/results/")]),
        "runner_sha256": file_sha256(__file__),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
    }


def as_written(slice_path, dump_path, out_dir):
    corpus = read_slice_records(slice_path)
    rows = []
    with open(dump_path, encoding="utf-8") as f:
        for text in f:
            raw = json.loads(text)
            case_id = raw.get("case_id", raw.get("id"))
            row = corpus[case_id]
            expected = bool(row["label"])
            sentences = split_sentences(row["text"])
            gold = {max(range(len(sentences)), key=lambda k: text_jaccard(sentences[k], row["evidence"])) + 1} if expected else set()
            assessment, format_valid = assess(len(sentences), raw)
            rows.append(record_of(case_id, expected, gold, assessment, format_valid))
    aggregate = {
        "schema_version": 2,
        "suite": "document-contradiction",
        "evaluation_type": "model-assisted-end-to-end",
        "dataset": {"id": "contradoc", "artifact": str(slice_path), "artifact_sha256": file_sha256(slice_path), "split": "dump", "cases": len(rows)},
        "system": {"implementation": "mari_kit.verification.validate_document_contradiction/document_contradiction_rewards", "config": {"sentencing": "regex"}},
        "metrics": metrics_of(rows),
        "limitations": [],
        "reproduce": "python3 bench/lib/mari-kit-harness.py --as-written OUT_DIR SLICE DUMP",
        "environment": environment(),
    }
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "document-contradiction.json").write_text(json.dumps(aggregate, indent=2, sort_keys=True) + "\n")
    with (out / "document-contradiction.cases.jsonl").open("w") as stream:
        for case in rows:
            stream.write(json.dumps(case, sort_keys=True) + "\n")


def lean(slice_path, dump_path):
    cases = {}
    for case_id, record in read_slice_records(slice_path).items():
        sentences = split_sentences(record["text"])
        label = bool(record["label"])
        gold = set()
        evidence = record.get("evidence") or []
        for quote in [evidence] if isinstance(evidence, str) else evidence:
            if quote.strip():
                quote_tokens = token_set(quote)
                scores = [jaccard(quote_tokens, token_set(s)) for s in sentences]
                gold.add(scores.index(max(scores)) + 1)
        cases[case_id] = (len(sentences), label, gold)
    rows = []
    with open(dump_path, encoding="utf-8") as f:
        for text in f:
            raw = json.loads(text)
            case_id = raw.get("case_id", raw.get("id"))
            n, label, gold = cases[case_id]
            assessment, format_valid = assess(n, raw)
            rows.append(record_of(case_id, label, gold, assessment, format_valid))
    summary = {"lines": len(rows), "accuracy_sum": sum(r["rewards"]["accuracy"] for r in rows), **metrics_of(rows)}
    print(json.dumps(summary))


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[0] == "--as-written":
        as_written(args[2], args[3], args[1])
    else:
        lean(args[0], args[1])
