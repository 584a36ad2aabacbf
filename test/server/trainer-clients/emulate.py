"""Emulations of the RL trainers' reward clients, written from reading their public code, for the
mari serve tests. Each sends what the real client sends (requests' json= body bytes, the same
fields and batching) and reads the answer as the client does.

    python3 emulate.py CLIENT < job.json > answer.json

job.json: {"base" (the server), "url" (its /get_reward), "template", "labels" (bool), "rows": [{"case_id", "content", "completions": [..]}]}. The answer is what the trainer ended up with per response.

A tokenizer is emulated by its chat template and what its decode does: special tokens kept or
skipped, and Hugging Face's clean_up_tokenization_spaces (on for Llama 3).
"""
import importlib.util
import json
import os
import sys

import requests

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))

TEMPLATES = {
    # Qwen 2.5 / ChatML: eos <|im_end|>, pad <|endoftext|>; no space clean-up.
    "chatml": {
        "prompt": "<|im_start|>system\nYou are a careful reader.<|im_end|>\n<|im_start|>user\n{content}<|im_end|>\n<|im_start|>assistant\n",
        "eos": "<|im_end|>",
        "pad": "<|endoftext|>",
        "specials": ["<|im_start|>", "<|im_end|>", "<|endoftext|>"],
        "cleanup": False,
    },
    # DeepSeek-R1 (distilled models too): the generation prompt ends with the think opener, so the
    # model's text starts inside the think block.
    "deepseek_r1": {
        "prompt": "<｜begin▁of▁sentence｜><｜User｜>{content}<｜Assistant｜><think>\n",
        "eos": "<｜end▁of▁sentence｜>",
        "pad": "<｜▁pad▁｜>",
        "specials": ["<｜begin▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>", "<｜end▁of▁sentence｜>", "<｜▁pad▁｜>"],
        "cleanup": False,
        "prefills_think": True,
    },
    # Llama 3 instruct: eos <|eot_id|>, pad <|end_of_text|>; clean_up_tokenization_spaces is on.
    "llama3": {
        "prompt": "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n{content}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n",
        "eos": "<|eot_id|>",
        "pad": "<|end_of_text|>",
        "specials": ["<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>", "<|end_of_text|>"],
        "cleanup": True,
    },
}


def clean_up_tokenization(text):
    # transformers' PreTrainedTokenizerBase.clean_up_tokenization, in its order.
    for a, b in [(" .", "."), (" ?", "?"), (" !", "!"), (" ,", ","), (" ' ", "'"), (" n't", "n't"), (" 'm", "'m"), (" 's", "'s"), (" 've", "'ve"), (" 're", "'re")]:
        text = text.replace(a, b)
    return text


def decode(template, text, skip_special_tokens):
    """What tokenizer.decode(tokenize(text)) prints for this template's tokenizer."""
    if skip_special_tokens:
        for token in template["specials"]:
            text = text.replace(token, "")
    return clean_up_tokenization(text) if template["cleanup"] else text


def post(url, data):
    # OpenRLHF's request_api_wrapper: requests.post(url=url, json=data, headers=..., timeout=180),
    # raise_for_status(), response.json(). (Its retry loop is left out: a 4xx fails the test at once.)
    response = requests.post(url=url, json=data, headers={"Content-Type": "application/json"}, timeout=180)
    response.raise_for_status()
    return response.json()


def as_tensor(values):
    # torch.as_tensor / torch.tensor accept only numbers (bools included) here; strings raise.
    flat = values if isinstance(values, list) else [values]
    for v in flat:
        if isinstance(v, list):
            as_tensor(v)
        elif not isinstance(v, (int, float)):
            raise ValueError(f"torch cannot make a tensor of {v!r}")
    return values


def responses(job):
    """(row, sample, prompt, completion) for every response, grouped by prompt as the samplers do."""
    template = TEMPLATES[job["template"]]
    for row in job["rows"]:
        prompt = template["prompt"].format(content=row["content"])
        for sample, completion in enumerate(row["completions"]):
            # Under a template that writes the think opener, the model's own text starts after it.
            if template.get("prefills_think") and completion.startswith("<think>\n"):
                completion = completion[len("<think>\n") :]
            yield row, sample, prompt, completion


def label_of(job, row):
    # Without --label_key OpenRLHF's prompt dataset gives every prompt the label "".
    return row["case_id"] if job["labels"] else ""


def openrlhf_v06(job):
    """v0.6: batch_decode(sequences, skip_special_tokens=False) of a left-padded prompt batch and
    right-padded responses (pads left in), remote_rm_fn -> the "rewards" key only."""
    template = TEMPLATES[job["template"]]
    out = []
    batch = list(responses(job))
    size = job.get("micro_batch", 16)
    for start in range(0, len(batch), size):
        part = batch[start : start + size]
        longest_prompt = max(len(p) for _, _, p, _ in part)
        longest_response = max(len(c) for _, _, _, c in part)
        queries, prompts, labels = [], [], []
        for row, _, prompt, completion in part:
            # Character counts stand in for token counts: only where the pads go matters.
            left = template["pad"] * (1 + (longest_prompt - len(prompt)) // 40)
            right = template["pad"] * (1 + (longest_response - len(completion)) // 40)
            queries.append(decode(template, left + prompt + completion + template["eos"] + right, False))
            prompts.append(prompt)
            labels.append(label_of(job, row))
        answer = post(job["url"], {"query": queries, "prompts": prompts, "labels": labels})
        assert "rewards" in answer, f"rewards not in {answer}"
        out.extend({"reward": r} for r in as_tensor(answer.get("rewards")))
    return out


def openrlhf_v09(job):
    """v0.9: batch_decode(remove_pad_token(...), skip_special_tokens=False); the whole answer is read:
    rewards, scores when present (else the rewards), extra_logs as tensors."""
    template = TEMPLATES[job["template"]]
    rows = list(responses(job))
    queries = [decode(template, prompt + completion + template["eos"], False) for _, _, prompt, completion in rows]
    answer = post(job["url"], {"query": queries, "prompts": [p for _, _, p, _ in rows], "labels": [label_of(job, r) for r, _, _, _ in rows]})
    rewards = as_tensor(answer["rewards"])
    scores = as_tensor(answer["scores"]) if "scores" in answer else rewards
    logs = {key: as_tensor(value) for key, value in answer.get("extra_logs", {}).items()}
    return [{"reward": rewards[i], "score": scores[i], "extra_logs": {k: v[i] for k, v in logs.items()}} for i in range(len(rows))]


def openrlhf_agent(job):
    """Head's SingleTurnAgentExecutor: one request per response, query = decode(prompt tokens +
    action tokens, skip_special_tokens=False) with the prompt tokenized without special tokens;
    scores falls back to rewards; each extra_logs value becomes torch.tensor([value])."""
    template = TEMPLATES[job["template"]]
    out = []
    for row, _, prompt, completion in responses(job):
        query = decode(template, prompt + completion + template["eos"], False)
        info = post(job["url"], {"query": [query], "prompts": [prompt], "labels": [label_of(job, row)]})
        score = info.get("scores")
        if score is None:
            score = info.get("rewards")
        logs = {key: as_tensor([value]) for key, value in (info.get("extra_logs") or {}).items()}
        out.append({"reward": as_tensor([info.get("rewards")])[0][0], "score": as_tensor([score])[0][0], "extra_logs": {k: v[0][0] for k, v in logs.items()}})
    return out


def load(path, name, base_url):
    # The examples read the server's address from MARI_URL when they are imported.
    os.environ["MARI_URL"] = base_url
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def verl_naive(job):
    """NaiveRewardManager: per response, decode(valid_response_ids, skip_special_tokens=True) and
    compute_score(data_source=, solution_str=, ground_truth=, extra_info=); a dict's "score" is the reward."""
    module = load("examples/verl_reward.py", "verl_reward", job["base"])
    template = TEMPLATES[job["template"]]
    out = []
    for i, (row, _, _, completion) in enumerate(responses(job)):
        response_str = decode(template, completion + template["eos"], True)
        extra_info = {"index": i, "num_turns": None, "rollout_reward_scores": {}}
        # The dataset row says which opener its rendered prompt ends with (examples/verl_reward.py).
        if template.get("prefills_think"):
            extra_info["think_opener"] = "<think>\n"
        score = module.compute_score(data_source="contradoc", solution_str=response_str, ground_truth=row["case_id"], extra_info=extra_info)
        out.append({"reward": score["score"] if isinstance(score, dict) else score, "extra": score})
    return out


CLIENTS = {
    "openrlhf-v0.6": openrlhf_v06,
    "openrlhf-v0.9": openrlhf_v09,
    "openrlhf-agent": openrlhf_agent,
    "verl-naive": verl_naive,
}

if __name__ == "__main__":
    job = json.load(sys.stdin)
    try:
        result = CLIENTS[sys.argv[1]](job)
    except requests.HTTPError as err:
        print(json.dumps({"http_error": err.response.status_code, "body": err.response.text}))
        sys.exit(0)
    except RuntimeError as err:
        print(json.dumps({"runtime_error": str(err)}))
        sys.exit(0)
    print(json.dumps(result))
