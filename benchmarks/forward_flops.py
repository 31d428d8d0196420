"""Achieved FLOP/s of our forward pass against the machine's own matmul ceiling.

The forward pass: our predict step over real XNLI text at batch 32, length-sorted (the work it
really does, padding included, is counted): per layer and example of L tokens, 2 x the layer's
dense parameters x L plus 4 x L² x hidden for attention (QK^T and AV); in the last layer, which
predict computes for the first token only, the key and value projections for all L tokens and
the rest for one; the pooler and classifier for one.
The ceiling: plain torch.matmul of the model's own shapes (QKV and output projections, the two
feed-forward matrices) on as many rows as a batch has tokens, timed on the same machine.

    .venv/bin/python benchmarks/forward_flops.py [--examples 512] [--batch-size 32]
"""

from __future__ import annotations

import argparse

from _common import best_of, classifier_folder, write_result, xnli_examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=512)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from mte.families.pairs.features import tokenize_pairs
    from mte.modelling.batching import length_sorted_batches
    from mte.modelling.first_token import first_token_last_layer
    from mte.registry import TASKS, head_for

    task = TASKS["xnli"]
    folder = classifier_folder(task.labels)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
    config = model.config
    hidden, layers, inner = config.hidden_size, config.num_hidden_layers, config.intermediate_size
    features = tokenize_pairs(tokenizer, xnli_examples("de", args.examples), task, 128)
    with first_token_last_layer(model) as first_token_only:
        pass  # only asks whether predict takes the shortcut for this model

    projections, feed_forward = 2 * hidden * hidden, 2 * 2 * hidden * inner  # per token
    heads = 2 * (hidden * hidden + hidden * config.num_labels)  # pooler, classifier: 1 token
    flops = 0
    rows = []
    for batch in length_sorted_batches(features, args.batch_size):
        n, width = len(batch), max(len(features["input_ids"][i]) for i in batch)
        tokens = n * width
        rows.append(tokens)
        whole_layer = (4 * projections + feed_forward) * tokens + 4 * n * width * width * hidden
        if first_token_only:
            last_layer = 2 * projections * tokens  # keys, values
            last_layer += (2 * projections + feed_forward) * n + 4 * n * width * hidden
            flops += (layers - 1) * whole_layer + last_layer
        else:
            flops += layers * whole_layer
        flops += heads * n
    head = head_for(features)
    seconds, _ = best_of(
        args.repeats, lambda: head.predict(model, features, args.batch_size, tokenizer.pad_token_id)
    )
    achieved = flops / seconds

    # the same dense shapes as plain matmuls, on a batch's mean token count
    tokens = int(sum(rows) / len(rows))
    x = torch.randn(tokens, hidden)
    h = torch.randn(tokens, inner)
    weights = {
        "qkv_out": torch.randn(hidden, hidden),
        "up": torch.randn(hidden, inner),
        "down": torch.randn(inner, hidden),
    }

    def dense_layers() -> None:
        with torch.inference_mode():
            for _ in range(layers):
                for _ in range(4):
                    torch.matmul(x, weights["qkv_out"])
                torch.matmul(x, weights["up"])
                torch.matmul(h, weights["down"])

    dense_layers()
    ceiling_seconds, _ = best_of(max(args.repeats, 5), dense_layers)
    ceiling = layers * (4 * 2 * tokens * hidden * hidden + 2 * 2 * tokens * hidden * inner)
    ceiling /= ceiling_seconds
    result = {
        "examples": len(features["input_ids"]),
        "batch_size": args.batch_size,
        "mean_tokens_per_batch": tokens,
        "forward_gflops": flops / 1e9,
        "forward_seconds": seconds,
        "achieved_gflop_per_second": achieved / 1e9,
        "matmul_ceiling_gflop_per_second": ceiling / 1e9,
        "ratio_to_ceiling": achieved / ceiling,
        "torch_threads": torch.get_num_threads(),
        "last_layer_first_token_only": first_token_only,
    }
    path = write_result("forward_flops", result)
    print(
        f"forward: {achieved / 1e9:.1f} GFLOP/s of a {ceiling / 1e9:.1f} GFLOP/s matmul ceiling "
        f"({achieved / ceiling:.0%}) at batch {args.batch_size}, {tokens} tokens a batch  ({path})"
    )


if __name__ == "__main__":
    main()
