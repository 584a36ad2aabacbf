"""lm-evaluation-harness's own CLI with one more model, `mari-canned`, that needs no download.

python lm_eval_mari.py [lm_eval CLI arguments]  (e.g. --model mari-canned --tasks mari_contradoc
--include_path DIR --log_samples --output_path OUT)

The model answers each prompt with a canned completion that varies with the prompt and the repeat:
a JSON answer or the <think>/<answer> layout, its judgment and evidence drawn from a hash.
"""

import hashlib
import json
from collections import Counter

from lm_eval.__main__ import cli_evaluate
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model


@register_model("mari-canned")
class CannedLM(LM):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__()
        self.seen = Counter()

    @classmethod
    def create_from_arg_string(cls, arg_string, additional_config=None):
        return cls()

    def _answer(self, prompt: str) -> str:
        repeat = self.seen[prompt]
        self.seen[prompt] += 1
        h = int(hashlib.sha256(f"{prompt}#{repeat}".encode()).hexdigest(), 16)
        judgment = h % 3 != 0
        ids = [1 + h % 4, 2 + h % 5] if judgment else []
        if (h >> 8) % 2 == 0:
            return json.dumps({"judgment": judgment, "evidence_sentence_ids": ids, "reasoning": f"Compare [{1 + h % 3}] with [2]."})
        think = f"Sentence [{1 + h % 3}] against [2]."
        return f"<think>\n{think}\n</think>\n<answer>\nJudgment: {'yes' if judgment else 'no'}\nEvidence: {json.dumps(ids)}\n</answer>"

    def generate_until(self, requests, disable_tqdm: bool = False):
        return [self._answer(request.arguments[0]) for request in requests]

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("mari-canned only generates")

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("mari-canned only generates")


def plain_table(result_dict, column="results"):
    """lm_eval prints its summary with pytablewriter, which an install with --no-deps lacks."""
    return json.dumps(result_dict.get(column, {}), indent=1, default=str)


if __name__ == "__main__":
    try:
        import pytablewriter  # noqa: F401
    except ImportError:
        import lm_eval.utils

        lm_eval.utils.make_table = plain_table
    cli_evaluate()
