"""Materialise one task x language x split from its source into canonical examples."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from mte.errors import ConfigError
from mte.io import sha256_file
from mte.readers.hub import load_hub_split, pair_examples_from_hub, tagging_examples_from_hub
from mte.readers.pairs import read_pairs
from mte.readers.qa import qa_examples_from_hub, read_squad_json
from mte.readers.retrieval import bucc_from_hub, read_bucc, read_tatoeba, tatoeba_from_hub
from mte.readers.tagging import count_empty_tokens, read_tagging
from mte.readers.text import read_lines
from mte.tasks import GLUE_TASKS, TRANSLATED_SPLITS, Task

PAIR_FILES = {
    # XTREME's processed files; MultiNLI (the XNLI English training set); the original
    # XNLI 1.0 release with a language column.
    "train": (
        "train-{lang}.tsv",
        "multinli_1.0_train.jsonl",
        "multinli_1.0_train.txt",
        "train.tsv",
    ),
    "dev": ("dev-{lang}.tsv", "xnli.dev.tsv"),
    "test": ("test-{lang}.tsv", "xnli.test.tsv"),
}
XTREME_TAGGING_FILES = {split: (f"{split}-{{lang}}.tsv",) for split in ("train", "dev", "test")}
SQUAD_FILES = {"train": ("train-v1.1.json",), "dev": ("dev-v1.1.json",)}
# the GLUE folders of each task (path: e.g. glue_data/MRPC)
GLUE_FILES = {"train": ("train.tsv",), "dev": ("dev.tsv",), "test": ("test.tsv",)}

# Where each split lies in a task's released layouts, tried in order. {lang} is the language,
# {code} its code in file names; a template with * takes every file it matches (sorted).
FILE_CANDIDATES: dict[str, dict[str, tuple[str, ...]]] = {
    "xnli": PAIR_FILES,
    # XTREME's processed TSV, else the original release's x-final/{lang}/ folders
    "pawsx": {
        "train": ("train-{lang}.tsv", "{lang}/train.tsv", "{lang}/translated_train.tsv"),
        "dev": ("dev-{lang}.tsv", "{lang}/dev_2k.tsv"),
        "test": ("test-{lang}.tsv", "{lang}/test_2k.tsv"),
    },
    # CoNLL-2002/2003: eng/esp/ned/deu .train, .testa (development), .testb (test)
    "conll": {"train": ("{code}.train",), "dev": ("{code}.testa",), "test": ("{code}.testb",)},
    "panx": XTREME_TAGGING_FILES,
    # XTREME's processed TSV, else every UD treebank of the language in CoNLL-U
    "udpos": {
        split: (f"{split}-{{lang}}.tsv", f"{{lang}}_*-ud-{split}.conllu")
        for split in ("train", "dev", "test")
    },
    # QA: English SQuAD v1.1 trains (task squad); the benchmarks' files evaluate
    "squad": SQUAD_FILES,
    "xquad": {"test": ("xquad.{lang}.json",)},
    "mlqa": {
        "dev": ("dev-context-{lang}-question-{lang}.json",),
        "test": ("test-context-{lang}-question-{lang}.json",),
    },
    # {context}/{question}: the two languages of a G-XLT pair "context-question"
    "mlqa_gxlt": {
        "dev": ("dev-context-{context}-question-{question}.json",),
        "test": ("test-context-{context}-question-{question}.json",),
    },
    # XTREME's download layout (tydiqa-goldp-v1.1-train/, tydiqa-goldp-v1.1-dev/), else the
    # files in the folder itself; GoldP's dev set is the benchmark's test set
    "tydiqa": {
        "train": (
            "tydiqa-goldp-v1.1-train/tydiqa.{lang}.train.json",
            "tydiqa.{lang}.train.json",
        ),
        **{
            split: (
                "tydiqa-goldp-v1.1-dev/tydiqa.goldp.{lang}.dev.json",
                "tydiqa-goldp-v1.1-dev/tydiqa.{lang}.dev.json",
                "tydiqa.goldp.{lang}.dev.json",
                "tydiqa.{lang}.dev.json",
            )
            for split in ("dev", "test")
        },
    },
    **{task.name: GLUE_FILES for task in GLUE_TASKS},
    "mnli": {**GLUE_FILES, "dev": ("dev_matched.tsv",), "test": ("test_matched.tsv",)},
    "mnli_mm": {**GLUE_FILES, "dev": ("dev_mismatched.tsv",), "test": ("test_mismatched.tsv",)},
    # the foreign side; its .eng sibling is read with it
    "tatoeba": {"test": ("tatoeba.{code}-eng.{code}",)},
    # XTREME's names, else the BUCC 2018 release's (sample = dev, training = test); the .en
    # and .gold siblings are read with it
    "bucc": {
        "dev": ("{lang}-en.dev.{lang}", "{lang}-en.sample.{lang}"),
        "test": ("{lang}-en.test.{lang}", "{lang}-en.training.{lang}"),
    },
}


# XTREME's processed test files of these tasks hold no labels (the benchmark hid them): where
# the labelled test sets are instead
LABELLED_RELEASES = {
    "xnli": "XNLI 1.0's xnli.test.tsv (XNLI-1.0.zip from dl.fbaipublicfiles.com/XNLI), "
    "or source: hub (facebook/xnli)",
    "pawsx": "the PAWS-X release's x-final/{lang}/test_2k.tsv (x-final.tar.gz from "
    "storage.googleapis.com/paws/pawsx), or source: hub (google-research-datasets/paws-x)",
    "panx": "source: hub (google/xtreme PAN-X.{lang}), or WikiANN with Rahimi et al.'s splits",
    "udpos": "the Universal Dependencies v2.5 treebanks' {lang}_*-ud-test.conllu files "
    "(hdl.handle.net/11234/1-3105), or source: hub (google/xtreme udpos.*)",
}


def has_no_labels(task: Task, path: Path) -> bool:
    """An XTREME processed TSV without its labels: pair lines of two fields (text_a, text_b),
    or tagging lines of a token alone. The first non-blank line decides."""
    if task.name not in LABELLED_RELEASES or path.suffix != ".tsv":
        return False
    for _, line in read_lines(path):
        if line.strip():
            fields = line.split("\t")
            return len(fields) == (1 if task.family == "tagging" else 2)
    return False


# XTREME's release of its translations names them so (one folder per task)
TRANSLATION_FILES = {
    "translate-train": "translate-train/en-{lang}-translated.{ext}",
    "translate-test": "translate-test/test-{lang}-en-translated.{ext}",
    "pseudo-test": "pseudo-test/test-en-{lang}-translated.{ext}",
}
TRANSLATION_EXTENSIONS = {"qa": "json"}


def demo_dir(task: Task) -> Path:
    """The folder of the demo data shipped inside the package for ``task``."""
    return Path(str(resources.files("mte") / "demo" / task.name))


def _expand(template: Path) -> list[Path]:
    if "*" in template.name:
        return sorted(template.parent.glob(template.name))
    return [template] if template.is_file() else []


def candidate_files(task: Task, task_cfg: dict[str, Any], language: str, split: str) -> list[Path]:
    """The file templates that may hold ``split`` of ``language``, in the order tried."""
    if split in TRANSLATED_SPLITS:
        translations = task_cfg.get("translations") or {}
        template = (translations.get("files") or {}).get(split) or TRANSLATION_FILES[split]
        ext = TRANSLATION_EXTENSIONS.get(task.family, "tsv")
        name = template.format(lang=language, ext=ext)
        return [Path(translations.get("path") or ".") / name]
    if task_cfg["source"] == "demo":
        return [demo_dir(task) / f"{split}-{language}.tsv"]
    base = Path(task_cfg.get("path") or ".")
    explicit = (task_cfg.get("files") or {}).get(split)
    templates = (explicit,) if explicit else FILE_CANDIDATES[task.name].get(split, ())
    code = task.file_codes.get(language, language)
    context, _, question = language.partition("-")
    keys = {"lang": language, "code": code, "context": context, "question": question or context}
    return [base / template.format(**keys) for template in templates]


def resolve_files(task: Task, task_cfg: dict[str, Any], language: str, split: str) -> list[Path]:
    """The files of the first candidate that exists, or a :class:`ConfigError` naming what
    was tried."""
    candidates = candidate_files(task, task_cfg, language, split)
    unlabelled = None
    for candidate in candidates:
        found = _expand(candidate)
        # a folder with XTREME's unlabelled test-{lang}.tsv and a labelled release beside it:
        # the labelled one is read
        if found and split not in TRANSLATED_SPLITS and has_no_labels(task, found[0]):
            unlabelled = unlabelled or found[0]
            continue
        if found:
            return found
    key = f"tasks.{task.name}.{'files' if task_cfg.get('files') else 'path'}"
    if unlabelled is not None:
        where = LABELLED_RELEASES[task.name].format(lang=language)
        raise ConfigError(
            key,
            f"{unlabelled} has no labels (XTREME's processed {split} files of {task.title} hide "
            f"them): give the labelled release, {where}",
        )
    if split in TRANSLATED_SPLITS:
        translations = task_cfg.get("translations") or {}
        explicit = split in (translations.get("files") or {})
        key = f"tasks.{task.name}.translations.{'files' if explicit else 'path'}"
    elif task_cfg["source"] == "demo":
        key = f"tasks.{task.name}.languages"
    if not candidates:
        raise ConfigError(key, f"{task.title} releases no {split} files (give files.{split})")
    tried = ", ".join(str(c) for c in candidates)
    raise ConfigError(
        key, f"no {split} file for {task.title} language '{language}' (looked for: {tried})"
    )


def hub_location(task: Task, language: str, split: str = "test") -> tuple[str, str | None]:
    """The hub dataset id and config that hold ``split`` of ``language`` of ``task``."""
    if task.hub_configs or task.family == "qa":
        if language not in task.hub_configs:
            raise ConfigError(
                f"tasks.{task.name}.source",
                f"{task.title} '{language}' is not on the Hugging Face hub; use source: files",
            )
        return task.hub_configs[language]
    return task.hub_id, language


def read_files(task: Task, paths: list[Path], language: str) -> list[dict[str, Any]]:
    """Read released files of ``task`` with the reader of its family."""
    if task.family == "tagging":
        return read_tagging(paths, task)
    if task.family == "qa":
        return [example for path in paths for example in read_squad_json(path)]
    if task.family == "retrieval":
        return read_tatoeba(paths[0])
    if task.family == "mining":
        return read_bucc(paths[0])
    return read_pairs(paths[0], task, language)


def materialize(
    task: Task, task_cfg: dict[str, Any], language: str, split: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Read ``split`` of ``language`` from the task's configured source.

    Returns the canonical examples and a provenance record (source, files and checksums, or
    hub id, config and revision).
    """
    source = task_cfg["source"]
    if split in TRANSLATED_SPLITS:
        source = "files"
    if source in ("demo", "files"):
        paths = resolve_files(task, task_cfg, language, split)
        examples = read_files(task, paths, language)
        origin = {
            "source": source,
            "files": [{"file": str(p), "sha256": sha256_file(p)} for p in paths],
        }
    elif source == "hub":
        hub_id, config_name = hub_location(task, language, split)
        hub_split = task.hub_splits[split]
        revision = task_cfg.get("revision")
        dataset = load_hub_split(hub_id, config_name, hub_split, revision)
        name = f"{hub_id} {config_name}"
        if task.family == "tagging":
            examples = tagging_examples_from_hub(dataset, task)
        elif task.family == "retrieval":
            examples = tatoeba_from_hub(dataset, name)
        elif task.family == "mining":
            examples = bucc_from_hub(dataset, name, language)
        elif task.family == "qa":
            prefix = task.hub_id_prefixes.get(language, "")
            examples = qa_examples_from_hub(dataset, name, prefix)
        else:
            examples = pair_examples_from_hub(dataset, task)
        origin = {
            "source": "hub",
            "id": hub_id,
            "config": config_name,
            "split": hub_split,
            "revision": revision,
            "fingerprint": getattr(dataset, "_fingerprint", None),
        }
    else:
        raise ConfigError(f"tasks.{task.name}.source", f"unknown source '{source}'")
    if task.family == "tagging" and (empty := count_empty_tokens(examples)):
        origin["empty_tokens"] = empty  # kept as words with no text; the job's log says so
    # a translation keeps the subset of what it translates (the files are parallel)
    original = {"translate-train": "train"}.get(split, split)
    if split in ("translate-test", "pseudo-test"):
        original = task_cfg.get("eval_split") or task.default_eval_split
    subset = (task_cfg.get("subset") or {}).get(original)
    if subset:
        examples = take_subset(examples, subset, f"tasks.{task.name}.subset.{original}")
        origin["subset"] = subset
    return examples, origin


def take_subset(examples: list[dict[str, Any]], subset: dict[str, int], key: str) -> list[dict]:
    """The first or last N examples, in file order; asking for more than there are is an
    error, so that a subset size written in a config is the size that ran."""
    ((where, size),) = subset.items()
    if size > len(examples):
        raise ConfigError(key, f"asks for {where} {size} examples, but there are {len(examples)}")
    return examples[:size] if where == "first" else examples[-size:]
