"""Sentence spans from nltk's own Punkt code, the oracle for mari's `--sentences punkt`.

Loads the English parameters shipped in data/punkt/english/ into nltk's PunktParameters (nothing
is downloaded) and prints, for every record of the JSONL files given, its sentence spans in code
point offsets, one JSON object a line: {"file", "id", "spans"}. With --texts it reads a JSON list
of strings on stdin instead and prints one list of sentences per text.

    python3 test/core/document/punkt/nltk_oracle.py datasets/contradoc/*.jsonl
"""
import json
import os
import sys
from collections import defaultdict

import nltk
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
PARAMS = os.path.join(ROOT, "data", "punkt", "english")


def entries(name):
    with open(os.path.join(PARAMS, name), encoding="utf-8") as f:
        return [line for line in f.read().split("\n") if line != ""]


def tokenizer():
    params = PunktParameters()
    params.abbrev_types = set(entries("abbrev_types.txt"))
    params.collocations = set(tuple(line.split("\t")) for line in entries("collocations.tab"))
    params.sent_starters = set(entries("sent_starters.txt"))
    params.ortho_context = defaultdict(int, {k: int(v) for k, v in (line.split("\t") for line in entries("ortho_context.tab"))})
    # What nltk 3.8's sent_tokenize(text) does with its English model: tokenize with these parameters.
    return PunktSentenceTokenizer(params)


def main(argv):
    tok = tokenizer()
    if argv[:1] == ["--version"]:
        print(nltk.__version__)
        return
    if argv[:1] == ["--texts"]:
        texts = json.load(sys.stdin)
        print(json.dumps([tok.tokenize(t) for t in texts], ensure_ascii=False))
        return
    for path in argv:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                record = json.loads(line)
                text = record["text"]
                spans = list(tok.span_tokenize(text))
                assert [text[s:e] for s, e in spans] == tok.tokenize(text)
                name = os.path.relpath(os.path.abspath(path), ROOT)
                print(json.dumps({"file": name, "id": record["id"], "spans": spans}))


if __name__ == "__main__":
    main(sys.argv[1:])
