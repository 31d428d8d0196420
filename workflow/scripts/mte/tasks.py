"""The benchmark registry: languages, label sets, metrics and hub locations of each task."""

from __future__ import annotations

from dataclasses import dataclass, field

from mte.errors import ConfigError

SPLITS = ("train", "dev", "test")


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
    demo_languages: tuple[str, ...] = ()
    train_language: str = "en"
    reference: str = ""

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


TASKS: dict[str, Task] = {
    task.name: task
    for task in (
        Task(
            name="xnli",
            title="XNLI",
            family="pair_classification",
            # XNLI's 15 languages (Conneau et al. 2018), the set used by XLM-R and XTREME
            languages=(
                "en",
                "fr",
                "es",
                "de",
                "el",
                "bg",
                "ru",
                "tr",
                "ar",
                "vi",
                "th",
                "zh",
                "hi",
                "sw",
                "ur",
            ),
            labels=("entailment", "neutral", "contradiction"),
            primary_metric="accuracy",
            hub_id="facebook/xnli",
            hub_splits={"train": "train", "dev": "validation", "test": "test"},
            hub_text_columns=("premise", "hypothesis"),
            # XNLI-MT and MultiNLI releases spell one label "contradictory"
            label_aliases={"contradictory": "contradiction"},
            demo_languages=("en", "de", "es", "ru", "zh", "ar"),
            reference="Conneau et al. 2018 (XNLI); XLM-R Table 1; XTREME Table 2",
        ),
        Task(
            name="pawsx",
            title="PAWS-X",
            family="pair_classification",
            languages=("en", "de", "es", "fr", "ja", "ko", "zh"),
            labels=("0", "1"),
            primary_metric="accuracy",
            hub_id="google-research-datasets/paws-x",
            hub_splits={"train": "train", "dev": "validation", "test": "test"},
            hub_text_columns=("sentence1", "sentence2"),
            reference="Yang et al. 2019 (PAWS-X); XTREME Table 2",
        ),
    )
}


def get_task(name: str, key: str = "tasks") -> Task:
    """Look up a task by name; an unknown name raises a :class:`ConfigError` naming ``key``."""
    try:
        return TASKS[name]
    except KeyError:
        raise ConfigError(
            f"{key}.{name}",
            f"unknown task '{name}' (known tasks: {', '.join(sorted(TASKS))})",
        ) from None
