"""What each job reads and the options it receives, from the plan: the rules' input functions
and params are the methods of :class:`JobInputs`, each called with a job's wildcards (any object
with the wildcards as attributes: Snakemake's, or a SimpleNamespace in a test)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from mte.config.plan.files import (
    FINETUNED,
    FINETUNED_PER_LANGUAGE,
    MODEL,
    MODEL_CHECK,
    POOL_INDEX,
    POOL_VECTORS,
    PREDICTIONS,
    RELEASE_DIR,
    RELEASE_RECORD,
    RUN_DIR,
    SCORES,
    TRANSLATION_MODEL,
    RunFiles,
)
from mte.config.plan.run import RunPlan, thawed
from mte.modelling.translation import translator_folder, translator_id
from mte.registry import family_of
from mte.steps.data import released_files
from mte.submission.versions import leaderboards
from mte.tasks.settings import TRANSFER_SETTINGS, model_setting
from mte.tasks.spec import TRANSLATED_SPLITS


class JobInputs:
    """The input functions and per-job params of the rules, over one plan."""

    def __init__(self, plan: RunPlan, files: RunFiles) -> None:
        self.plan = plan
        self.files = files

    # --- download ---

    def source_params(self, wc: Any) -> dict[str, Any]:
        """Only what decides the downloaded content, so that adding a language reruns nothing
        else (and changing the translations reruns only the translated splits)."""
        task = self.plan.task(wc.task)
        params = task.data_params()
        if task.source == "release":
            params["release_dir"] = RELEASE_DIR.format(task=wc.task)
        if wc.split in TRANSLATED_SPLITS:
            params["translations"] = thawed(task.translations)
            params["eval_split"] = task.entry.get("eval_split")
        return params

    def lock_params(self, wc: Any) -> dict[str, Any]:
        """The data lock a download is held to, and the task's source key in it."""
        return {"path": self.plan.config["data_lock"], "source": self.plan.source_key(wc.task)}

    def download(self, wc: Any) -> tuple[str, list[str]]:
        """What a download job reads, as (kind, paths): a release's fetched record (the rule
        marks it ancient: a language added later fetches its files without rerunning the
        languages read before; the data key already holds the release's checksums), or the
        released files of a folder (source: files), so that a file changed on disk reruns its
        job (the demo's data, shipped in the package, is in the job's code param instead: its
        path moves with the checkout)."""
        task = self.plan.task(wc.task)
        if wc.split in TRANSLATED_SPLITS:
            return "files", []
        if task.source == "release":
            record = RELEASE_RECORD.format(task=wc.task, release=self.plan.release_key(wc.task))
            return "release", [record]
        if task.source == "files":
            entry = thawed(task.entry)
            return "files", released_files(task.spec, entry, wc.lang, wc.split)
        return "files", []

    def translated_by_model(self, task: str, split: str) -> bool:
        translations = self.plan.task(task).translations or {}
        return split in TRANSLATED_SPLITS and translations.get("source") == "model"

    def translation(self, wc: Any) -> dict[str, str]:
        """What a translation model translates into ``wc.split`` of ``wc.lang``: the canonical
        file of the original split, and the model's fetched folder when it comes from the hub
        (none for a local folder, none for released translation files)."""
        if not self.translated_by_model(wc.task, wc.split):
            return {}
        language, split, source, target = self.plan.translation_source(wc.task, wc.split, wc.lang)
        inputs = {"original": self.files.data(wc.task, language, split)}
        options = self.plan.task(wc.task).translations
        name = translator_id(options["model"], source, target)
        if not Path(name).is_dir():
            folder = translator_folder(name, options.get("revision"))
            inputs["translator"] = TRANSLATION_MODEL.format(translator=folder)
        return inputs

    def translation_params(self, wc: Any) -> dict[str, Any] | None:
        if not self.translated_by_model(wc.task, wc.split):
            return None
        _, _, source, target = self.plan.translation_source(wc.task, wc.split, wc.lang)
        return {
            "languages": [source, target],
            "options": thawed(self.plan.task(wc.task).translations),
        }

    # --- tokenize ---

    def data(self, wc: Any) -> str:
        return self.files.data(wc.task, wc.lang, wc.split)

    def tokenization(self, wc: Any) -> dict[str, Any]:
        """The tokenize job's options (mte.config.plan.records.Tokenization)."""
        return self.plan.task(wc.task).tokenization.options()

    # --- fine-tune ---

    def hyperparameters(self, wc: Any) -> dict[str, Any]:
        """A fine-tune's hyper-parameters: the task's, with LoRA where the setting asks for it
        (zero-shot-lora; its rank, alpha, dropout and modules: the task's ``lora``)."""
        chosen = thawed(self.plan.task(wc.task).hyperparameters)
        if TRANSFER_SETTINGS[wc.setting].method == "lora":
            return {**chosen, "method": "lora"}
        return chosen

    def start_model(self, wc: Any) -> str:
        """What a fine-tune starts from: the pretrained encoder, or with the task's
        ``start_from`` that task's fine-tune of the same model and seed (zero-shot: trained on
        its English data), built once and shared with that task's own runs."""
        first = self.plan.task(wc.task).start_from
        if not first:
            return MODEL.format(model=wc.model)
        return self.files.run(FINETUNED, wc.model, first, "zero-shot", wc.seed)

    def training_features(self, role: str):
        """The input function of a fine-tune's ``role`` ("train" or "dev") features; the
        per-language settings' jobs have a ``lang`` wildcard."""

        def features(wc: Any) -> list[str]:
            language = getattr(wc, "lang", None)
            pairs = self.plan.training_splits(wc.task, wc.setting, language)[role]
            return [self.files.features(wc.model, wc.task, lang, split) for lang, split in pairs]

        return features

    def run_dir(self, wc: Any) -> str:
        return RUN_DIR.format(
            model=wc.model, task=wc.task, variant=wc.variant, setting=wc.setting, seed=wc.seed
        )

    def start_task(self, wc: Any) -> str:
        """The task whose fine-tune a fine-tune starts from, "" for the pretrained encoder."""
        return self.plan.task(wc.task).start_from

    # --- predict and score ---

    def finetuned_model(self, wc: Any) -> str:
        """The fine-tuned model that predicts ``wc.lang``: the per-language settings have one
        per language (English's translate-train model is the zero-shot one: it trains on
        English only); translate-test predicts with the zero-shot model; a task that evaluates
        another task's models (XQuAD, MLQA: SQuAD's) uses that task's; the retrieval tasks use
        their encoder."""
        task = self.plan.task(wc.task)
        if task.retrieves:
            return self.retrieval_model(wc)
        if TRANSFER_SETTINGS[wc.setting].prompted:
            return MODEL.format(model=wc.model)
        owner = self.plan.task(task.owner)
        setting = model_setting(wc.setting, wc.lang, owner.train_language)
        if TRANSFER_SETTINGS[setting].per_language:
            return self.files.run(
                FINETUNED_PER_LANGUAGE, wc.model, owner.name, setting, wc.seed, lang=wc.lang
            )
        return self.files.run(FINETUNED, wc.model, owner.name, setting, wc.seed)

    def eval_batch_size(self, wc: Any) -> int:
        return self.plan.task(wc.task).hyperparameters["eval_batch_size"]

    def demonstrations(self, wc: Any) -> str:
        """The in-context setting's demonstrations: the English training data of the task whose
        fine-tunes the task would use (XQuAD: SQuAD's)."""
        owner = self.plan.task(self.plan.task(wc.task).owner)
        return self.files.data(owner.name, owner.train_language, "train")

    def architecture_check(self, wc: Any) -> list[str]:
        """The check_model record a fine-tune or embedding job waits for: a hub model's, whose
        config.json is first seen after its download; none for a model the plan has checked
        (a check job per task would only repeat it, a Python start each)."""
        if not self.plan.model(wc.model).checked_by_job:
            return []
        return [MODEL_CHECK.format(model=wc.model, task=wc.task)]

    def retrieval_model(self, wc: Any) -> str:
        """The encoder of a retrieval job: the pretrained model, or the zero-shot fine-tune of
        the same model and seed of the task its ``encoder`` names (Tatoeba with SQuAD's, as
        XTREME-R's run_tatoeba.sh)."""
        encoder = self.plan.task(wc.task).encoder
        if encoder is None:
            return MODEL.format(model=wc.model)
        return self.files.run(FINETUNED, wc.model, encoder, "zero-shot", wc.seed)

    def retrieval_options(self, wc: Any) -> dict[str, Any]:
        """A retrieval job's options (retrieve, embed_pool): its layer choices and batch, the
        run's tokenization, its encoder's lower-casing."""
        task = self.plan.task(wc.task)
        return {
            "layers": thawed(task.layers),
            "batch_size": task.batch_size,
            "tokenization": self.plan.tokenization,
            "do_lower_case": task.retrieval_lower_case,
        }

    def evaluated_split(self, wc: Any) -> str:
        """The split a job predicts and scores (translate-test: the translated test set)."""
        return self.plan.evaluation_split(wc.task, wc.setting, wc.lang)

    def evaluated_features(self, wc: Any) -> str:
        return self.files.features(wc.model, wc.task, wc.lang, self.evaluated_split(wc))

    def pseudo_test_features(self, wc: Any) -> str:
        return self.files.features(wc.model, wc.task, wc.lang, "pseudo-test")

    def evaluated_gold(self, wc: Any) -> str:
        return self.files.data(wc.task, wc.lang, self.evaluated_split(wc))

    def pseudo_test_gold(self, wc: Any) -> str:
        return self.files.data(wc.task, wc.lang, "pseudo-test")

    def score_statistics(self) -> dict[str, Any]:
        """The bootstrap and randomisation settings every score job reads."""
        statistics = self.plan.config["statistics"]
        return {key: statistics[key] for key in ("resamples", "seed", "confidence")}

    def in_context(self, wc: Any) -> dict[str, Any] | None:
        """The in-context options of a prompted score job, else None."""
        if TRANSFER_SETTINGS[wc.setting].prompted:
            return thawed(self.plan.in_context)
        return None

    def score_data_meta(self, wc: Any) -> list[str]:
        """Provenance of every data file behind one score: training, dev and the test set."""
        task = self.plan.task(wc.task)
        if task.retrieves:
            encoder = task.encoder
            # the data of the fine-tune that embeds, where one does
            training = [
                self.files.data_meta(encoder, lang, split)
                for pairs in self.plan.training_splits(encoder, "zero-shot", wc.lang).values()
                for lang, split in pairs
            ] if encoder else []  # fmt: skip
            splits = self.retrieval_splits(wc.task)
            return [*training, *(self.files.data_meta(wc.task, wc.lang, s) for s in splits)]
        training = [
            self.files.data_meta(task.owner, lang, split)
            for pairs in self.plan.training_splits(task.owner, wc.setting, wc.lang).values()
            for lang, split in pairs
        ]
        return [*training, self.files.data_meta(wc.task, wc.lang, self.evaluated_split(wc))]

    def pseudo_test_data_meta(self, wc: Any) -> list[str]:
        pseudo = self.files.data_meta(wc.task, wc.lang, "pseudo-test")
        return [*self.score_data_meta(wc)[:-1], pseudo]

    def retrieval_splits(self, task: str) -> list[str]:
        """The splits a retrieval task reads: BUCC's dev picks the threshold for its test."""
        planned = self.plan.task(task)
        splits = family_of(planned.spec).extra_eval_splits
        return list(dict.fromkeys([*splits, planned.eval_split]))

    def retrieval_data(self, wc: Any) -> dict[str, str]:
        data = {
            split: self.files.data(wc.task, wc.lang, split)
            for split in self.retrieval_splits(wc.task)
        }
        if self.plan.task(wc.task).pooled:
            fields = {"model": wc.model, "task": wc.task, "variant": wc.variant}
            fields.update(setting=wc.setting, seed=wc.seed)
            data["pool_vectors"] = POOL_VECTORS.format(**fields)
            data["pool_index"] = POOL_INDEX.format(**fields)
        return data

    def pool_data(self, wc: Any) -> list[str]:
        """A pooled task's pool: its own file in the task's folder (Mewsli-X's candidate set),
        else the evaluated split of every configured language, in the config's order."""
        task = self.plan.task(wc.task)
        pool_file = family_of(task.spec).pool_file
        if pool_file:
            folder = Path(task.entry.get("path") or ".")
            # a folder that awaits a step no URL can do (the dry run's note names it): planned
            # without it; the job says what to do if it is reached first
            if not folder.is_dir() and task.spec.manual_step:
                return []
            return [str(folder / pool_file)]
        return [self.files.data(wc.task, lang, task.eval_split) for lang in task.languages]

    def pool_languages(self, wc: Any) -> list[str]:
        return list(self.plan.task(wc.task).languages)

    def dev_gold(self, wc: Any) -> str | list[str]:
        """BUCC's dev split, whose gold pairs set the mining threshold."""
        if "dev" in family_of(self.plan.task(wc.task).spec).extra_eval_splits:
            return self.files.data(wc.task, wc.lang, "dev")
        return []

    # --- tables ---

    def task_scores(self, task: str) -> list[str]:
        """Every score file of a task: models x settings x seeds x languages."""
        planned = self.plan.task(task)
        return [
            self.files.scores(model.name, task, setting, seed, lang)
            for model in self.plan.models
            for setting in self.plan.model_settings(model.name, task)
            for seed in planned.seeds
            for lang in planned.languages
        ]

    def suite_scores(self, tasks: list[str]) -> list[str]:
        """Every score file of ``tasks`` (a suite's, or every evaluated task's)."""
        return [path for task in tasks for path in self.task_scores(task)]

    def model_setting_scores(self, model: str, setting: str) -> list[str]:
        """Every score of one model and setting, over the tasks that run the setting."""
        return [
            path
            for task in self.plan.evaluated
            if setting in self.plan.model_settings(model, task.name)
            for path in self.model_task_scores(model, task.name, setting)
        ]

    def model_task_scores(self, model: str, task: str, setting: str) -> list[str]:
        planned = self.plan.task(task)
        return [
            self.files.scores(model, task, setting, seed, lang)
            for seed in planned.seeds
            for lang in planned.languages
        ]

    def pseudo_test_languages(self, task: str) -> list[str]:
        """The languages of the pseudo test analysis: every one but the training language."""
        planned = self.plan.task(task)
        return [lang for lang in planned.languages if lang != planned.train_language]

    def pseudo_test_scores(self, task: str, template: str = SCORES) -> list[str]:
        """Score files of the zero-shot models: on the human test sets (SCORES) or on the
        pseudo ones (PSEUDO_TEST_SCORES)."""
        return [
            self.files.scores(model.name, task, "zero-shot", seed, lang, template)
            for model in self.plan.models
            for seed in self.plan.task(task).seeds
            for lang in self.pseudo_test_languages(task)
        ]

    def pseudo_test_data(self, task: str, split: str) -> list[str]:
        """The data of the pseudo test languages in ``split``."""
        return [self.files.data(task, lang, split) for lang in self.pseudo_test_languages(task)]

    def demo_tasks(self, tasks: list[str]) -> list[str]:
        """Those of ``tasks`` that read the shipped demo data."""
        return [task for task in tasks if self.plan.task(task).source == "demo"]

    # --- a leaderboard submission (workflow/rules/submission.smk) ---

    def submission_entries(self, wc: Any) -> list[dict[str, str]]:
        """Each task x language of the leaderboard that the run scores for this model, setting
        and seed: its prediction, gold test and score files."""
        board = leaderboards()[wc.board]
        seed = int(wc.seed)
        evaluated = {task.name for task in self.plan.evaluated}
        entries = []
        for name in board.tasks:
            if name not in evaluated:
                continue
            task = self.plan.task(name)
            if wc.setting not in self.plan.model_settings(wc.model, name) or seed not in task.seeds:
                continue
            for lang in task.languages:
                if lang not in board.languages[name]:
                    continue
                job = SimpleNamespace(task=name, setting=wc.setting, lang=lang)
                entries.append(
                    {
                        "task": name,
                        "language": lang,
                        "predictions": self.files.run(
                            PREDICTIONS, wc.model, name, wc.setting, seed, lang=lang
                        ),
                        "gold": self.files.data(name, lang, self.evaluated_split(job)),
                        "score": self.files.scores(wc.model, name, wc.setting, seed, lang),
                    }
                )
        return entries

    def submission_files(self, wc: Any) -> list[str]:
        return [
            entry[key]
            for entry in self.submission_entries(wc)
            for key in ("predictions", "gold", "score")
        ]
