"""The task registry: the :class:`Task` record every spec fills, and the specs themselves,
discovered from the modules of ``mte.specs`` (one module per benchmark)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType

from mte.errors import ConfigError

# translate-train: the English training set machine-translated into a language;
# translate-test: a language's test set translated into English; pseudo-test: the English test
# set translated into a language (XTREME's pseudo test sets). Each is stored under the
# language it belongs to.
TRANSLATED_SPLITS = ("translate-train", "translate-test", "pseudo-test")
SPLITS = ("train", "dev", "test", *TRANSLATED_SPLITS)


@dataclass(frozen=True)
class Task:
    """What the workflow needs to know about one benchmark task."""

    name: str
    title: str
    family: str
    languages: tuple[str, ...]
    labels: tuple[str, ...]
    primary_metric: str
    hub_id: str
    # hub split names for our canonical split names
    hub_splits: dict[str, str] = field(default_factory=dict)
    # the hub dataset's text columns, in the canonical order (text_a, text_b)
    hub_text_columns: tuple[str, ...] = ()
    # spellings of a label in released files that mean one of ``labels``
    label_aliases: dict[str, str] = field(default_factory=dict)
    # tags an older release of the data named otherwise: old name -> (the name now, the release
    # that used the old one); a file with an old name is refused with the advice to rename
    former_labels: dict[str, tuple[str, str]] = field(default_factory=dict)
    demo_languages: tuple[str, ...] = ()
    train_language: str = "en"
    reference: str = ""
    # the metrics reported (the primary one first)
    metrics: tuple[str, ...] = ("accuracy",)
    # the dev metric that selects the fine-tuned model, where it is not the primary one (UD-POS:
    # seqeval F1, as XTREME's run_tag.py selects)
    selection_metric: str = ""
    # the metrics whose mean is the task's cell in a suite summary, where they are not the
    # family's (UD-POS: seqeval F1, as XTREME's evaluate.py scores it)
    summary_metrics: tuple[str, ...] = ()
    # hub: dataset id and config per language, where they differ from hub_id / the language
    hub_configs: dict[str, tuple[str, str]] = field(default_factory=dict)
    hub_tag_column: str = ""
    # transfer settings the task has data for
    settings: tuple[str, ...] = ("zero-shot",)
    # a language's code in released file names, where it is not the language code itself
    file_codes: dict[str, str] = field(default_factory=dict)
    # a training set only (SQuAD v1.1): fine-tuned on, never evaluated; the tasks whose
    # ``models_of`` names it evaluate its fine-tunes
    train_only: bool = False
    # QA answer normalisation: "squad" (v1.1) or "mlqa" (v1, per language)
    qa_normalization: str = ""
    # evaluate the fine-tuned models of another task instead of fine-tuning again (one SQuAD
    # fine-tune serves XQuAD, MLQA and MLQA G-XLT, as in XTREME's scripts/train.sh)
    models_of: str = ""
    # hub configs that mix languages: a language's examples are those whose id starts with
    # this prefix (google/xtreme's "tydiqa": "arabic-2387335860751143628-1")
    hub_id_prefixes: dict[str, str] = field(default_factory=dict)
    # the split scored when the config names none (GLUE's test labels are not public: dev)
    default_eval_split: str = "test"
    # header names of (text_a, text_b or None, label) in the task's header-named TSV files
    table_columns: tuple[str, str | None, str] = ("sentence1", "sentence2", "gold_label")
    # files without a header: (number of fields, text_a field, text_b field or None, label field)
    headerless_fields: tuple[int, int, int | None, int] | None = None
    # the suite whose summary score the task enters (GLUE's average)
    group: str = ""
    # every language's test set holds the same items, translated (bootstrap resamples items)
    parallel_test_sets: bool = False
    # tagging: "entities" (NER: seqeval entity P/R/F1) or "tags" (POS: token accuracy)
    tagging_scheme: str = ""
    # where each split lies in the task's released layouts, tried in order: split -> file
    # templates ({lang} the language, {code} its file code, {context}/{question} the two
    # languages of a pair "context-question"; a template with * takes every file it matches)
    files: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # where the labelled test sets are, when XTREME's processed test files hide the labels
    labelled_release: str = ""
    # how the task's table is laid out: "languages" (a column per language) or
    # "pair_matrix" (G-XLT: context languages as rows, question languages as columns)
    table_layout: str = "languages"
    # the hub rows' label column; a ClassLabel maps ids to names, a string column is the name
    hub_label_column: str = "label"
    # the column naming an example in header-named files and hub rows, where it is none of the
    # usual ones (files: pairID, id, index; hub: id, idx)
    id_column: str = ""

    @property
    def dev_metric(self) -> str:
        """The metric that selects the fine-tuned model on dev."""
        return self.selection_metric or self.primary_metric

    def answer_language(self, language: str) -> str:
        """The language whose normalisation scores answers: a G-XLT pair's context language."""
        return language.split("-")[0]

    def canonical_label(self, label: str) -> str | None:
        """The canonical spelling of ``label``, or None when it is not a label of the task."""
        label = self.label_aliases.get(label, label)
        return label if label in self.labels else None

    def check_language(self, language: str, key: str) -> None:
        """Raise a :class:`ConfigError` naming ``key`` if the task lacks ``language``."""
        if language not in self.languages:
            raise ConfigError(
                key,
                f"'{language}' is not a language of {self.title} "
                f"(it has: {', '.join(self.languages)})",
            )


def spec_modules(package: str = "mte.specs") -> list[ModuleType]:
    """The spec modules of ``package``, by name (modules named with a leading underscore are
    helpers): where tasks (``TASKS``) and suites (``SUITES``) are found."""
    import importlib
    import pkgutil

    module = importlib.import_module(package)
    return [
        importlib.import_module(f"{package}.{info.name}")
        for info in sorted(pkgutil.iter_modules(module.__path__), key=lambda i: i.name)
        if not info.name.startswith("_")
    ]


def discover_tasks(package: str = "mte.specs") -> dict[str, Task]:
    """Every task of every spec module of ``package``, by name; two specs of one name are an
    error naming both."""
    found: dict[str, Task] = {}
    where: dict[str, str] = {}
    for spec in spec_modules(package):
        tasks = getattr(spec, "TASKS", None)
        if not isinstance(tasks, tuple) or not all(isinstance(t, Task) for t in tasks):
            raise TypeError(f"task spec module {spec.__name__} must define TASKS, a tuple of Task")
        for task in tasks:
            if task.name in found:
                raise TypeError(
                    f"task '{task.name}' is defined twice: {where[task.name]} and {spec.__name__}"
                )
            found[task.name], where[task.name] = task, spec.__name__
    return found


TASKS: dict[str, Task] = discover_tasks()
GLUE_TASKS = tuple(task for task in TASKS.values() if task.group == "glue")


def get_task(name: str, key: str = "tasks") -> Task:
    """Look up a task by name; an unknown name raises a :class:`ConfigError` naming ``key``."""
    try:
        return TASKS[name]
    except KeyError:
        raise ConfigError(
            f"{key}.{name}",
            f"unknown task '{name}' (known tasks: {', '.join(sorted(TASKS))})",
        ) from None
