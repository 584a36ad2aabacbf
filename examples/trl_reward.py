"""mari's rewards as a TRL reward function: GRPOTrainer(..., reward_funcs=[mari_rewards]).

GRPOTrainer calls a reward function with the batch's prompts and completions and every other
dataset column as a keyword argument (here `case_id`), plus `trainer_state`. Each completion is
sent to `mari serve` with its sample number within the call (so `mari eval` on the served log keeps
the samples of one prompt apart), and the function returns accuracy + format + reference coverage.
A 4xx answer (an item mari cannot resolve) raises: the trainer stops instead of training on zeros.
"""
import os

import requests

MARI_URL = os.environ.get("MARI_URL", "http://127.0.0.1:8000") + "/v1/rewards"
session = requests.Session()


def completion_text(completion):
    """The text the model wrote: a plain string, or the last assistant message of a chat.

    With transformers >= 5 and a tokenizer that has a response schema, TRL hands the reasoning
    outside `content` (as `reasoning_content` or `thinking`), without its tags: put the think
    block back in front of the answer so mari sees the tagged layout again.
    """
    if isinstance(completion, str):
        return with_think_opener(completion)
    message = completion[-1]
    content = message.get("content") or ""
    reasoning = message.get("reasoning_content") or message.get("thinking")
    if reasoning and "<think>" not in content:
        return "<think>\n" + reasoning.strip("\n") + "\n</think>\n" + content.lstrip()
    return with_think_opener(content)


def with_think_opener(text):
    """A reasoning template (DeepSeek-R1's) writes the think opener into the prompt: the decoded
    completion then closes a think block it never opened. Give it back its opener."""
    if "</think>" in text and "<think>" not in text:
        return "<think>\n" + text
    return text


def prompt_text(prompt):
    """A prompt as text, for a dataset without a case_id column (mari finds the document in it)."""
    if isinstance(prompt, str):
        return prompt
    return "\n".join(m.get("content") or "" for m in prompt if isinstance(m.get("content"), str))


def mari_rewards(prompts, completions, case_id=None, trainer_state=None, **kwargs):
    seen = {}
    items = []
    for i, completion in enumerate(completions):
        key = case_id[i] if case_id is not None else prompt_text(prompts[i])
        sample = seen.get(key, 0)  # the sample's number within its group in this call
        seen[key] = sample + 1
        item = {"completion": completion_text(completion), "sample": sample}
        if case_id is not None:
            item["case_id"] = case_id[i]
        else:
            item["prompt"] = prompt_text(prompts[i])
        if trainer_state is not None:
            item["step"] = trainer_state.global_step
        items.append(item)
    response = session.post(MARI_URL, json={"items": items}, timeout=60)
    if response.status_code >= 400:
        raise RuntimeError(f"mari serve answered {response.status_code}: {response.text[:2000]}")
    return [r["accuracy"] + r["format"] + r["reference_coverage"] for r in response.json()["results"]]
