"""What a run makes, from the plan: its tables, figures, downloads and submission folders (the
targets of the Snakefile's rules all and submissions)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from mte.config.plan.files import (
    FINETUNED,
    RUN_ANALYSES_PAGE,
    RUN_DIR,
    RUN_PROVENANCE,
    RUN_RESULTS,
    RUN_SCORES_INDEX,
    SUBMISSION,
    SUBMISSION_ZIP,
    plot_path,
    table_path,
)
from mte.config.plan.inputs import JobInputs
from mte.config.plan.run import RunPlan
from mte.registry import all_suites
from mte.submission.versions import leaderboards
from mte.tables.references import find_reference
from mte.tasks.settings import TRANSFER_SETTINGS

TABLE_FORMATS = ("csv", "md", "tex", "html")


class RunTargets:
    """The files a run of the plan ends in, under results/runs/{run}/."""

    def __init__(self, plan: RunPlan, inputs: JobInputs, run: str, references: Any) -> None:
        self.plan = plan
        self.inputs = inputs
        self.run = run
        self.references = references

    def evaluated_tasks(self) -> list[str]:
        """The configured tasks that are scored and tabulated (not SQuAD, a training set
        only)."""
        return [task.name for task in self.plan.evaluated]

    def suite_tasks(self, suite: str) -> list[str]:
        """The configured tasks of a suite, in its paper's order."""
        return all_suites()[suite].configured(self.plan.config["tasks"])

    def all_settings(self, model: str) -> list[str]:
        """The settings a model runs for some task."""
        return list(
            dict.fromkeys(
                setting
                for task in self.evaluated_tasks()
                for setting in self.plan.model_settings(model, task)
            )
        )

    def published_plots(self) -> list[str]:
        """A bar plot for every model x task x setting with published numbers of its metric."""
        return [
            plot_path(f"{model.name}/{task}_{setting}_vs_published", self.run)
            for model in self.plan.models
            for task in self.evaluated_tasks()
            for setting in self.plan.model_settings(model.name, task)
            if find_reference(
                self.references,
                model.name,
                task,
                setting,
                self.plan.task(task).spec.primary_metric,
                list(self.plan.task(task).languages),
            )
        ]

    def pseudo_test_tasks(self) -> list[str]:
        return [task for task in self.evaluated_tasks() if self.plan.task(task).pseudo_test]

    def tables(self) -> list[str]:
        tables = [
            table_path(task, ext, self.run)
            for task in self.evaluated_tasks()
            for ext in TABLE_FORMATS
        ]
        tables += [
            table_path(f"{task}_pseudo_test", ext, self.run)
            for task in self.pseudo_test_tasks()
            for ext in ("csv", "md", "json")
        ]
        tables += [
            table_path(suite, ext, self.run)
            for suite in all_suites()
            if self.suite_tasks(suite)
            for ext in TABLE_FORMATS
        ]
        run_files = (RUN_PROVENANCE, RUN_SCORES_INDEX, RUN_RESULTS, RUN_ANALYSES_PAGE)
        return [*tables, *(template.format(run=self.run) for template in run_files)]

    def plots(self) -> list[str]:
        heatmaps = [
            plot_path(f"{model.name}/heatmap_{setting}", self.run)
            for model in self.plan.models
            for setting in self.all_settings(model.name)
        ]
        language_gaps = [
            plot_path(f"{task}_gaps_per_language", self.run)
            for task in self.evaluated_tasks()
            if self.plan.task(task).train_language in self.plan.task(task).languages
            and len(self.plan.task(task).languages) > 1
        ]
        return [
            *heatmaps,
            *language_gaps,
            plot_path("transfer_gaps", self.run),
            *self.published_plots(),
            *self.training_plots(),
        ]

    def training_plots(self) -> list[str]:
        """A training-curve figure for every fine-tune behind the run's scores (once each:
        translate-test and XQuAD/MLQA reuse other models)."""
        plots = [
            training_plot(
                self.inputs.finetuned_model(
                    SimpleNamespace(
                        model=model.name, task=task, setting=setting, seed=seed, lang=lang
                    )
                )
            )
            for task in self.evaluated_tasks()
            if not self.plan.task(task).retrieves
            for model in self.plan.models
            for setting in self.plan.model_settings(model.name, task)
            if not TRANSFER_SETTINGS[setting].prompted
            for seed in self.plan.task(task).seeds
            for lang in self.plan.task(task).languages
        ]
        # the fine-tunes that embed for a retrieval task (encoder: LAReQA's dual encoder)
        plots += [
            training_plot(
                self.inputs.retrieval_model(SimpleNamespace(model=model.name, task=task, seed=seed))
            )
            for task in self.evaluated_tasks()
            if self.plan.task(task).retrieves and self.plan.task(task).encoder
            for model in self.plan.models
            for seed in self.plan.task(task).seeds
        ]
        return list(dict.fromkeys(plots))

    def downloads(self, run_downloads: Any) -> list[str]:
        """Every download of the run, the target of an update of its data lock
        (update_lock): ``run_downloads`` the (task, language, split) of each."""
        files = self.inputs.files
        return [files.data(task, lang, split) for task, lang, split in run_downloads]

    def submissions(self, zipped: bool | None = None) -> list[str]:
        """Every submission folder of the run (a leaderboard with a task of the run), and the
        zip of each whose leaderboard the run covers, or of every one where
        submission.zip_incomplete."""
        if zipped is None:
            zipped = self.plan.config["submission"]["zip_incomplete"]
        targets = []
        evaluated = self.evaluated_tasks()
        for board in leaderboards().values():
            for model in self.plan.models:
                for setting in self.all_settings(model.name):
                    tasks = [
                        t
                        for t in board.tasks
                        if t in evaluated and setting in self.plan.model_settings(model.name, t)
                    ]
                    if not tasks:
                        continue
                    seeds = sorted({s for t in tasks for s in self.plan.task(t).seeds})
                    for seed in seeds:
                        fields = dict(run=self.run, model=model.name, setting=setting, seed=seed)
                        targets.append(SUBMISSION.format(board=board.name, **fields))
                        complete = set(tasks) == set(board.tasks) and all(
                            set(board.languages[t]) <= set(self.plan.task(t).languages)
                            and seed in self.plan.task(t).seeds
                            for t in tasks
                        )
                        if complete or zipped:
                            targets.append(SUBMISSION_ZIP.format(board=board.name, **fields))
        return targets


def training_plot(finetuned: str) -> str:
    """The training-curve figure of a fine-tuned model's folder: RUN_DIR/model gives
    RUN_DIR/training.png, RUN_DIR/model/{lang} gives RUN_DIR/training/{lang}.png."""
    run, _, language = finetuned.rpartition(FINETUNED.removeprefix(RUN_DIR))
    return f"{run}/training{language}.png"
