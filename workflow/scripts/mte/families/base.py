"""The contract every task family keeps: how its tasks are read, tokenised, fine-tuned,
scored, resampled, translated and tabulated. The workflow asks a task's family, never its name.

A family is one package, ``mte/families/<family>/``, holding everything only it uses (readers,
features, head, scoring); its ``__init__`` lists its classes in ``FAMILY_CLASSES``. It builds on the
shared building blocks (mte.text, mte.modelling.features, mte.modelling.heads, mte.stats.metrics,
mte.stats.align, ...) and never imports the registry, the specs or another family.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from mte.errors import MteError
from mte.families._leaderboard_files import SubmissionScore
from mte.stats.align import align
from mte.stats.metrics import SufficientStatistics, card_metrics
from mte.tasks.spec import FamilyOptions, Task

# the class attributes each family sets (checked when the registry loads it)
REQUIRED_ATTRIBUTES = ("name", "schema_def")


@dataclass(frozen=True)
class ScoringFiles:
    """What scoring one language's predictions reads beside the records: the files' paths (the
    messages name them), the language, the evaluated split, and for a family with
    ``extra_eval_splits`` (BUCC: the dev split, whose gold pairs set the threshold) that split's
    gold examples and file."""

    predictions: str | Path
    gold: str | Path
    language: str
    eval_split: str = "test"
    dev_gold: list[dict] | None = None
    dev_gold_path: str | Path | None = None


class TaskFamily(ABC):
    """One family of tasks (sentence-pair classification, tagging, extractive QA, ...)."""

    # the family's name, as task specs write it
    name: ClassVar[str]
    # the config schema's $defs entry that describes a task of this family
    schema_def: ClassVar[str]
    # the type of the options a task of this family carries (``Task.options``)
    options_type: ClassVar[type[FamilyOptions]] = FamilyOptions
    # its metrics decompose into per-example statistics (intervals, paired tests); False for a
    # family whose metric does not (BUCC's F1 at a threshold chosen on dev)
    per_example_statistics: ClassVar[bool] = True
    # splits read besides the evaluated one (BUCC: dev, whose gold pairs set the threshold)
    extra_eval_splits: ClassVar[tuple[str, ...]] = ()
    # the extension of XTREME's translation files of its tasks
    translation_extension: ClassVar[str] = "tsv"
    # the fields of a line of XTREME's processed test files without their labels
    unlabelled_fields: ClassVar[int | None] = None
    # a translation model can translate its examples (tagged words and answer spans would need
    # their labels projected onto the translation: those come as files)
    model_translatable: ClassVar[bool] = False
    # translated training or test data exist for its tasks (translate-train/-test, pseudo-test)
    has_translations: ClassVar[bool] = False
    # labels are float scores (regression), not label names
    float_labels: ClassVar[bool] = False
    # every language must be named in the task's hub_configs (no "the language is the config")
    hub_configs_required: ClassVar[bool] = False
    # task options that decide its features besides max_length (a dual encoder's questions are
    # cut at max_query_length): they name the features' folder
    tokens_keys: ClassVar[tuple[str, ...]] = ()
    # the suffix of its tasks' files in an XTREME or XTREME-R leaderboard submission
    # (test-{lang}.{suffix}, as evaluate.py's get_suffix names them); None where evaluate.py
    # reads no file of the family (GLUE's regression, LAReQA)
    submission_suffix: ClassVar[str | None] = None

    @abstractmethod
    def read_files(self, task: Task, paths: list[Path], language: str, split: str) -> list[dict]:
        """Released files of ``task`` into canonical examples: ``split`` of ``language`` (a file
        may hold several splits: an assembled training set)."""

    def read_hub(self, task: Task, dataset: Any, name: str, language: str) -> list[dict]:
        """A hub split (``name``: "dataset config", for messages) into canonical examples. By
        default a family has no hub reader: its tasks are read from their released files."""
        raise MteError(f"{task.title} is read from its released files only, not from the hub")

    def read_hub_noted(
        self, task: Task, dataset: Any, name: str, language: str
    ) -> tuple[list[dict], dict[str, Any]]:
        """:meth:`read_hub`, and what reading found worth recording in the data record (rows
        read otherwise than as they stand: the hub's PAWS-X labels of -1). Nothing by default."""
        return self.read_hub(task, dataset, name, language), {}

    def companion_files(self, task: Task, path: Path) -> list[Path]:
        """The files its reader reads together with ``path`` (BUCC's ``.en`` and ``.gold``
        beside ``de-en.test.de``): their checksums are recorded with it, and they are not
        reported as left beside it. None by default."""
        return []

    def after_read(self, task: Task, examples: list[dict], origin: dict[str, Any]) -> None:  # noqa: B027 (a hook)
        """Record in ``origin`` what reading found worth saying (nothing by default)."""

    # --- scoring: one skeleton for every family (align, validate, measure) ---

    def score(
        self, task: Task, predictions: list[dict], gold: list[dict], files: ScoringFiles
    ) -> dict:
        """Metrics and per-example statistics of ``predictions`` against ``gold``: the pairs
        of :meth:`align`, refused by :meth:`validate` where they cannot be scored, measured by
        :meth:`measure`. ``files``: what it reads beside the records (:class:`ScoringFiles`).
        """
        pairs = self.align(predictions, gold, files)
        self.validate(task, pairs, files)
        result = self.measure(task, pairs, files)
        outputs = self.card_outputs(task, pairs)
        if outputs is not None:
            # beside the official metrics, for mte.steps.analyses; no table or interval reads it
            result.setdefault("breakdown", {})["card_recipe"] = card_metrics(*outputs)
        return result

    def align(self, predictions: list[dict], gold: list[dict], files: ScoringFiles) -> list:
        """Each gold example with its prediction, one to one by id (an IntegrityError
        otherwise)."""
        return align(predictions, gold, files.predictions, files.gold)

    def validate(self, task: Task, pairs: list, files: ScoringFiles) -> None:  # noqa: B027 (a hook)
        """Raise an IntegrityError for a prediction that cannot be scored (an unknown label)."""

    @abstractmethod
    def measure(self, task: Task, pairs: list, files: ScoringFiles) -> dict[str, Any]:
        """``n``, ``metrics`` and ``example_stats`` (the rows of :meth:`sufficient_statistics`,
        None without them) of the validated pairs, and what else the score file records (a
        ``breakdown`` that mte.steps.analyses reads: per entity type, per tag, a confusion
        matrix)."""

    def card_outputs(self, task: Task, pairs: list) -> tuple[list, list, str] | None:
        """The validated pairs as the seed evaluation card's ``compute_metrics(preds, golds,
        task)`` takes them (mte.stats.metrics.card_metrics): the predicted outputs, the gold outputs
        and the card's task argument ('NER', 'MLQA', else its accuracy branch); None where the
        card names no output of the family's kind (the default: regression, POS, retrieval and
        mining)."""
        return None

    @abstractmethod
    def sufficient_statistics(self, task: Task) -> SufficientStatistics | None:
        """The per-example statistics whose sums give the task's metrics (mte.stats.metrics), or
        None for a family whose metric has no such decomposition."""

    def statistic(self, task: Task, metric: str) -> Callable | None:
        """``f(sums) -> metric`` for a metric with per-example statistics, else None."""
        statistics = self.sufficient_statistics(task)
        if statistics is None or metric not in statistics.metrics:
            return None
        return lambda sums: statistics.of_sums(metric, sums)

    @abstractmethod
    def segments(self, task: Task, example: dict[str, Any]) -> list[str]:
        """The text of one example a translation carries (BLEU compares these)."""

    # --- leaderboard submissions (mte.submission): XTREME's evaluate.py's files ---

    def submission_predictions(
        self, task: Task, predictions: list[dict], gold: list[dict], score: dict
    ) -> str:
        """The text of one test language's prediction file, as evaluate.py reads it: the
        predictions in the order of ``gold`` (the test file's), the choices the score file
        ``score`` records (the first layer choice of a retrieval task, BUCC's threshold)."""
        raise NotImplementedError(f"{task.title}: evaluate.py reads no file of this family")

    def submission_labels(self, task: Task, gold: list[dict]) -> str:
        """The text of the label file evaluate.py would score the same language against,
        written from the gold test examples."""
        raise NotImplementedError(f"{task.title}: evaluate.py reads no file of this family")

    def score_submission(
        self, task: Task, labels: Path, predictions: Path, language: str
    ) -> SubmissionScore:
        """One language's prediction file against its label file, with evaluate.py's metrics
        (percent) and the per-example statistics behind them."""
        raise NotImplementedError(f"{task.title}: evaluate.py reads no file of this family")

    # --- tables and checks ---

    def table_metrics(self, task: Task) -> dict[str, str]:
        """The metric of each value a table cell prints: suffix -> metric ("" first)."""
        return {"": task.primary_metric}

    def cell_metrics(self, task: Task) -> tuple[str, ...]:
        """The metrics that form a task's cell in a suite's summary (their mean): the spec's
        ``summary_metrics``, else the primary metric."""
        return task.summary_metrics or (task.primary_metric,)

    def check_spec(self, task: Task) -> None:  # noqa: B027 (a hook)
        """Raise ValueError when a task spec lacks what this family needs of it."""

    def check_task_config(self, task: Task, task_cfg: dict[str, Any], key: str) -> None:  # noqa: B027 (a hook)
        """Family-specific checks of one task's configuration (ConfigError naming the key)."""


class FineTuningFamily(TaskFamily):
    """A family whose tasks are fine-tuned on a training split and then predict each language:
    the tokenize, finetune and predict rules."""

    # its fine-tunes are dual encoders (one tower for queries and answers), which a pooled
    # retrieval task can embed its queries and its pool with (``encoder``)
    dual_encoder: ClassVar[bool] = False

    @abstractmethod
    def tokenize(self, tokenizer: Any, examples: list[dict], task: Task, options: dict) -> dict:
        """Model features of ``examples``. ``options``: max_length, label_subword, doc_stride,
        training (mte.steps.featurize)."""

    @abstractmethod
    def model_head(self, task: Task) -> Any:
        """What fine-tunes and predicts ``task`` (an mte.modelling.heads.Head: the model class,
        targets, predictions read back, the dev score)."""


class RetrievingFamily(TaskFamily):
    """A family whose tasks embed their examples with an encoder, the pretrained model or
    another task's fine-tune (``encoder``), and search: the retrieve rule, no fine-tune of its
    own (Tatoeba, BUCC)."""

    @abstractmethod
    def retrieve(self, model_dir: Any, splits: dict[str, list], options: dict) -> list[dict]:
        """The predictions of the evaluated split (``splits`` holds it, and the family's
        ``extra_eval_splits``), embedded with the model in ``model_dir`` (``options``: layer,
        pooling, max_length, batch size; a pooled family's ``pool``)."""


class PooledRetrievingFamily(RetrievingFamily):
    """A retrieving family whose queries of each language search one pool (LAReQA, Mewsli-X),
    embedded once for every language by its own job: the embed_pool rule."""

    # the pool's own file in the task's folder, where the pool is not built from the
    # configured languages' data (Mewsli-X's candidate set); "" where it is
    pool_file: ClassVar[str] = ""

    @abstractmethod
    def build_pool(self, model_dir: Any, inputs: list, languages: list, options: dict) -> dict:
        """The pool's candidates and their vectors: from every configured language's data
        (``inputs``, in the order of ``languages``), or from ``pool_file`` (``inputs[0]``)."""
