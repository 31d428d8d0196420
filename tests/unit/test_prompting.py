"""In-context transfer scoring (mte.modelling.prompting) against lm-evaluation-harness: on the
tiny Llama-shaped decoder, the same local files and the same wording (the specs' prompts,
written below as lm-eval task YAML that points at the files), every example's log-likelihoods
equal lm-eval's to 1e-5, the chosen answers are identical and so are the accuracies, for XNLI
and XCOPA at 0 and 5 shots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mte.families.multiple_choice.readers import read_choice_files
from mte.families.pairs.readers import read_pair_tsv
from mte.hub.models import load_tokenizer
from mte.modelling.prompting import (
    choose,
    demonstrations,
    encode_request,
    fewshot_context,
    score_examples,
)
from mte.registry import TASKS
from mte.steps.data import demo_dir
from tests.workflow.tiny_data import write_xcopa

XNLI, XCOPA = TASKS["xnli"], TASKS["xcopa"]

# the specs' prompts (mte/specs/xnli.py, xcopa.py) in lm-eval's task YAML
XNLI_YAML = """
task: mte_xnli
dataset_path: csv
dataset_kwargs:
  data_files: {{train: "{train}", test: "{test}"}}
  delimiter: "\\t"
  column_names: [premise, hypothesis, label]
  quoting: 3
output_type: multiple_choice
training_split: train
fewshot_split: train
test_split: test
fewshot_config: {{sampler: first_n}}
doc_to_text: "Premise: {{{{premise}}}}\\nHypothesis: {{{{hypothesis}}}}\\nDoes the premise entail the hypothesis? Answer yes, maybe or no:"
doc_to_choice: ["yes", "maybe", "no"]
doc_to_target: "{{{{['entailment', 'neutral', 'contradiction'].index(label)}}}}"
target_delimiter: " "
fewshot_delimiter: "\\n\\n"
metric_list: [{{metric: acc}}, {{metric: acc_norm}}]
"""  # noqa: E501 (the prompts' lines, as lm-eval reads them)
XCOPA_YAML = """
task: mte_xcopa
dataset_path: json
dataset_kwargs:
  data_files: {{train: "{train}", test: "{test}"}}
output_type: multiple_choice
training_split: train
fewshot_split: train
test_split: test
fewshot_config: {{sampler: first_n}}
doc_to_text: "{{{{premise.strip().rstrip('.!?\\u3002\\u0964')}}}}{{{{' because' if question == 'cause' else ', so'}}}}"
doc_to_choice: "{{{{[choice1[:1].lower() + choice1[1:], choice2[:1].lower() + choice2[1:]]}}}}"
doc_to_target: label
target_delimiter: " "
fewshot_delimiter: "\\n\\n"
metric_list: [{{metric: acc}}, {{metric: acc_norm}}]
"""  # noqa: E501


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    folder = tmp_path_factory.mktemp("prompting")
    write_xcopa(folder / "xcopa")
    return {
        "xnli": {
            "train": demo_dir(XNLI) / "train-en.tsv",
            "test": demo_dir(XNLI) / "test-de.tsv",
        },
        "xcopa": {
            "train": folder / "xcopa/data/en/train.en.jsonl",
            "test": folder / "xcopa/data/et/test.et.jsonl",
        },
        "yaml": {"folder": folder / "tasks"},
    }


def _ours(task: str, paths: dict[str, Path]) -> dict[str, list[dict]]:
    if task == "xnli":
        return {split: read_pair_tsv(paths[split], XNLI) for split in ("train", "test")}
    return {split: read_choice_files(XCOPA, [paths[split]], split) for split in ("train", "test")}


def _lm_eval(model: Path, files: dict, task: str, shots: int) -> list[dict]:
    from lm_eval import simple_evaluate
    from lm_eval.tasks import TaskManager

    folder = files["yaml"]["folder"]
    folder.mkdir(exist_ok=True)
    template = XNLI_YAML if task == "xnli" else XCOPA_YAML
    (folder / f"{task}.yaml").write_text(template.format(**files[task]), encoding="utf-8")
    out = simple_evaluate(
        model="hf",
        model_args={"pretrained": str(model), "dtype": "float32", "device": "cpu"},
        tasks=[f"mte_{task}"],
        num_fewshot=shots,
        batch_size=4,
        log_samples=True,
        task_manager=TaskManager(include_path=str(folder)),
        random_seed=0,
        numpy_random_seed=0,
        torch_random_seed=0,
        fewshot_random_seed=0,
    )
    return sorted(out["samples"][f"mte_{task}"], key=lambda sample: sample["doc_id"])


@pytest.mark.parametrize("shots", [0, 5])
@pytest.mark.parametrize("task", ["xnli", "xcopa"])
def test_log_likelihoods_equal_lm_evaluation_harness(
    tiny_llama: Path, files: dict, task: str, shots: int
) -> None:
    from transformers import AutoModelForCausalLM

    examples = _ours(task, files[task])
    # lm-eval's first_n sampler: the first training examples, in order
    demos = examples["train"][:shots]
    model = AutoModelForCausalLM.from_pretrained(tiny_llama).float()
    tokenizer = load_tokenizer(tiny_llama)
    prompt = TASKS[task].prompt
    ours = score_examples(model, tokenizer, prompt, examples["test"], demos, batch_size=4)
    theirs = _lm_eval(tiny_llama, files, task, shots)
    assert len(theirs) == len(ours) == len(examples["test"])
    largest = 0.0
    for mine, sample in zip(ours, theirs, strict=True):
        # the same requests, each choice's context and continuation
        contexts = {request[0] for request in sample["arguments"]}
        assert contexts == {fewshot_context(prompt, demos, examples["test"][sample["doc_id"]])}
        values = [response[0][0] for response in sample["resps"]]
        differences = [abs(a - b) for a, b in zip(mine["loglikelihoods"], values, strict=True)]
        largest = max(largest, *differences)
        assert mine["loglikelihoods"] == pytest.approx(values, abs=1e-5)
        assert mine["gold"] == sample["target"]
        assert (mine["label"] == mine["gold"]) == bool(sample["acc"])
        assert (mine["label_norm"] == mine["gold"]) == bool(sample["acc_norm"])
    accuracy = sum(r["label"] == r["gold"] for r in ours) / len(ours)
    normalised = sum(r["label_norm"] == r["gold"] for r in ours) / len(ours)
    assert accuracy == pytest.approx(sum(s["acc"] for s in theirs) / len(theirs))
    assert normalised == pytest.approx(sum(s["acc_norm"] for s in theirs) / len(theirs))
    print(f"{task} {shots}-shot: {len(ours)} examples, largest difference {largest:.2e}, "
          f"accuracy {accuracy:.4f}, normalised {normalised:.4f}")  # fmt: skip


def test_a_contexts_trailing_space_moves_to_the_continuation(tiny_qwen2: Path) -> None:
    tokenizer = load_tokenizer(tiny_qwen2)
    context, continuation = encode_request(tokenizer, "The man fell ", "down")
    # " down" is scored as running text cuts it: its space on the word (Ġdown), not the context
    assert context == tokenizer("The man fell")["input_ids"]
    whole = tokenizer("The man fell down")["input_ids"]
    assert context + continuation == whole
    assert tokenizer.convert_ids_to_tokens(continuation)[0].startswith("\u0120")


def test_demonstrations_are_drawn_with_the_seed_and_choices_break_ties_first() -> None:
    train = [{"id": str(n)} for n in range(20)]
    assert demonstrations(train, 5, seed=1) == demonstrations(train, 5, seed=1)
    assert demonstrations(train, 5, seed=1) != demonstrations(train, 5, seed=2)
    assert demonstrations(train, 0, seed=1) == []
    with pytest.raises(ValueError, match="20"):
        demonstrations(train, 21, seed=1)
    # by sum: -2.0 beats -3.0; per character: -3.0 / 6 = -0.5 beats -2.0 / 2 = -1.0
    assert choose([-2.0, -3.0], ["ab", "abcdef"]) == (0, 1)
    assert choose([-1.0, -1.0], ["a", "b"]) == (0, 0)


def test_the_prompts_name_their_source() -> None:
    for task in (XNLI, XCOPA):
        assert task.prompt is not None and "this project's wording" in task.prompt.source
    example = {"text_a": "A man sleeps.", "text_b": "He rests.", "label": "neutral"}
    assert XNLI.prompt.choices(example)[XNLI.prompt.answer(example)] == "maybe"
    copa = {"premise": "The man fell.", "question": "cause", "choices": ["He slipped."] * 2}
    assert XCOPA.prompt.text(copa) == "The man fell because"
    assert XCOPA.prompt.choices({**copa, "label": 0})[0] == "he slipped."
    assert json.dumps(XNLI.prompt.text(example)).count("\\n") == 2


def test_greedy_answers_batched_equal_one_at_a_time_and_stop_at_the_line(
    tiny_llama: Path,
) -> None:
    import torch
    from transformers import AutoModelForCausalLM

    from mte.modelling.prompting import cut_at_stop, generate_answers

    assert cut_at_stop("Paris\nQuestion: next", ["\n"]) == "Paris"
    assert cut_at_stop("Paris. Then", ["\n", ". "]) == "Paris"
    assert cut_at_stop("no stop", ["\n"]) == "no stop"
    prompt = TASKS["xquad"].prompt
    contexts = ["Der Zug fährt nach Berlin.", "A man plays a guitar on a busy corner.", "Hi."]
    examples = [
        {"context": c, "question": q, "answers": {"text": [a], "answer_start": [0]}}
        for c, q, a in zip(
            contexts, ["Wohin?", "Who plays?", "What?"], ["Berlin", "A man", "Hi"], strict=True
        )
    ]
    demos = examples[1:2]
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_pretrained(tiny_llama).float()
    tokenizer = load_tokenizer(tiny_llama)
    batched = generate_answers(model, tokenizer, prompt, examples, demos, 8, batch_size=3)
    one_by_one = []
    for example in examples:
        ids = tokenizer(fewshot_context(prompt, demos, example), return_tensors="pt")["input_ids"]
        out = model.generate(ids, max_new_tokens=8, do_sample=False,
                             pad_token_id=tokenizer.pad_token_id)  # fmt: skip
        text = tokenizer.decode(out[0, ids.shape[1] :], skip_special_tokens=True)
        one_by_one.append(cut_at_stop(text, prompt.until).strip())
    # left padding leaves every row's continuation as it is alone
    assert batched == one_by_one
    # a demonstration shows its first gold answer after the delimiter
    assert fewshot_context(prompt, demos, examples[0]).startswith(
        "Context: A man plays a guitar on a busy corner.\nQuestion: Who plays?\nAnswer: A man\n\n"
    )


def test_the_other_prompts_by_hand() -> None:
    pair = {"text_a": "Er kam.", "text_b": "Er ging.", "label": "0"}
    pawsx = TASKS["pawsx"].prompt
    assert pawsx.text(pair) == (
        "Sentence 1: Er kam.\nSentence 2: Er ging.\n"
        "Do the two sentences mean the same thing? Answer yes or no:"
    )
    assert pawsx.demonstration_answer(pair) == "no"
    item = {"passage": "P.", "question": "Q?", "choices": ["a", "b", "c", "d"], "label": 2}
    belebele = TASKS["belebele"].prompt
    assert belebele.text(item) == "Passage: P.\nQuestion: Q?\nA. a\nB. b\nC. c\nD. d\nAnswer:"
    assert belebele.choices(item) == ["A", "B", "C", "D"]
    assert belebele.demonstration_answer(item) == "C"
