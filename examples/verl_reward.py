"""mari's rewards as a verl custom reward function.

verl's naive reward manager calls compute_score(data_source, solution_str, ground_truth,
extra_info) once per response, with the response decoded without special tokens. Put the case id
in the dataset's reward_model.ground_truth and point verl at this file:

    custom_reward_function.path=examples/verl_reward.py custom_reward_function.name=compute_score

Decoded without special tokens, the response has no end marker left (nothing for mari to remove),
and the think tags survive only where the tokenizer does not register them as special (Qwen3's and
DeepSeek-R1's add them as ordinary tokens). verl passes no prompt: when the chat template's
generation prompt ends with the think opener (DeepSeek-R1's), write that opener into each row's
extra_info as "think_opener" (e.g. "<think>\\n"); it is put in front of a response that holds none,
and never otherwise. The returned dict's "score" is the reward; verl logs the other keys beside it.
A 4xx answer (a ground_truth that is not a case of the slice) raises instead of scoring 0.
"""
import os

import requests

MARI_URL = os.environ.get("MARI_URL", "http://127.0.0.1:8000") + "/v1/rewards"
session = requests.Session()


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    opener = (extra_info or {}).get("think_opener") or ""
    completion = opener + solution_str if opener and "<think>" not in solution_str else solution_str
    item = {"case_id": str(ground_truth), "completion": completion}
    response = session.post(MARI_URL, json={"items": [item]}, timeout=60)
    if response.status_code >= 400:
        raise RuntimeError(f"mari serve answered {response.status_code}: {response.text[:2000]}")
    r = response.json()["results"][0]
    return {
        "score": r["accuracy"] + r["format"] + r["reference_coverage"],
        "accuracy": r["accuracy"],
        "format": r["format"],
        "reference_coverage": r["reference_coverage"],
    }
