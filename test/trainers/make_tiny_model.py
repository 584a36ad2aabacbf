"""A tiny seeded policy for the real-trainer tests, built from a config: nothing is downloaded.

    python make_tiny_model.py --slice SLICE --out DIR

A byte-level BPE tokenizer is trained with `tokenizers` on the slice's text and on the answer
layout; a 2-layer Qwen2 model is built from a config and trained for a few seconds on completions
in mari's layout (right, wrong and broken ones), so that sampling at temperature 1 writes the
layout often enough, with the mistakes a real policy makes: text before <think>, an empty think
block, no opener, a missing </answer>. The same weights are saved three times, one directory per
chat template: DIR/chatml (plain ChatML), DIR/r1 (ChatML whose generation prompt ends with the
think opener, as DeepSeek-R1's does) and DIR/qwen3 (TRL's copy of Qwen3's template, for which TRL
knows a response template). Seeded: the same slice gives the same files.
"""
import argparse
import json
import os
import random
import shutil

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
# Added but not special (as in Qwen3): decoding without special tokens keeps them.
ADDED = ["<think>", "</think>", "<answer>", "</answer>", "<tool_call>", "</tool_call>"]

CHATML = (
    "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
R1 = CHATML.replace("'<|im_start|>assistant\\n' }}{% endif %}", "'<|im_start|>assistant\\n<think>\\n' }}{% endif %}")


def completions(rng, n):
    """Completions in mari's layout and off it, with the opener or not (an R1 prompt holds it)."""
    ids = lambda: sorted(rng.sample(range(1, 9), rng.randint(0, 2)))
    out = []
    for _ in range(n):
        think = " ".join(rng.choice(["Sentence", "[1]", "[2]", "and", "[3]", "disagree", "agree", "with", "[4]", "Compared"]) for _ in range(rng.randint(0, 6)))
        judgment = rng.choice(["yes", "no"])
        answer = f"<answer>\nJudgment: {judgment}\nEvidence: {json.dumps(ids())}\n</answer>"
        body = rng.choice(
            [
                f"<think>\n{think}\n</think>\n{answer}",
                f"<think>\n{think}\n</think>\n{answer}",
                f"{think}\n</think>\n{answer}",
                f"<think>\n\n</think>\n{answer}",
                f"Sure. <think>\n{think}\n</think>\n{answer}",
                f"<think>\n{think}\n</think>\n{answer[:-9]}",
                f"Judgment: {judgment}\nEvidence: {json.dumps(ids())}",
            ]
        )
        out.append(body)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--slice", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sft-steps", type=int, default=120)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    with open(args.slice, encoding="utf-8") as f:
        texts = [json.loads(line)["text"] for line in f if line.strip()]
    layout = completions(rng, 400)

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=1200, special_tokens=SPECIAL, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    bpe.train_from_iterator(texts + layout, trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tokenizer.add_tokens(ADDED)

    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=4096,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
    )
    model = Qwen2ForCausalLM(config)
    # A little next-token training on the completion after a chat prompt like the trainer's (the loss
    # on the completion only), half of them after the R1 template's opener.
    tokenizer.chat_template = CHATML
    pairs = []
    for c in layout:
        document = " ".join(f"[{i + 1}] {s}." for i, s in enumerate(rng.choice(texts).split(". ")[:3]))
        prompt = tokenizer.apply_chat_template([{"role": "user", "content": "Does this document contradict itself?\n\n" + document}], tokenize=False, add_generation_prompt=True)
        if c.startswith("<think>\n") and rng.random() < 0.5:
            prompt, c = prompt + "<think>\n", c[len("<think>\n") :]
        pairs.append((tokenizer(prompt)["input_ids"], tokenizer(c + "<|im_end|>")["input_ids"]))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model.train()
    for step in range(args.sft_steps):
        batch = [pairs[rng.randrange(len(pairs))] for _ in range(8)]
        width = max(len(p) + len(c) for p, c in batch)
        ids = torch.tensor([p + c + [tokenizer.pad_token_id] * (width - len(p) - len(c)) for p, c in batch])
        mask = torch.tensor([[1] * (len(p) + len(c)) + [0] * (width - len(p) - len(c)) for p, c in batch])
        labels = torch.tensor([[-100] * len(p) + c + [-100] * (width - len(p) - len(c)) for p, c in batch])
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    model.eval()
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id

    from trl.chat_template_utils import qwen3_chat_template

    for name, template in [("chatml", CHATML), ("r1", R1), ("qwen3", qwen3_chat_template)]:
        target = os.path.join(args.out, name)
        shutil.rmtree(target, ignore_errors=True)
        tokenizer.chat_template = template
        tokenizer.save_pretrained(target)
        model.save_pretrained(target)
    print(json.dumps({"vocab": len(tokenizer), "loss": round(loss.item(), 3)}))


if __name__ == "__main__":
    main()
