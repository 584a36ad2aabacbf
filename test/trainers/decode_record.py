"""The completions a GRPO run scored, as a prediction dump: examples/trl_grpo.py --record writes,
per process, each completion's token ids and the rewards TRL trained on; this decodes the ids with
the run's own tokenizer, special tokens kept, and puts OPENER in front of a completion without
"<think>" (the test passes the opener its chat template's generation prompt ends with, or "").
The tokenizer is the model directory's tokenizer.json read by the `tokenizers` library itself:
transformers' fast tokenizer decodes through the same object (without clean-up of spaces, as the
reward function asks), and this way the check needs no transformers import (seconds of CPU).

    python decode_record.py MODEL_DIR OPENER RECORD.rank0 [RECORD.rank1 ...] > dump.jsonl
"""
import json
import os
import sys

from tokenizers import Tokenizer

tokenizer = Tokenizer.from_file(os.path.join(sys.argv[1], "tokenizer.json"))
opener = sys.argv[2]
for path in sys.argv[3:]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            text = tokenizer.decode(record.pop("completion_ids"), skip_special_tokens=False)
            if opener and "<think>" not in text:
                text = opener + text
            print(json.dumps({**record, "completion": text}))
