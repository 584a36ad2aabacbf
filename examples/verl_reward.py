"""mari's rewards as a verl custom reward function.

verl's naive reward manager calls compute_score(data_source, solution_str, ground_truth,
extra_info) once per response, with the response decoded without special tokens. Put the case id
in the dataset's reward_model.ground_truth and point verl at this file:

    custom_reward_function.path=examples/verl_reward.py custom_reward_function.name=compute_score

The returned dict's "score" is the reward; verl logs the other keys beside it. A 4xx answer (a
ground_truth that is not a case of the slice) raises instead of scoring 0.
"""
import os

import requests

MARI_URL = os.environ.get("MARI_URL", "http://127.0.0.1:8000") + "/v1/rewards"
session = requests.Session()


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    item = {"case_id": str(ground_truth), "completion": solution_str}
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
