"""Floors of the smoke tier (``make test-smoke``, run by CI), read from
``results-smoke/summary.json``, which ``tools/run_tier.py smoke`` writes first.

The smoke tier's only job is to fail loudly when the pipeline stops learning or scoring right
(a label map shifted by one, answers mapped one sub-token off, a misaligned file). Each floor
sits below the lowest of three fine-tuning seeds measured on these exact settings, by a margin
taken from the spread of the seeds and never less than 3 points (docs/results.md, "Smoke tier"); a
floor is never lowered to make a run pass. Every seed in the summary is held to every floor.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import pytest

pytestmark = pytest.mark.smoke

REPO = Path(__file__).resolve().parents[2]
SUMMARY = REPO / "results-smoke" / "summary.json"
SHARED = REPO.parent / "shared" / "data"


class Floor(NamedTuple):
    """``metric`` over ``languages`` (their mean, or with ``lowest`` their minimum) must be at
    least ``floor``."""

    label: str
    metric: str
    languages: tuple[str, ...]
    floor: float
    lowest: bool = False

    def figure(self, figures: dict[str, dict]) -> float:
        values = [figures[language]["metrics"][self.metric] for language in self.languages]
        return min(values) if self.lowest else sum(values) / len(values)


class Experiment(NamedTuple):
    task: str
    test_size: int  # examples per language: a reader or subset that loses some fails too
    floors: tuple[Floor, ...]


# Floors: the lowest of seeds 1, 2, 3 minus the larger of 3 points and the seeds' spread
# (highest - lowest), rounded down to half a point; the per-seed figures are in docs/results.md's
# "Smoke tier" table (`make smoke-readme`). Tatoeba trains nothing: one figure, 3 points below.
XNLI_OTHERS = ("de", "es", "ru", "zh", "ar")
PANX_OTHERS = ("de", "es", "nl")
QA_OTHERS = ("de", "es", "zh")
TATOEBA = ("de", "fr", "es", "ru", "zh", "ar")

FLOORS: dict[str, Experiment] = {
    "xnli": Experiment(
        "xnli",
        250,
        (
            Floor("English accuracy", "accuracy", ("en",), 0.445),
            Floor("mean accuracy de es ru zh ar", "accuracy", XNLI_OTHERS, 0.40),
        ),
    ),
    "panx": Experiment(
        "panx",
        400,
        (
            # measured again under tokenization: paper (docs/results.md, "Smoke tier")
            Floor("English entity F1", "f1", ("en",), 0.475),
            Floor("mean entity F1 de es nl", "f1", PANX_OTHERS, 0.565),
        ),
    ),
    "qa": Experiment(
        "xquad",
        150,
        (
            Floor("English F1", "f1", ("en",), 0.175),
            Floor("English exact match", "exact_match", ("en",), 0.065),
            Floor("mean F1 de es zh", "f1", QA_OTHERS, 0.135),
        ),
    ),
    "tatoeba": Experiment(
        "tatoeba",
        500,
        (
            Floor("mean accuracy xx -> en", "accuracy", TATOEBA, 0.87),
            Floor("lowest accuracy of a language", "accuracy", TATOEBA, 0.695, lowest=True),
        ),
    ),
}


def languages_of(experiment: Experiment) -> set[str]:
    return {language for floor in experiment.floors for language in floor.languages}


@pytest.fixture(scope="module")
def summary() -> dict:
    if not SHARED.is_dir():
        pytest.skip(f"real benchmark files not found at {SHARED} (present in CI only)")
    if not SUMMARY.is_file():
        pytest.fail(f"{SUMMARY} is missing: run `make test-smoke`, which writes it first")
    return json.loads(SUMMARY.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", FLOORS)
def test_experiment_stays_above_its_floors(summary: dict, name: str) -> None:
    experiment = FLOORS[name]
    assert name in summary["experiments"], f"smoke {name}: no figures in {SUMMARY}"
    by_seed = summary["experiments"][name]["tasks"][experiment.task]["by_seed"]
    expected_sizes = dict.fromkeys(languages_of(experiment), experiment.test_size)
    fallen = []
    for seed, figures in by_seed.items():
        sizes = {language: record["n"] for language, record in figures.items()}
        assert sizes == expected_sizes, f"smoke {name}, seed {seed}: test sizes {sizes}"
        for floor in experiment.floors:
            value = floor.figure(figures)
            if value < floor.floor:
                fallen.append(
                    f"smoke {name}, seed {seed}: {floor.label} {100 * value:.1f} fell below "
                    f"its floor {100 * floor.floor:.1f}"
                )
    assert not fallen, "; ".join(fallen)


def test_tagging_labels_sit_where_predictions_are_read(summary: dict) -> None:
    """Every word's training label sits on the sub-token its prediction is read from.

    Entity F1 cannot see a label moved to another sub-token of the same word with this model:
    labels put on each word's last sub-token while predictions are read from its first left
    English F1 at 63.7 against 64.5, Arabic at 38.1 against 36.3 (docs/results.md, "Smoke
    tier"). So the tier checks the real features themselves: the share of labelled sub-tokens at
    the read position, over every split and language the PAN-X experiment tokenised.
    """
    import torch

    assert "panx" in summary["experiments"], f"smoke panx: no figures in {SUMMARY}"
    model = summary["experiments"]["panx"]["tasks"]["panx"]["model"]
    paths = sorted(
        (REPO / "results-smoke" / "results" / model / "panx" / "features").glob("*/*/*/features.pt")
    )
    assert paths, "smoke panx: no features written"
    placed = words = 0
    for path in paths:
        features = torch.load(path, weights_only=True)
        for labels, positions in zip(features["labels"], features["window_positions"], strict=True):
            labelled = [index for index, label in enumerate(labels) if label != -100]
            assert len(labelled) == len(positions), f"smoke panx: {path}: one label per word"
            placed += sum(a == b for a, b in zip(labelled, positions, strict=True))
            words += len(positions)
    share = placed / words
    assert share == 1.0, (
        f"smoke panx: labelled sub-tokens at the read position {100 * share:.1f}% fell below its "
        f"floor 100.0 ({words} words in {len(paths)} feature files)"
    )
