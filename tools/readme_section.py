"""Write the real-data tier sections of docs/results.md from the tiers' summaries.

``make real-readme`` after ``make test-real`` (or a run of some of its experiments,
``REAL_TIER=...``): the experiments of ``results-real/summary.json`` replace theirs in the
committed record ``docs/measured/real-tier.json`` (each with the commit, date and machine that
measured it), and the figures between docs/results.md's ``<!-- real-tier:start -->`` and
``<!-- real-tier:end -->`` markers, and SIB-200's between ``<!-- sib200:start -->`` and
``<!-- sib200:end -->``, are written from that record, never typed (tests/unit/test_docs.py
checks that they are). ``make smoke-readme`` after a smoke run with ``TIER_SEEDS=1,2,3`` writes
the floors table between ``<!-- smoke-tier:start -->`` and ``<!-- smoke-tier:end -->`` from
``results-smoke/summary.json``: every floor figure per seed, beside the floor the smoke test
holds it to. ``make protocols-readme`` after ``make test-protocols`` merges
``results-protocols/summary.json`` into ``docs/measured/protocols.json`` and writes the LAReQA
table (``<!-- lareqa:start -->``) and the QA-windows and Tatoeba tables (``<!-- run-squad:start
-->``) from it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
START, END = "<!-- real-tier:start -->", "<!-- real-tier:end -->"
SIB_START, SIB_END = "<!-- sib200:start -->", "<!-- sib200:end -->"
RECORD = REPO / "docs" / "measured" / "real-tier.json"
SMOKE_START, SMOKE_END = "<!-- smoke-tier:start -->", "<!-- smoke-tier:end -->"
PROTOCOLS_RECORD = REPO / "docs" / "measured" / "protocols.json"
LAREQA_START, LAREQA_END = "<!-- lareqa:start -->", "<!-- lareqa:end -->"
SQUAD_START, SQUAD_END = "<!-- run-squad:start -->", "<!-- run-squad:end -->"
# protocol experiment -> its row's label
LAREQA_ROWS = {
    "lareqa-pretrained": "pretrained (e5's embedding: mean of the last layer, `passage: ` prefix)",
    "lareqa-dual": "dual encoder (pooler; `squad_retrieval`, 1 epoch on 1000 English pairs)",
}
QA_ROWS = {"qa-run-squad": "run_squad", "qa-run-qa": "run_qa"}
# experiment -> (task, metric, label)
SHOWN = {
    "xnli": ("xnli", "accuracy", "XNLI accuracy"),
    "panx": ("panx", "f1", "PAN-X entity F1"),
    "conll": ("conll", "f1", "CoNLL entity F1"),
    "qa": ("xquad", "f1", "XQuAD F1"),
}


def _row(label: str, values: dict[str, float], experiment: dict) -> list[str]:
    mean = sum(values.values()) / len(values)
    cells = " ".join(f"{lang} {100 * v:.1f}" for lang, v in values.items())
    minutes = experiment["seconds"] / 60
    return [f"| {label} | {cells} | {100 * mean:.1f} | {minutes:.1f} | {_measured(experiment)} |"]


def _measured(experiment: dict) -> str:
    """Which code measured an experiment, and when (older records have neither)."""
    commit, date = experiment.get("commit"), experiment.get("date")
    if not commit:
        return ""
    return f"{commit[:7]}{'+changes' if commit.endswith('+changes') else ''}, {date[:10]}"


def section(summary: dict) -> str:
    """The Markdown section: per experiment, each language's figure, the mean and the time."""
    experiments = summary["experiments"]
    lines = [
        START,
        "| experiment | per language (%) | mean | minutes | measured (commit, date) |",
        "|---|---|---:|---:|---|",
    ]
    for name, (task, metric, label) in SHOWN.items():
        if name in experiments:
            languages = experiments[name]["tasks"][task]["languages"]
            values = {lang: figures["metrics"][metric] for lang, figures in languages.items()}
            lines += _row(label, values, experiments[name])
    if "tatoeba" in experiments:
        languages = experiments["tatoeba"]["tasks"]["tatoeba"]["languages"]
        for choice in ("model", "xtreme"):
            values = {
                lang: figures["by_layer"][choice]["accuracy"] for lang, figures in languages.items()
            }
            layer = next(iter(languages.values()))["by_layer"][choice]["layer"]
            label = f"Tatoeba accuracy, layer {layer} ({choice})"
            lines += _row(label, values, experiments["tatoeba"])
    shown = [e for name, e in experiments.items() if name in SHOWN or name == "tatoeba"]
    machines = {(e.get("machine") or summary["machine"])["platform"] for e in shown}
    cpus = {(e.get("machine") or summary["machine"])["cpus"] for e in shown}
    minutes = sum(e["seconds"] for e in shown) / 60
    lines += [
        "",
        f"These experiments: {minutes:.1f} minutes in all on {'/'.join(map(str, sorted(cpus)))} "
        f"CPUs ({'; '.join(sorted(machines))}); record: docs/measured/real-tier.json.",
        END,
    ]
    return "\n".join(lines)


def sib200_section(summary: dict) -> str:
    """SIB-200's accuracy per seed and language, the mean over seeds, and the time."""
    experiment = summary["experiments"]["sib200"]
    by_seed = experiment["tasks"]["sib200"]["by_seed"]
    languages = list(next(iter(by_seed.values())))
    lines = [
        SIB_START,
        "| seed | " + " | ".join(languages) + " |",
        "|---|" + "---:|" * len(languages),
    ]
    for seed, figures in by_seed.items():
        cells = [f"{100 * figures[lang]['metrics']['accuracy']:.1f}" for lang in languages]
        lines.append(f"| {seed} | " + " | ".join(cells) + " |")
    means = {
        lang: sum(f[lang]["metrics"]["accuracy"] for f in by_seed.values()) / len(by_seed)
        for lang in languages
    }
    lines.append("| mean | " + " | ".join(f"{100 * v:.1f}" for v in means.values()) + " |")
    per_seed = [
        sum(f[lang]["metrics"]["accuracy"] for lang in languages) / len(languages)
        for f in by_seed.values()
    ]
    overall = sum(per_seed) / len(per_seed)
    spread = (sum((v - overall) ** 2 for v in per_seed) / max(len(per_seed) - 1, 1)) ** 0.5
    machine = experiment.get("machine") or summary["machine"]
    lines += [
        "",
        f"Mean over the {len(languages)} languages and {len(by_seed)} seeds: {100 * overall:.1f} "
        f"(standard deviation over seeds {100 * spread:.1f}); {experiment['seconds'] / 60:.1f} "
        f"minutes on {machine['cpus']} CPUs; measured {_measured(experiment)}.",
        SIB_END,
    ]
    return "\n".join(lines)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _points(proportion: float) -> str:
    """A difference of proportions in percentage points, signed."""
    return f"{100 * proportion:+.1f}"


def _mean_change(before: dict, after: dict, languages: list[str], figure) -> dict:
    """Per language, ``figure(after) - figure(before)`` of two experiments' language figures,
    and their mean (under ``"mean"``)."""
    changes = {lang: figure(after[lang]) - figure(before[lang]) for lang in languages}
    return {**changes, "mean": _mean(list(changes.values()))}


def _footer(experiments: dict, names: list[str]) -> str:
    """Which code measured the experiments, when, on what, and how long each took."""
    parts = []
    for name in names:
        experiment = experiments[name]
        machine = experiment["machine"]
        parts.append(
            f"{name} {experiment['seconds'] / 60:.1f} min ({_measured(experiment)}, "
            f"{machine['cpus']} CPUs)"
        )
    return "Measured: " + "; ".join(parts) + "; record: docs/measured/protocols.json."


def lareqa_section(record: dict) -> str:
    """mAP@20 per language with its bootstrap interval, each encoder a row."""
    experiments = record["experiments"]
    shown = [name for name in LAREQA_ROWS if name in experiments]
    languages = list(experiments[shown[0]]["tasks"]["lareqa"]["languages"])
    lines = [
        LAREQA_START,
        "| encoder | " + " | ".join(languages) + " | avg |",
        "|---|" + "---:|" * (len(languages) + 1),
    ]
    for name in shown:
        figures = experiments[name]["tasks"]["lareqa"]["languages"]
        cells = [
            f"{100 * f['metrics']['map_at_20']:.1f} "
            f"[{100 * f['interval']['low']:.1f}, {100 * f['interval']['high']:.1f}]"
            for f in (figures[lang] for lang in languages)
        ]
        average = _mean([figures[lang]["metrics"]["map_at_20"] for lang in languages])
        lines.append(f"| {LAREQA_ROWS[name]} | " + " | ".join(cells) + f" | {100 * average:.1f} |")
    difference = []
    if len(shown) == 2:
        before, after = (experiments[n]["tasks"]["lareqa"]["languages"] for n in shown)
        changes = _mean_change(before, after, languages, lambda f: f["metrics"]["map_at_20"])
        difference = [
            "",
            "The dual encoder against the pretrained encoder: "
            f"{_points(changes['mean'])} points on average ("
            + ", ".join(f"{lang} {_points(changes[lang])}" for lang in languages)
            + ").",
        ]
    questions = {
        lang: f["n"] for lang, f in experiments[shown[0]]["tasks"]["lareqa"]["languages"].items()
    }
    lines += [
        "",
        f"**A smaller pool than the paper's:** these {len(languages)} languages' sentences "
        f"only ({', '.join(languages)}), where XTREME-R's pool holds all 11 of XQuAD-R's files "
        "(config/xtreme-r.yaml searches them all); fewer candidates make the search easier, "
        "so these figures are not comparable with XTREME-R's.",
        "",
        "mAP@20 (%), bootstrap 95% intervals over questions; avg: the mean of the languages. "
        "Questions per language: "
        + ", ".join(f"{k} {v}" for k, v in questions.items())
        + ". "
        + _footer(experiments, shown),
        *difference,
        LAREQA_END,
    ]
    return "\n".join(lines)


def squad_section(record: dict) -> str:
    """XQuAD F1 / EM per language under each window protocol, then Tatoeba accuracy per
    language and hidden state for the pretrained encoder and the SQuAD fine-tune."""
    experiments = record["experiments"]
    shown = [name for name in QA_ROWS if name in experiments]
    languages = list(experiments[shown[0]]["tasks"]["xquad"]["languages"])
    others = [lang for lang in languages if lang != "en"]
    lines = [
        SQUAD_START,
        "| windows | " + " | ".join(languages) + f" | mean F1 {' '.join(others)} |",
        "|---|" + "---:|" * (len(languages) + 1),
    ]
    for name in shown:
        figures = experiments[name]["tasks"]["xquad"]["languages"]
        metrics = {lang: figures[lang]["metrics"] for lang in languages}
        cells = [f"{100 * m['f1']:.1f} / {100 * m['exact_match']:.1f}" for m in metrics.values()]
        transfer = _mean([figures[lang]["metrics"]["f1"] for lang in others])
        lines.append(f"| {QA_ROWS[name]} | " + " | ".join(cells) + f" | {100 * transfer:.1f} |")
    questions = next(iter(experiments[shown[0]]["tasks"]["xquad"]["languages"].values()))["n"]
    seeds = ", ".join(str(seed) for seed in experiments[shown[0]]["seeds"])
    lines += ["", f"XQuAD, first {questions} questions, F1 / EM (%), seed {seeds}."]
    if len(shown) == 2:
        squad, qa = (experiments[n]["tasks"]["xquad"]["languages"] for n in shown)
        change = _mean_change(qa, squad, others, lambda f: f["metrics"]["f1"])["mean"]
        lines[-1] += (
            f" run_squad against run_qa: {_points(change)} points of mean F1 over "
            f"{' '.join(others)}."
        )
    lines.append("")
    tatoeba = [
        (name, "pretrained" if name == "tatoeba-pretrained" else "SQuAD fine-tune")
        for name in ("tatoeba-pretrained", "qa-run-squad")
        if name in experiments and "tatoeba" in experiments[name]["tasks"]
    ]
    if tatoeba:
        first = experiments[tatoeba[0][0]]["tasks"]["tatoeba"]["languages"]
        languages = list(first)
        lines += [
            "| encoder, hidden state | " + " | ".join(languages) + " | avg |",
            "|---|" + "---:|" * (len(languages) + 1),
        ]
        for name, label in tatoeba:
            figures = experiments[name]["tasks"]["tatoeba"]["languages"]
            for choice in ("model", "xtreme"):
                values = [figures[lang]["by_layer"][choice]["accuracy"] for lang in languages]
                layer = figures[languages[0]]["by_layer"][choice]["layer"]
                cells = " | ".join(f"{100 * v:.1f}" for v in values)
                lines.append(
                    f"| {label}, {layer} ({choice}) | {cells} | {100 * _mean(values):.1f} |"
                )
        pairs = next(iter(first.values()))["n"]
        lines += ["", f"Tatoeba, first {pairs} pairs of each language, accuracy (%)."]
        if len(tatoeba) == 2:
            before, after = (experiments[n]["tasks"]["tatoeba"]["languages"] for n, _ in tatoeba)
            changes = []
            for choice in ("model", "xtreme"):
                change = _mean_change(
                    before, after, languages, lambda f, c=choice: f["by_layer"][c]["accuracy"]
                )["mean"]
                layer = before[languages[0]]["by_layer"][choice]["layer"]
                changes.append(f"{_points(change)} at hidden state {layer} ({choice})")
            lines[-1] += (
                " The SQuAD fine-tune against the pretrained encoder, in points on average: "
                + ", ".join(changes)
                + "."
            )
    lines += [
        "",
        _footer(experiments, [*shown, *(n for n, _ in tatoeba if n not in shown)]),
        SQUAD_END,
    ]
    return "\n".join(lines)


def smoke_section(summary: dict) -> str:
    """The smoke tier's floors: per experiment and floor figure, each seed's value, the lowest,
    the spread (highest - lowest) and the floor."""
    sys.path.insert(0, str(REPO))  # run as a script: the floors live in the tests package
    from tests.smoke.test_floors import FLOORS

    lines = [
        SMOKE_START,
        "| experiment | figure (%) | per seed | lowest | spread | floor |",
        "|---|---|---|---:|---:|---:|",
    ]
    for name, (task, _, floors) in FLOORS.items():
        experiment = summary["experiments"][name]
        by_seed = experiment["tasks"][task]["by_seed"]
        for floor in floors:
            values = {seed: floor.figure(figures) for seed, figures in by_seed.items()}
            cells = ", ".join(f"{seed}: {100 * v:.1f}" for seed, v in values.items())
            low, high = min(values.values()), max(values.values())
            lines.append(
                f"| {name} | {floor.label} | {cells} | {100 * low:.1f} | {100 * (high - low):.1f} "
                f"| {100 * floor.floor:.1f} |"
            )
    lines += [
        "",
        "Seeds per experiment: "
        + ", ".join(f"{n} {len(e['seeds'])}" for n, e in summary["experiments"].items())
        + f" (Tatoeba trains nothing); {summary['machine']['cpus']} CPUs "
        f"({summary['machine']['platform']}).",
        SMOKE_END,
    ]
    return "\n".join(lines)


def replace_section(text: str, start: str, end: str, body: str) -> str:
    """``text`` with what lies between the ``start`` and ``end`` markers replaced by ``body``
    (which carries the markers itself)."""
    if start not in text or end not in text:
        raise SystemExit(f"docs/results.md lacks the {start} ... {end} markers")
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    return before + body + after


def merged_record(summary: dict, record: dict | None) -> dict:
    """``record`` (the committed one) with ``summary``'s experiments in place of its own."""
    merged = {"experiments": dict((record or {}).get("experiments") or {})}
    for name, experiment in summary["experiments"].items():
        # a summary's machine stands for experiments that older runs wrote without their own
        merged["experiments"][name] = {"machine": summary.get("machine"), **experiment}
    merged["machine"] = summary.get("machine") or (record or {}).get("machine")
    merged["seconds"] = round(sum(e["seconds"] for e in merged["experiments"].values()), 1)
    return merged


def write_sections(record: dict, readme: Path) -> None:
    text = readme.read_text(encoding="utf-8")
    text = replace_section(text, START, END, section(record))
    if "sib200" in record["experiments"]:
        text = replace_section(text, SIB_START, SIB_END, sib200_section(record))
    readme.write_text(text, encoding="utf-8")


def write_protocol_sections(record: dict, readme: Path) -> None:
    text = readme.read_text(encoding="utf-8")
    if any(name in record["experiments"] for name in LAREQA_ROWS):
        text = replace_section(text, LAREQA_START, LAREQA_END, lareqa_section(record))
    if any(name in record["experiments"] for name in QA_ROWS):
        text = replace_section(text, SQUAD_START, SQUAD_END, squad_section(record))
    readme.write_text(text, encoding="utf-8")


def main(tier: str = "real") -> None:
    summary_path = REPO / f"results-{tier}" / "summary.json"
    readme = REPO / "docs" / "results.md"
    if tier == "smoke":
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
        text = readme.read_text(encoding="utf-8")
        text = replace_section(text, SMOKE_START, SMOKE_END, smoke_section(summary))
        readme.write_text(text, encoding="utf-8")
    else:
        path = PROTOCOLS_RECORD if tier == "protocols" else RECORD
        record = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
        if summary_path.is_file():
            summary = json.loads(summary_path.read_text(encoding="utf-8"))
            record = merged_record(summary, record)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
            print(f"updated {path}")
        if record is None:
            raise SystemExit(f"neither {summary_path} nor {path}: run make test-{tier} first")
        (write_protocol_sections if tier == "protocols" else write_sections)(record, readme)
    print(f"updated {readme}")


if __name__ == "__main__":
    main(*sys.argv[1:2])
