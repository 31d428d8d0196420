"""Retrieval: Tatoeba (nearest neighbour accuracy) and BUCC 2018 (bitext mining F1, its
threshold set on the dev split) with the pretrained encoder or another task's fine-tune;
LAReQA and Mewsli-X (mAP@20 over one pool) with the pretrained encoder or a dual encoder
fine-tuned on query-answer pairs (squad_retrieval, mewslix_pairs)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from mte.families.base import FineTuningFamily, PooledRetrievingFamily, RetrievingFamily
from mte.tasks.spec import FamilyOptions, Task


class Retrieval(RetrievingFamily):
    name = "retrieval"
    schema_def = "retrieval_task"

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.retrieval.readers import read_tatoeba

        return read_tatoeba(paths[0])

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.families.retrieval.readers import tatoeba_from_hub

        return tatoeba_from_hub(dataset, name)

    def companion_files(self, task, path: Path) -> list[Path]:
        from mte.families.retrieval.readers import TATOEBA_SIBLINGS, siblings

        return siblings(path, TATOEBA_SIBLINGS)

    # the function of mte.families.retrieval.search that embeds and searches a task's splits
    search: str = "retrieve_tatoeba"
    # the layer choice `xtreme`: XTREME's hidden-state index per model depth. Its scripts pass
    # --specific_layer 7 (scripts/run_tatoeba.sh: 13 for XLM-R large), an index into the hidden
    # states after the embedding output (third_party/evaluate_retrieval.py keeps
    # all_layer_outputs[-num_layers:]): hidden state 8 of a 12-layer model, 14 of XLM-R large
    xtreme_layers: ClassVar[dict[int, int]] = {12: 8, 24: 14}

    def retrieve(self, model_dir, splits: dict[str, list], options: dict) -> list[dict]:
        """Nearest neighbours (Tatoeba: ``splits`` holds the evaluated split) or candidate
        pairs of every split (BUCC: dev sets the threshold the evaluated split uses)."""
        from mte.families.retrieval import search

        options = {**options, "xtreme_layers": self.xtreme_layers}
        return getattr(search, self.search)(model_dir, splits, options)

    def measure(self, task, pairs: list, paths: dict) -> dict[str, Any]:
        from mte.families.retrieval.scoring import measure_neighbours

        return measure_neighbours(task, pairs, paths["predictions"])

    def sufficient_statistics(self, task):
        from mte.stats.metrics import Means

        return Means("accuracy")  # a hit per sentence

    def segments(self, task: Task, example: dict[str, Any]) -> list[str]:
        return [example[f] for f in ("text_a", "text_b", "text") if isinstance(example.get(f), str)]

    # Tatoeba: the line of the English sentence found, one a line
    submission_suffix: ClassVar[str | None] = "tsv"

    def submission_predictions(self, task, predictions, gold, score) -> str:
        from mte.families.retrieval.submission import tatoeba_predictions

        return tatoeba_predictions(predictions, gold)

    def submission_labels(self, task, gold) -> str:
        from mte.families.retrieval.submission import tatoeba_labels

        return tatoeba_labels(gold)

    def score_submission(self, task, labels, predictions, language):
        from mte.families.retrieval.submission import score_index_files

        return score_index_files(labels, predictions)


class Mining(Retrieval):
    name = "mining"
    # scripts/run_bucc2018.sh passes --specific_layer 7 for every model: hidden state 8
    xtreme_layers: ClassVar[dict[int, int]] = {12: 8, 24: 8}
    extra_eval_splits = ("dev",)
    per_example_statistics = False
    search = "mine_bucc"

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.retrieval.readers import read_bucc

        return read_bucc(paths[0])

    def companion_files(self, task, path: Path) -> list[Path]:
        from mte.families.retrieval.readers import BUCC_SIBLINGS, siblings

        return siblings(path, BUCC_SIBLINGS)

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.families.retrieval.readers import bucc_from_hub

        return bucc_from_hub(dataset, name, language)

    def align(self, predictions: list[dict], gold: list[dict], paths: dict) -> list:
        """Candidate pairs are not gold examples one to one: the split's records and the
        candidates are one pair, each candidate checked against its split's sentences when
        measured."""
        if "dev_gold" not in paths:
            raise ValueError("BUCC scoring needs the dev split")
        return [(gold, predictions)]

    def measure(self, task, pairs: list, paths: dict) -> dict[str, Any]:
        from mte.families.retrieval.scoring import measure_mining

        ((gold, candidates),) = pairs
        return measure_mining(
            task,
            candidates,
            gold,
            paths["dev_gold"],
            paths["predictions"],
            paths["gold"],
            paths["dev_gold_path"],
            paths["eval_split"],
        )

    def sufficient_statistics(self, task):
        return None  # F1 at a threshold chosen on dev: no per-example decomposition

    def submission_predictions(self, task, predictions, gold, score) -> str:
        from mte.families.retrieval.submission import bucc_predictions

        return bucc_predictions(predictions, score)

    def submission_labels(self, task, gold) -> str:
        from mte.families.retrieval.submission import bucc_labels

        return bucc_labels(gold)

    def score_submission(self, task, labels, predictions, language):
        from mte.families.retrieval.submission import score_pair_files

        return score_pair_files(labels, predictions)


class AnswerRetrieval(Retrieval, PooledRetrievingFamily):
    """LAReQA: each language's questions search one pool of every configured language's
    answer sentences (each with its paragraph), embedded once by the pool job; mAP@20 as
    XTREME-R's utils_lareqa computes it (mte.families.retrieval.answers)."""

    name = "answer_retrieval"
    search = "retrieve_answers"
    # evaluate.py lists no language of LAReQA: it reads no file of it
    submission_suffix: ClassVar[str | None] = None
    # XTREME-R scores a fine-tuned dual encoder's output here: no XTREME layer of its own
    xtreme_layers: ClassVar[dict[int, int]] = {}

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.retrieval.answers import read_xquad_r

        return read_xquad_r(paths[0], language)

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        raise NotImplementedError(f"{task.title} is read from its released files only")

    def companion_files(self, task, path: Path) -> list[Path]:
        return []

    def build_pool(self, model_dir, inputs: list, languages: list, options: dict) -> dict:
        """The pool's candidates, each question id's answers and the candidates' vectors per
        layer choice (mte.families.retrieval.search.embed_answer_pool), from every configured
        language's data (``inputs``, in the order of ``languages``)."""
        from mte.families.retrieval.search import embed_answer_pool
        from mte.io import read_jsonl

        per_language = {
            language: read_jsonl(path) for language, path in zip(languages, inputs, strict=True)
        }
        return embed_answer_pool(model_dir, per_language, options)

    def measure(self, task, pairs: list, paths: dict) -> dict[str, Any]:
        from mte.families.retrieval.answers import measure_answers

        return measure_answers(task, pairs, paths["predictions"])

    def sufficient_statistics(self, task):
        from mte.stats.metrics import Means

        return Means(task.primary_metric)  # a question's average precision

    def segments(self, task: Task, example: dict[str, Any]) -> list[str]:
        return [example["question"], *example["sentences"]]


class EntityRetrieval(AnswerRetrieval):
    """Mewsli-X: each language's mentions search the candidate set (about a million entity
    descriptions in the release), embedded once by the pool job; the mean reciprocal rank at
    20 that XTREME-R reports as mAP@20 (mte.families.retrieval.entity_links)."""

    name = "entity_retrieval"
    search = "retrieve_entities"
    pool_file = "candidate_set_entities.jsonl"
    # {"mention id": [20 entity ids]}
    submission_suffix: ClassVar[str | None] = "json"

    def submission_predictions(self, task, predictions, gold, score) -> str:
        from mte.families.retrieval.submission import entity_predictions

        return entity_predictions(predictions, gold)

    def submission_labels(self, task, gold) -> str:
        from mte.families.retrieval.submission import entity_labels

        return entity_labels(gold)

    def score_submission(self, task, labels, predictions, language):
        from mte.families.retrieval.submission import score_entity_files

        return score_entity_files(labels, predictions)

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.retrieval.entity_links import read_entity_links, read_mentions

        labels = self.companion_files(task, paths[0])
        gold = read_entity_links(labels[0]) if labels else None
        return read_mentions(paths[0], language, gold)

    def companion_files(self, task, path: Path) -> list[Path]:
        """XTREME-R's processed mentions (wikinews_mentions/{split}-{lang}.jsonl) keep the
        test labels apart: wikinews_labels/{split}-{lang}.json beside their folder."""
        labels = path.parent.parent / "wikinews_labels" / f"{path.stem}.json"
        return [labels] if path.parent.name == "wikinews_mentions" and labels.is_file() else []

    def build_pool(self, model_dir, inputs: list, languages: list, options: dict) -> dict:
        from mte.families.retrieval.search import embed_entity_pool
        from mte.io import sha256_file

        pool = embed_entity_pool(model_dir, inputs[0], options)
        pool["source"] = {"file": str(inputs[0]), "sha256": sha256_file(inputs[0])}
        return pool

    def check_task_config(self, task, task_cfg: dict[str, Any], key: str) -> None:
        from mte.errors import ConfigError

        candidates = Path(task_cfg.get("path") or ".") / self.pool_file
        if task_cfg.get("source") == "files" and not candidates.is_file():
            raise ConfigError(
                f"{key}.path",
                f"{task.title} searches the candidate set {candidates}, which does not exist "
                "(get-mewsli-x.sh writes it beside the mention files)",
            )


@dataclass(frozen=True)
class DualEncoderOptions(FamilyOptions):
    # the pairs a task's files hold: "squad" (SQuAD v1.1 JSON: a question and its answer's
    # sentence with the paragraph, run_retrieval_qa.py) or "mention_entity" (Mewsli-X's
    # MentionEntityPair lines: a mention and its entity's description, run_retrieval_el.py)
    pairs: str = "squad"


class DualEncoder(FineTuningFamily):
    """A dual encoder's fine-tune on query-answer pairs, for a pooled retrieval task to embed
    with (``encoder``): LAReQA's on SQuAD v1.1, Mewsli-X's on Wikipedia's mention-entity
    pairs, as XTREME-R's run_retrieval_qa.py and run_retrieval_el.py train them
    (mte.families.retrieval.dual_encoder). A training set only: its tasks are never scored."""

    name = "dual_encoder"
    schema_def = "dual_encoder_task"
    options_type = DualEncoderOptions
    dual_encoder = True
    # never scored: no per-example statistics
    per_example_statistics = False
    # what its features hold besides the answers' max_length: the questions' own cut
    tokens_keys: ClassVar[tuple[str, ...]] = ("max_query_length",)

    def check_spec(self, task: Task) -> None:
        if task.options.pairs not in ("squad", "mention_entity"):
            raise ValueError(
                f"{task.name}: pairs {task.options.pairs!r} is not squad or mention_entity"
            )

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        if task.options.pairs == "mention_entity":
            from mte.families.retrieval.entity_links import read_mention_entity_pairs

            return read_mention_entity_pairs(paths[0], language)
        from mte.families.retrieval.dual_encoder import read_squad_pairs

        return read_squad_pairs(paths[0], language)

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.families.retrieval.dual_encoder import squad_pairs_from_hub

        if task.options.pairs != "squad":
            raise NotImplementedError(f"{task.title} is read from its released files only")
        return squad_pairs_from_hub(dataset, name, language)

    def tokenize(self, tokenizer: Any, examples: list[dict], task: Task, options: dict) -> dict:
        from mte.families.retrieval.dual_encoder import tokenize_pairs
        from mte.modelling.features import feature_header

        header = feature_header(tokenizer, examples, task, options["max_length"], ())
        return tokenize_pairs(tokenizer, examples, header, options)

    def model_head(self, task: Task) -> Any:
        from mte.families.retrieval.dual_encoder import DualEncoderHead

        return DualEncoderHead(task)

    def measure(self, task, pairs: list, paths: dict) -> dict[str, Any]:
        raise NotImplementedError(f"{task.title} is a training set only: it is never scored")

    def sufficient_statistics(self, task):
        return None

    def segments(self, task: Task, example: dict[str, Any]) -> list[str]:
        from mte.families.retrieval.dual_encoder import answer_text

        return [example["question"], answer_text(example)]


FAMILY_CLASSES = (
    Retrieval,
    Mining,
    AnswerRetrieval,
    EntityRetrieval,
    DualEncoder,
)
