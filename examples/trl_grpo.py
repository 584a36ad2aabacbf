"""GRPO training over a mari slice with TRL, rewarded by `mari serve` (examples/trl_reward.py).

    mari serve SLICE --log served.jsonl --log-predictions &
    MARI_URL=http://127.0.0.1:8000 python examples/trl_grpo.py --model DIR --slice SLICE --out DIR --max-steps N

The prompts are chat messages whose user turn is mari's own prompt text for each case, written by
`mari predict --batch-requests` (the document split into sentences and tagged `[1] … [n]` exactly
as mari serve finds and scores it), with --prompt FILE as the user template ({{document}} is the
tagged document); the judge's system message (which asks for JSON) is left out: the policy answers
in the <think>…</think><answer>…</answer> layout. Each row keeps its case id in a `case_id` column,
which TRL hands to the reward function. The mari command is $MARI (default `mari`).

Options: --components scores with the three reward functions (accuracy, format, coverage: TRL logs
and weights them apart; each completion is still scored and logged once); --response-template sets
TRL's response template on the tokenizer (what tools= does for Qwen, Llama 3.1/3.2 … templates),
so TRL hands over parsed messages (the reward still scores the tokens); --eval-cases N holds out the
slice's last N cases and evaluates on them every --eval-steps steps; --resume continues from the
newest checkpoint in --out. Run it under torchrun for several processes (CPU: gloo).
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

import torch.distributed as dist
from datasets import Dataset
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import GRPOConfig, GRPOTrainer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trl_reward  # noqa: E402

DEFAULT_PROMPT = (
    "Does this document contradict itself?\n\n{{document}}\n\n"
    "Think inside <think></think>, then answer inside <answer></answer> with \"Judgment: yes\" or "
    "\"Judgment: no\" and \"Evidence: [sentence ids]\"."
)


def mari_prompts(slice_path, prompt_file):
    """(case id, user message) per case, in slice order, as `mari predict --batch-requests` writes them."""
    with tempfile.TemporaryDirectory() as tmp:
        if prompt_file is None:
            prompt_file = os.path.join(tmp, "prompt.txt")
            with open(prompt_file, "w", encoding="utf-8") as f:
                f.write(DEFAULT_PROMPT)
        requests_file = os.path.join(tmp, "requests.jsonl")
        mari = shlex.split(os.environ.get("MARI", "mari"))
        subprocess.run(
            [*mari, "predict", slice_path, "--judge", "openai", "--model", "policy", "--prompt", prompt_file, "--no-json-mode", "--batch-requests", requests_file, "--quiet"],
            check=True,
        )
        rows = []
        with open(requests_file, encoding="utf-8") as f:
            for line in f:
                request = json.loads(line)
                case_id = json.loads(request["custom_id"])[0]
                user = [m for m in request["body"]["messages"] if m["role"] == "user"]
                rows.append({"case_id": case_id, "prompt": user})
        return rows


def record_rewards(trainer, path):
    """Test hook (--record): each process writes, per completion, the token ids TRL scored and the rewards it trains on."""
    original = trainer._calculate_rewards
    out = open(f"{path}.rank{trainer.accelerator.process_index}", "a", encoding="utf-8")
    eval_calls = {}

    def calculate(inputs, prompts, completions, completion_ids_list):
        rewards = original(inputs, prompts, completions, completion_ids_list)
        n = len(prompts)
        start = trainer.accelerator.process_index * n
        phase = "train" if trainer.model.training else "eval"
        step = trainer.state.global_step
        batch = eval_calls.get(step, 0) if phase == "eval" else 0
        if phase == "eval":
            eval_calls[step] = batch + 1
        for i in range(n):
            line = {
                "phase": phase,
                "step": step,
                "batch": batch,
                "position": start + i,
                "rank": trainer.accelerator.process_index,
                "index": i,
                "case_id": inputs[i]["case_id"],
                "completion_ids": list(completion_ids_list[i]),
                "rewards": rewards[start + i].tolist(),
            }
            out.write(json.dumps(line) + "\n")
        out.flush()
        return rewards

    trainer._calculate_rewards = calculate


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="the policy: a model directory (or hub name) with its tokenizer")
    parser.add_argument("--slice", required=True, help="the mari slice (JSONL) the prompts are made from")
    parser.add_argument("--out", required=True, help="output directory (checkpoints)")
    parser.add_argument("--max-steps", type=int, required=True)
    parser.add_argument("--prompt", help="user prompt template for mari predict ({{document}}); default: the layout prompt above")
    parser.add_argument("--num-generations", type=int, default=4)
    parser.add_argument("--prompts-per-step", type=int, default=2, help="prompts per process per step (each sampled --num-generations times)")
    parser.add_argument("--per-device-batch", type=int, help="completions per process per step (default: prompts-per-step x num-generations); a group may then span processes")
    parser.add_argument("--max-completion-length", type=int, default=64)
    parser.add_argument("--learning-rate", type=float, default=1e-5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--components", action="store_true", help="three reward functions (accuracy, format, coverage) instead of their sum")
    parser.add_argument("--response-template", action="store_true", help="set TRL's response template on the tokenizer (as tools= does)")
    parser.add_argument("--eval-cases", type=int, default=0, help="hold out the slice's last N cases and evaluate on them")
    parser.add_argument("--eval-steps", type=int, default=2)
    parser.add_argument("--save-steps", type=int, default=0, help="save a checkpoint every N steps (0: none)")
    parser.add_argument("--resume", action="store_true", help="resume from the newest checkpoint in --out")
    parser.add_argument("--record", help=argparse.SUPPRESS)
    args = parser.parse_args()

    rows = mari_prompts(args.slice, args.prompt)
    train_rows = rows[: len(rows) - args.eval_cases] if args.eval_cases else rows
    eval_rows = rows[len(rows) - args.eval_cases :] if args.eval_cases else []

    tokenizer = AutoTokenizer.from_pretrained(args.model)
    if args.response_template:
        from trl.chat_template_utils import add_response_schema

        tokenizer = add_response_schema(tokenizer)
    model = AutoModelForCausalLM.from_pretrained(args.model)

    config = GRPOConfig(
        output_dir=args.out,
        max_steps=args.max_steps,
        per_device_train_batch_size=args.per_device_batch or args.prompts_per_step * args.num_generations,
        num_generations=args.num_generations,
        max_completion_length=args.max_completion_length,
        learning_rate=args.learning_rate,
        seed=args.seed,
        logging_steps=1,
        report_to="none",
        use_cpu=True,
        save_strategy="steps" if args.save_steps else "no",
        save_steps=args.save_steps or 500,
        eval_strategy="steps" if eval_rows else "no",
        eval_steps=args.eval_steps,
        per_device_eval_batch_size=args.per_device_batch or args.num_generations * 2,
        dataloader_num_workers=0,
        ddp_backend="gloo" if int(os.environ.get("WORLD_SIZE", "1")) > 1 else None,
    )
    reward_funcs = [trl_reward.mari_accuracy, trl_reward.mari_format, trl_reward.mari_reference_coverage] if args.components else [trl_reward.mari_rewards]
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=reward_funcs,
        args=config,
        train_dataset=Dataset.from_list(train_rows),
        eval_dataset=Dataset.from_list(eval_rows) if eval_rows else None,
        processing_class=tokenizer,
    )
    if args.record:
        record_rewards(trainer, args.record)
    trainer.train(resume_from_checkpoint=True if args.resume else None)
    # Under torchrun, leave the process group before the interpreter exits: a gloo group torn down
    # at exit can abort a rank ("terminate called without an active exception") after training ended.
    if dist.is_available() and dist.is_initialized():
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
