"""The real tier's committed record (tools/readme_section.py): a run of some experiments
replaces only theirs, and each keeps the commit, date and machine that measured it."""

from __future__ import annotations

from tools.readme_section import merged_record


def _experiment(commit: str, seconds: float) -> dict:
    return {"commit": commit, "date": "2026-12-02T00:00:00+00:00", "seconds": seconds, "tasks": {}}


def test_a_partial_run_replaces_only_its_own_experiments() -> None:
    machine = {"platform": "Linux", "cpus": 2}
    record = {
        "experiments": {"xnli": _experiment("a" * 40, 60.0), "conll": _experiment("a" * 40, 30.0)},
        "machine": machine,
    }
    summary = {"experiments": {"xnli": _experiment("b" * 40, 90.0)}, "machine": machine}
    merged = merged_record(summary, record)
    assert merged["experiments"]["xnli"]["commit"] == "b" * 40
    assert merged["experiments"]["conll"]["commit"] == "a" * 40
    assert merged["experiments"]["xnli"]["machine"] == machine
    assert merged["seconds"] == 120.0  # 90 + 30
    # the first record: the summary alone
    assert list(merged_record(summary, None)["experiments"]) == ["xnli"]


def _figures(metrics: dict, n: int, interval: tuple | None = None, by_layer=None) -> dict:
    figures = {"n": n, "metrics": metrics, "interval": None}
    if interval:
        figures["interval"] = {"metric": "map_at_20", "low": interval[0], "high": interval[1]}
    if by_layer:
        figures["by_layer"] = by_layer
    return figures


def _protocol(tasks: dict, seconds: float = 120.0) -> dict:
    return {
        **_experiment("c" * 40, seconds),
        "machine": {"platform": "Linux", "cpus": 2},
        "seeds": [1],
        "tasks": {name: {"languages": languages} for name, languages in tasks.items()},
    }


def test_the_lareqa_table_is_written_from_the_record() -> None:
    from tools.readme_section import lareqa_section

    pretrained = {
        "ar": _figures({"map_at_20": 0.2412}, 300, (0.2261, 0.2574)),
        "de": _figures({"map_at_20": 0.3980}, 300, (0.3731, 0.4226)),
    }
    dual = {
        "ar": _figures({"map_at_20": 0.2800}, 300, (0.2570, 0.3040)),
        "de": _figures({"map_at_20": 0.3510}, 300, (0.3270, 0.3750)),
    }
    record = {
        "experiments": {
            "lareqa-dual": _protocol({"lareqa": dual}, 1500.0),
            "lareqa-pretrained": _protocol({"lareqa": pretrained}),
        }
    }
    lines = lareqa_section(record).splitlines()
    assert lines[1] == "| encoder | ar | de | avg |"
    # the pretrained row first, whatever the record's order; avg (24.12 + 39.80) / 2 = 31.96
    assert lines[3].startswith("| pretrained (")
    assert lines[3].endswith("| 24.1 [22.6, 25.7] | 39.8 [37.3, 42.3] | 32.0 |")
    assert lines[4].endswith("| 28.0 [25.7, 30.4] | 35.1 [32.7, 37.5] | 31.6 |")  # 31.55
    assert "lareqa-dual 25.0 min (ccccccc, 2026-12-02, 2 CPUs)" in lines[-4]
    assert "Questions per language: ar 300, de 300." in lines[-4]
    # (28.00 - 24.12) = +3.88, (35.10 - 39.80) = -4.70: -0.41 on average
    assert lines[-2] == (
        "The dual encoder against the pretrained encoder: -0.4 points on average "
        "(ar +3.9, de -4.7)."
    )


def test_the_qa_windows_and_tatoeba_tables_are_written_from_the_record() -> None:
    from tools.readme_section import squad_section

    def qa(f1_en: float, f1_de: float, f1_zh: float) -> dict:
        return {
            "en": _figures({"f1": f1_en, "exact_match": 0.2}, 150),
            "de": _figures({"f1": f1_de, "exact_match": 0.1}, 150),
            "zh": _figures({"f1": f1_zh, "exact_match": 0.007}, 150),
        }

    def tatoeba(model: float, xtreme: float) -> dict:
        by_layer = {
            "model": {"layer": 12, "accuracy": model},
            "xtreme": {"layer": 8, "accuracy": xtreme},
        }
        return {"de": _figures({"accuracy": model}, 500, by_layer=by_layer)}

    record = {
        "experiments": {
            "qa-run-qa": _protocol({"xquad": qa(0.282, 0.25, 0.21)}),
            "qa-run-squad": _protocol(
                {"xquad": qa(0.359, 0.291, 0.073), "tatoeba": tatoeba(0.676, 0.9)}
            ),
            "tatoeba-pretrained": _protocol({"tatoeba": tatoeba(0.982, 0.958)}),
        }
    }
    lines = squad_section(record).splitlines()
    assert lines[1] == "| windows | en | de | zh | mean F1 de zh |"
    # run_squad first; the transfer mean (29.1 + 7.3) / 2 = 18.2
    assert lines[3] == "| run_squad | 35.9 / 20.0 | 29.1 / 10.0 | 7.3 / 0.7 | 18.2 |"
    assert lines[4] == "| run_qa | 28.2 / 20.0 | 25.0 / 10.0 | 21.0 / 0.7 | 23.0 |"
    # (29.1 - 25.0 + 7.3 - 21.0) / 2 = -4.8
    assert lines[6] == (
        "XQuAD, first 150 questions, F1 / EM (%), seed 1. run_squad against run_qa: -4.8 points "
        "of mean F1 over de zh."
    )
    tatoeba_rows = [line for line in lines if line.startswith(("| pretrained", "| SQuAD"))]
    assert tatoeba_rows == [
        "| pretrained, 12 (model) | 98.2 | 98.2 |",
        "| pretrained, 8 (xtreme) | 95.8 | 95.8 |",
        "| SQuAD fine-tune, 12 (model) | 67.6 | 67.6 |",
        "| SQuAD fine-tune, 8 (xtreme) | 90.0 | 90.0 |",
    ]
    # 67.6 - 98.2 = -30.6 at the last layer, 90.0 - 95.8 = -5.8 at XTREME's
    assert (
        "The SQuAD fine-tune against the pretrained encoder, in points on average: -30.6 at "
        "hidden state 12 (model), -5.8 at hidden state 8 (xtreme)." in squad_section(record)
    )
