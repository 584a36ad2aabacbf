"""mari's rewards as TRL reward functions: GRPOTrainer(..., reward_funcs=[mari_rewards]).

What is scored is what the model wrote: the `completion_ids` GRPOTrainer passes, decoded with the
trainer's own tokenizer and its special tokens kept (mari serve removes trailing end markers by its
own rule). The `completions` TRL passes are not used: they are decoded without special tokens or,
with a response template (tools=, or add_response_schema), rebuilt from a parsed message, which
hides layout errors. A think opener is put in front only when the rendered generation prompt ends
with it (DeepSeek-R1-style templates) and the completion holds none.

Each item carries its generation's identity, so that `mari eval` on the served log replays runs
that mean something: the phase (train or eval: the trainer's mode), the step (trainer_state's
global_step; in eval, also which evaluation batch of that step), the prompt's index within the
global generation batch and the generation's index within its group (from the process index and
the layout of TRL's RepeatSampler: each prompt's group is consecutive in the global batch, and
process p holds the p-th slice of it), and the attempt (when this training process started; a run
resumed from a checkpoint is a newer attempt, and its steps replace the old ones).

mari_rewards returns accuracy + format + reference coverage. To weight the three apart
(GRPOConfig(reward_weights=...)), pass reward_funcs=[mari_accuracy, mari_format,
mari_reference_coverage]: they share one request per batch, so each completion is scored and logged
once. A 4xx answer (an item mari cannot resolve) raises: the trainer stops instead of training on
zeros. Needs TRL >= 1.0's reward arguments (completion_ids, log_extra).
"""
import os
import time

import requests

# One server, or several (comma-separated): process p sends to the (p mod n)-th, each with its own --log.
MARI_URLS = [url.strip() + "/v1/rewards" for url in os.environ.get("MARI_URL", "http://127.0.0.1:8000").split(",")]
THINK_OPENERS = ("<think>\n", "<think>")
session = requests.Session()

_attempt = None
_last = {"key": None, "results": None}
_eval_batches = {"step": None, "count": 0}


def _trainer_of(kwargs):
    """GRPOTrainer itself: TRL passes its bound methods log_extra and log_metric to every reward function."""
    for name in ("log_extra", "log_metric"):
        trainer = getattr(kwargs.get(name), "__self__", None)
        if trainer is not None:
            return trainer
    raise RuntimeError("mari_rewards needs GRPOTrainer's reward arguments (TRL >= 1.0: log_extra, completion_ids)")


def _attempt_id():
    """One value for every process of this training run (rank 0's start time), later for a resumed run."""
    global _attempt
    if _attempt is None:
        value = [int(time.time() * 1000)]
        try:
            import torch.distributed as dist

            if dist.is_available() and dist.is_initialized():
                dist.broadcast_object_list(value, src=0)
        except ImportError:
            pass
        _attempt = value[0]
    return _attempt


def _tokenizer_of(trainer):
    processing = trainer.processing_class
    return getattr(processing, "tokenizer", processing)


def _opener_in_prompt(trainer, tokenizer, prompt, cache):
    """The think opener the rendered generation prompt ends with, or "" (as mari serve's /get_reward rule)."""
    key = repr(prompt)
    if key not in cache:
        if isinstance(prompt, str):
            text = prompt
        else:
            kwargs = dict(getattr(trainer, "chat_template_kwargs", None) or {})
            tools = getattr(trainer, "tools", None)
            if tools:
                kwargs["tools"] = tools
            text = tokenizer.apply_chat_template(prompt, tokenize=False, add_generation_prompt=True, **kwargs)
        cache[key] = next((o for o in THINK_OPENERS if text.endswith(o)), "")
    return cache[key]


def completion_as_written(text, opener):
    """The decoded completion, with the prompt's think opener in front when the model's text starts inside it."""
    return opener + text if opener and "<think>" not in text else text


def prompt_text(prompt):
    """A prompt as text, for a dataset without a case_id column (mari finds the document in it)."""
    if isinstance(prompt, str):
        return prompt
    return "\n".join(m.get("content") or "" for m in prompt if isinstance(m.get("content"), str))


def _score(prompts, completion_ids, case_id, trainer_state, kwargs):
    """The served results of this batch, one request per batch whichever component function asks first."""
    trainer = _trainer_of(kwargs)
    phase = "train" if trainer.model.training else "eval"
    step = trainer_state.global_step
    key = (phase, step, tuple(map(tuple, completion_ids)), tuple(case_id or ()))
    if _last["key"] == key:
        return _last["results"]
    tokenizer = _tokenizer_of(trainer)
    group = trainer.num_generations if phase == "train" else trainer.num_generations_eval
    # Global position of this process's first completion: process p holds the p-th slice of the batch.
    offset = trainer.accelerator.process_index * len(completion_ids)
    identity = {"phase": phase, "step": step, "attempt": _attempt_id()}
    if phase == "eval":
        # Evaluation runs several batches at one step: number them.
        if _eval_batches["step"] != step:
            _eval_batches.update(step=step, count=0)
        identity["batch"] = _eval_batches["count"]
        _eval_batches["count"] += 1
    openers = {}
    items = []
    for i, ids in enumerate(completion_ids):
        text = tokenizer.decode(ids, skip_special_tokens=False, clean_up_tokenization_spaces=False)
        opener = _opener_in_prompt(trainer, tokenizer, prompts[i], openers)
        position = offset + i
        item = {"completion": completion_as_written(text, opener), **identity, "prompt_index": position // group, "generation": position % group}
        if case_id is not None:
            item["case_id"] = case_id[i]
        else:
            item["prompt"] = prompt_text(prompts[i])
        items.append(item)
    url = MARI_URLS[trainer.accelerator.process_index % len(MARI_URLS)]
    response = session.post(url, json={"items": items}, timeout=120)
    if response.status_code >= 400:
        raise RuntimeError(f"mari serve answered {response.status_code}: {response.text[:2000]}")
    results = response.json()["results"]
    _last.update(key=key, results=results)
    return results


def mari_rewards(prompts, completions, completion_ids, case_id=None, trainer_state=None, **kwargs):
    results = _score(prompts, completion_ids, case_id, trainer_state, kwargs)
    return [r["accuracy"] + r["format"] + r["reference_coverage"] for r in results]


def mari_accuracy(prompts, completions, completion_ids, case_id=None, trainer_state=None, **kwargs):
    return [r["accuracy"] for r in _score(prompts, completion_ids, case_id, trainer_state, kwargs)]


def mari_format(prompts, completions, completion_ids, case_id=None, trainer_state=None, **kwargs):
    return [r["format"] for r in _score(prompts, completion_ids, case_id, trainer_state, kwargs)]


def mari_reference_coverage(prompts, completions, completion_ids, case_id=None, trainer_state=None, **kwargs):
    return [r["reference_coverage"] for r in _score(prompts, completion_ids, case_id, trainer_state, kwargs)]
