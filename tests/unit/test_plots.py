"""The figures are written as PNGs from synthetic scores (their look is checked by eye)."""

from __future__ import annotations

from pathlib import Path

from mte.steps.plots import (
    language_task_matrix,
    plot_against_reference,
    plot_heatmap,
    plot_language_gaps,
    plot_transfer_gaps,
)

PNG = b"\x89PNG\r\n\x1a\n"


def _score(task: str, language: str, **metrics: float) -> dict:
    return {"model": "m", "setting": "zero-shot", "seed": 1, "task": task, "language": language,
            "metrics": metrics}  # fmt: skip


SCORES = [
    _score("xnli", "en", accuracy=0.8),
    _score("xnli", "de", accuracy=0.6),
    _score("xquad", "en", f1=0.6, exact_match=0.4),
    _score("xquad", "zh", f1=0.5, exact_match=0.3),
]


def test_matrix_is_languages_by_tasks_with_qa_as_mean_of_f1_and_em() -> None:
    matrix = language_task_matrix(SCORES, "m", "zero-shot")
    assert matrix.loc["en", "XNLI"] == 80.0
    assert matrix.loc["zh", "XQuAD"] == 40.0
    assert matrix.isna().loc["zh", "XNLI"]


def test_figures_are_written(tmp_path: Path) -> None:
    plot_heatmap(SCORES, "m", "zero-shot", tmp_path / "heatmap.png")
    plot_transfer_gaps(SCORES, tmp_path / "gaps.png")
    plot_language_gaps(SCORES[:2], tmp_path / "language_gaps.png")
    # a task without its training language has no gap: the figure says so
    plot_language_gaps(SCORES[3:], tmp_path / "no_gaps.png")
    reference = {"source": "Paper, Table 1", "model": "m", "task": "xnli", "metric": "accuracy",
                 "values": {"en": 85.0, "de": 70.0}}  # fmt: skip
    plot_against_reference(SCORES[:2], reference, tmp_path / "published.png")
    for name in ("heatmap.png", "gaps.png", "language_gaps.png", "no_gaps.png", "published.png"):
        assert (tmp_path / name).read_bytes()[:8] == PNG, name


def _png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[16:24]  # IHDR: width, height (big-endian)
    return int.from_bytes(header[:4], "big"), int.from_bytes(header[4:], "big")


def test_a_heatmap_of_205_languages_is_drawn_in_panels_not_a_60_inch_strip(tmp_path: Path) -> None:
    from mte.steps.plots import ROWS_PER_PANEL
    from mte.tasks.languages import FLORES200_SIB_CODES

    scores = [
        _score("sib200", code, accuracy=(n % 10) / 10) for n, code in enumerate(FLORES200_SIB_CODES)
    ]
    assert len(scores) == 205 > ROWS_PER_PANEL
    plot_heatmap(scores, "m", "zero-shot", tmp_path / "heatmap.png")
    width, height = _png_size(tmp_path / "heatmap.png")
    # 5 panels of 41 rows at 0.2 inch a row (+1.5 inch) at 150 dpi: about 1450 pixels high,
    # where one column of 205 rows at 0.28 inch would be about 8800
    assert height < 1700 and width > height, (width, height)


def test_figures_of_demo_scores_carry_the_caveat_themselves(monkeypatch, tmp_path: Path) -> None:
    """A PNG shared alone keeps the demo caveat: drawn under every figure of demo scores, and
    under none of real ones."""
    import mte.steps.plots as plots
    from mte.tables.notes import DEMO_FIGURE_LABEL

    drawn = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: drawn.append(fig))
    demo = [{**s, "provenance": {"data": [{"source": "demo"}]}} for s in SCORES]
    real = [{**s, "provenance": {"data": [{"source": "files"}]}} for s in SCORES]
    for scores in (demo, real):
        plot_heatmap(scores, "m", "zero-shot", tmp_path / "heatmap.png")
        plot_transfer_gaps(scores, tmp_path / "gaps.png")
        plots.plot_language_bars(scores[:2], "m, zero-shot", tmp_path / "bars.png")
    texts = [[t.get_text() for t in fig.texts] for fig in drawn]
    assert texts[:3] == [[DEMO_FIGURE_LABEL]] * 3
    assert all(DEMO_FIGURE_LABEL not in found for found in texts[3:]) and len(texts) == 6
