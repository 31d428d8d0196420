"""The plan's records (:class:`TaskPlan`, :class:`ModelPlan`, :class:`RunPlan`) and
:func:`build_plan`, which builds them once from a checked config."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from mte.config.plan import keys, resolve
from mte.config.plan.records import Tokenization, tokenization_for
from mte.modelling.architectures import SOURCES_CHECKED_IN_PLAN
from mte.registry import model_need, pools, retrieves
from mte.tasks.spec import Task


def _frozen(value: Any) -> Any:
    """A read-only copy of a config value: mappings as mapping proxies, lists as tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    return value


def thawed(value: Any) -> Any:
    """A frozen value as the plain JSON-like value it was read from (dicts and lists): what a
    script receives, and what a folder key digests."""
    if isinstance(value, Mapping):
        return {key: thawed(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [thawed(item) for item in value]
    return value


@dataclass(frozen=True)
class TaskPlan:
    """One configured task, resolved."""

    name: str
    spec: Task
    # the task's checked config entry, read-only (what a family's own options read)
    entry: Mapping[str, Any]
    source: str
    languages: tuple[str, ...]
    # the configured languages a missing_files: skip folder lacks: language -> the file looked for
    left_out: Mapping[str, str]
    settings: tuple[str, ...]
    seeds: tuple[int, ...]
    # the task whose fine-tunes it evaluates (models_of: SQuAD's for XQuAD), else ""
    models_of: str
    # the task whose fine-tunes it uses: models_of, else itself
    owner: str
    # the task whose fine-tune a fine-tune of it starts from (XCOPA after SIQa), else ""
    start_from: str
    # a retrieval task's encoder: the task whose zero-shot fine-tunes embed, else None
    encoder: str | None
    # whether a retrieval task's texts are read lower-cased (its encoder's do_lower_case)
    retrieval_lower_case: bool
    eval_split: str
    train_language: str
    retrieves: bool
    pooled: bool
    pseudo_test: bool
    # the fine-tune's hyper-parameters: the owner's
    hyperparameters: Mapping[str, Any]
    tokenization: Tokenization
    translations: Mapping[str, Any] | None
    # a retrieval task's layer choices and embedding batch, else None
    layers: tuple[Any, ...] | None
    batch_size: int | None
    # (language, split) of every file its runs read
    needed_splits: tuple[tuple[str, str], ...]

    @property
    def train_only(self) -> bool:
        return self.spec.train_only

    @property
    def prompted(self) -> bool:
        return self.spec.prompt is not None

    def data_params(self) -> dict[str, Any]:
        """The config values that decide the task's downloaded examples."""
        return {key: thawed(self.entry.get(key)) for key in keys.DATA_KEYS}


@dataclass(frozen=True)
class ModelPlan:
    """One configured model: its entry (source, id or path, revision, resources) and the
    settings its own ``settings`` list keeps (empty: every setting of a task)."""

    name: str
    entry: Mapping[str, Any]
    settings: tuple[str, ...]

    def runs(self, setting: str) -> bool:
        return not self.settings or setting in self.settings

    @property
    def checked_by_job(self) -> bool:
        """Whether its architecture is first seen by check_model jobs (a hub snapshot's
        config.json), not while the plan is built (mte.config.checks.check_architectures)."""
        return self.entry["source"] not in SOURCES_CHECKED_IN_PLAN


@dataclass(frozen=True)
class RunPlan:
    """The whole run: its tasks (in the config's order) and models, and the run-wide options
    the folder keys read."""

    tasks: Mapping[str, TaskPlan]
    models: tuple[ModelPlan, ...]
    settings: tuple[str, ...]
    tokenization: str
    in_context: Mapping[str, Any]
    data_lock: str | None
    # the checked config, read-only: what run-wide steps (the data lock) read whole
    config: Mapping[str, Any]

    def task(self, name: str) -> TaskPlan:
        return self.tasks[name]

    def model(self, name: str) -> ModelPlan:
        return next(model for model in self.models if model.name == name)

    @property
    def evaluated(self) -> tuple[TaskPlan, ...]:
        """The tasks scored and tabulated (not SQuAD, a training set only)."""
        return tuple(task for task in self.tasks.values() if not task.train_only)

    def model_settings(self, model: str, task: str) -> tuple[str, ...]:
        """The settings ``model`` runs for ``task``: the task's, those the model keeps."""
        chosen = self.model(model)
        return tuple(s for s in self.task(task).settings if chosen.runs(s))

    def architecture_needs(self, model: str, task: str) -> list[tuple[str, str]]:
        """(task, what it asks of the model's architecture) if ``model`` fine-tunes or embeds
        with it for ``task``, else nothing: what the check_model job checks a hub model's
        config.json against."""
        if not resolve.uses_architecture(thawed(self.model(model).entry), task, self._raw):
            return []
        return [(task, model_need(self.tasks[task].spec))]

    def training_splits(
        self, task: str, setting: str, language: str | None
    ) -> dict[str, list[tuple[str, str]]]:
        """(language, split) pairs one fine-tune of ``setting`` trains and selects on."""
        return self._configured(task).training_splits(setting, language)

    def evaluation_split(self, task: str, setting: str, language: str) -> str:
        """The split a setting predicts for ``language`` (translate-test: the translated test
        set)."""
        return self._configured(task).evaluation_split(setting, language)

    def translation_source(self, task: str, split: str, language: str) -> tuple[str, ...]:
        return self._configured(task).translation_source(split, language)

    def _configured(self, task: str) -> resolve.TaskConfig:
        """The task's spec as the plan resolved it, with the config: no second registry read."""
        return resolve.TaskConfig(self.tasks[task].spec, self._raw)

    # the folder keys (mte.config.plan.keys), computed once per task
    @functools.cached_property
    def _keys(self) -> dict[tuple[str, str], str]:
        return {}

    def _key(self, kind: str, task: str, compute: Any) -> str:
        if (kind, task) not in self._keys:
            self._keys[(kind, task)] = compute(task, self._raw)
        return self._keys[(kind, task)]

    def data_key(self, task: str) -> str:
        return self._key("data", task, keys.data_key)

    def source_key(self, task: str) -> str:
        return self._key("source", task, keys.source_key)

    def tokens_key(self, task: str) -> str:
        return self._key("tokens", task, keys.tokens_key)

    def variant_key(self, task: str) -> str:
        return self._key("variant", task, keys.variant_key)

    def prompted_variant_key(self, task: str) -> str:
        return self._key("prompted", task, keys.prompted_variant_key)

    def release_key(self, task: str) -> str:
        return self._key("release", task, keys.release_key)

    def release_languages(self, task: str) -> list[str]:
        return keys.release_languages(task, self._raw)

    @functools.cached_property
    def _raw(self) -> dict[str, Any]:
        """The checked config as plain values: what the resolution and the keys read."""
        return thawed(self.config)


def _task_plan(name: str, config: dict[str, Any]) -> TaskPlan:
    # the spec looked up once and handed on: every read below goes through ``task``
    task = resolve.TaskConfig.of(name, config)
    spec, entry = task.spec, task.entry
    models_of = task.models_of()
    retrieving = retrieves(spec)
    return TaskPlan(
        name=name,
        spec=spec,
        entry=_frozen(entry),
        source=entry["source"],
        languages=tuple(task.languages()),
        left_out=_frozen(entry.get(resolve.LEFT_OUT) or {}),
        settings=tuple(task.settings()),
        seeds=tuple(task.seeds()),
        models_of=models_of,
        owner=models_of or name,
        start_from=task.start_from(),
        # None and False for a task that does not retrieve (it has no encoder)
        encoder=task.retrieval_encoder(),
        retrieval_lower_case=task.retrieval_lower_case(),
        eval_split=task.eval_split(),
        train_language=spec.train_language,
        retrieves=retrieving,
        pooled=pools(spec),
        pseudo_test=bool(entry.get("pseudo_test")),
        hyperparameters=_frozen(config["tasks"][models_of or name].get("hyperparameters") or {}),
        tokenization=tokenization_for(task),
        translations=_frozen(entry.get("translations")),
        layers=_frozen(entry.get("layers")),
        batch_size=entry.get("batch_size") if retrieving else None,
        needed_splits=tuple(task.needed_splits()),
    )


def build_plan(config: dict[str, Any]) -> RunPlan:
    """The plan of a checked config (the schema's defaults filled, mte.config.checks passed)."""
    tasks = {name: _task_plan(name, config) for name in config["tasks"]}
    models = tuple(
        ModelPlan(model["name"], _frozen(model), tuple(model.get("settings") or ()))
        for model in config["models"]
    )
    return RunPlan(
        tasks=MappingProxyType(tasks),
        models=models,
        settings=tuple(config["settings"]),
        tokenization=config["tokenization"],
        in_context=_frozen(config.get("in_context") or {}),
        data_lock=config.get("data_lock") or None,
        config=_frozen(config),
    )
