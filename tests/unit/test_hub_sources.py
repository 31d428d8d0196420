"""Every hub source of every spec, read through the real ``datasets`` builders without the
network: each repository is a local folder laid out as the hub lays it out at the pinned commit
(``<owner>/<name>@<commit>``: its README configs block, its split names, parquet, TSV or JSON
lines in its schema with its ClassLabel names), built from ../shared/data and named by
``MTE_HUB_DIR``. Each builder names the page it copies (the ``page`` of the repository's record
in mte.specs._hub). A repository that holds only a loading script gives the message that says
so and how to read it instead; a pin that is not served gives one line and reads nothing."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import datasets
import pytest
import yaml

from mte.errors import MteError
from mte.hub.datasets import RevisionNotServedError, ScriptOnlyError, load_split_files
from mte.hub.lock import DataLockError, check_download, entry_of, merge_task, read_lock, write_lock
from mte.hub.repos import PARQUET_EXPORT, HubRepo
from mte.io import sha256_file, write_jsonl
from mte.registry import TASKS
from mte.specs import _hub
from mte.steps.data import materialize, read_notes
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.skipif(
    not SHARED_DATA.is_dir(), reason="needs ../shared/data (the real benchmark files)"
)

EXPORT = f"@{PARQUET_EXPORT.replace('/', '%2F')}"


def _at(root: Path, repo: HubRepo) -> Path:
    """The copy of ``repo`` at the revision its record reads."""
    return root / f"{repo.id}@{repo.read_revision.replace('/', '%2F')}"


NER = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC"]
CONLL_NER = [*NER, "B-MISC", "I-MISC"]
UPOS = [
    "ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM",
    "PART", "PRON", "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X",
]  # fmt: skip


def _lines(path: Path, encoding: str = "utf-8") -> list[str]:
    return path.read_text(encoding=encoding).splitlines()


def _column_sentences(path: Path, token: int, tag: int, encoding="utf-8") -> list[tuple]:
    """Blank-line separated sentences of a column file: (tokens, tags)."""
    sentences, tokens, tags = [], [], []
    for line in _lines(path, encoding) + [""]:
        fields = line.split()
        if not fields or fields[0] == "-DOCSTART-":
            if tokens:
                sentences.append((tokens, tags))
            tokens, tags = [], []
            continue
        tokens.append(fields[token])
        tags.append(fields[tag])
    return sentences


def _squad_rows(path: Path) -> list[dict]:
    rows = []
    for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                rows.append(
                    {
                        "id": qa["id"],
                        "title": article.get("title", ""),
                        "context": paragraph["context"],
                        "question": qa["question"],
                        "answers": {
                            "answer_start": [a["answer_start"] for a in qa["answers"]],
                            "text": [a["text"] for a in qa["answers"]],
                        },
                    }
                )
    return rows


def _write(folder: Path, split_files: dict[str, datasets.Dataset]) -> None:
    """Parquet files as the hub's converter names them: <split>-00000-of-00001.parquet."""
    folder.mkdir(parents=True, exist_ok=True)
    for split, table in split_files.items():
        table.to_parquet(str(folder / f"{split}-00000-of-00001.parquet"))


def _readme(folder: Path, configs: dict[str, dict[str, str]], page: str) -> None:
    """A dataset card whose configs block names each config's split files."""
    block = [
        {"config_name": name, "data_files": [{"split": s, "path": p} for s, p in splits.items()]}
        for name, splits in configs.items()
    ]
    front = yaml.safe_dump({"configs": block}, sort_keys=False)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "README.md").write_text(f"---\n{front}---\n\nA copy of {page}\n", encoding="utf-8")


def _tagging(sentences: list[tuple], column: str, names: list[str]) -> datasets.Dataset:
    features = datasets.Features(
        {
            "tokens": datasets.Sequence(datasets.Value("string")),
            column: datasets.Sequence(datasets.ClassLabel(names=names)),
        }
    )
    return datasets.Dataset.from_dict(
        {
            "tokens": [s[0] for s in sentences],
            column: [[names.index(t) for t in s[1]] for s in sentences],
        },
        features=features,
    )


def _qa(rows: list[dict]) -> datasets.Dataset:
    return datasets.Dataset.from_list(rows)


def _script_only(folder: Path, script: str, page: str) -> None:
    """A repository's main as the page shows it: a card and its loading script, no data."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "README.md").write_text(f"# A copy of {page}\n", encoding="utf-8")
    (folder / script).write_text("import datasets  # the loading script\n", encoding="utf-8")


def build_xtreme(root: Path, repo: HubRepo) -> None:
    """google/xtreme at its pinned commit: <config>/<split>-00000-of-00001.parquet per config
    (PAN-X, udpos, MLQA, tatoeba as its pages name them), xtreme.py beside."""
    base = _at(root, repo)
    data = SHARED_DATA
    panx = _column_sentences(data / "panx/dev-de.tsv", 0, 1)
    _write(base / "PAN-X.de", {"validation": _tagging(panx, "ner_tags", NER)})
    ud = []
    for line_block in (data / "ud/de_gsd-ud-dev.conllu").read_text(encoding="utf-8").split("\n\n"):
        words = [ln.split("\t") for ln in line_block.splitlines() if ln and ln[0].isdigit()]
        words = [w for w in words if w[0].isdigit()]  # not 1-2 ranges, not 5.1 empty nodes
        if words:
            ud.append(([w[1] for w in words], [w[3] for w in words]))
    _write(base / "udpos.German", {"validation": _tagging(ud, "pos_tags", UPOS)})
    mlqa = _squad_rows(data / "mlqa/dev-context-de-question-de.json")
    _write(base / "MLQA.de.de", {"validation": _qa(mlqa)})
    german = _lines(data / "tatoeba/tatoeba.deu-eng.deu")
    english = _lines(data / "tatoeba/tatoeba.deu-eng.eng")
    pairs = {
        "source_sentence": german,
        "target_sentence": english,
        "source_lang": ["deu"] * len(german),
        "target_lang": ["eng"] * len(german),
    }
    _write(base / "tatoeba.deu", {"validation": datasets.Dataset.from_dict(pairs)})
    (base / "xtreme.py").write_text("# the loading script, never run\n", encoding="utf-8")
    _readme(base, {}, repo.page)


def _pairs(rows: list[list[str]], columns: tuple[str, str], names: list[str]) -> datasets.Dataset:
    features = datasets.Features(
        {
            columns[0]: datasets.Value("string"),
            columns[1]: datasets.Value("string"),
            "label": datasets.ClassLabel(names=names),
        }
    )
    return datasets.Dataset.from_dict(
        {
            columns[0]: [r[0] for r in rows],
            columns[1]: [r[1] for r in rows],
            "label": [names.index(r[2]) for r in rows],
        },
        features=features,
    )


def build_xnli(root: Path, repo: HubRepo) -> None:
    base = _at(root, repo)
    rows = [line.split("\t") for line in _lines(SHARED_DATA / "xnli/dev-de.tsv")]
    table = _pairs(rows, ("premise", "hypothesis"), ["entailment", "neutral", "contradiction"])
    _write(base / "de", {"validation": table})
    _readme(base, {"de": {"validation": "de/validation-*"}}, repo.page)


def build_xquad(root: Path, repo: HubRepo) -> None:
    base = _at(root, repo)
    _write(base / "xquad.de", {"validation": _qa(_squad_rows(SHARED_DATA / "xquad/xquad.de.json"))})
    _readme(base, {"xquad.de": {"validation": "xquad.de/validation-*"}}, repo.page)


def build_glue(root: Path, repo: HubRepo) -> None:
    base = _at(root, repo)
    rows = [line.split("\t") for line in _lines(SHARED_DATA / "glue/SST-2/test.tsv")[1:]]
    features = datasets.Features(
        {
            "sentence": datasets.Value("string"),
            "label": datasets.ClassLabel(names=["negative", "positive"]),
            "idx": datasets.Value("int32"),
        }
    )
    table = datasets.Dataset.from_dict(
        {
            "sentence": [r[0] for r in rows],
            "label": [int(r[1]) for r in rows],
            "idx": list(range(len(rows))),
        },
        features=features,
    )
    _write(base / "sst2", {"validation": table})
    _readme(base, {"sst2": {"validation": "sst2/validation-*"}}, repo.page)


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in _lines(path) if line.strip()]


def build_xcopa(root: Path, repo: HubRepo) -> None:
    base = _at(root, repo)
    splits = {
        s: datasets.Dataset.from_list(_jsonl(SHARED_DATA / f"xcopa/data/et/{f}.et.jsonl"))
        for s, f in (("validation", "val"), ("test", "test"))
    }
    _write(base / "et", splits)
    _readme(base, {"et": {s: f"et/{s}-*" for s in splits}}, repo.page)


def build_super_glue(root: Path, repo: HubRepo) -> None:
    """At its pinned commit: <config>/<split>-00000-of-00001.parquet, read by path."""
    base = _at(root, repo)
    features = datasets.Features(
        {
            "premise": datasets.Value("string"),
            "choice1": datasets.Value("string"),
            "choice2": datasets.Value("string"),
            "question": datasets.Value("string"),
            "idx": datasets.Value("int32"),
            "label": datasets.ClassLabel(names=["choice1", "choice2"]),
        }
    )
    splits = {}
    for split, name in (("train", "train"), ("validation", "val")):
        rows = [
            {k: r[k] for k in features} for r in _jsonl(SHARED_DATA / f"copa/COPA/{name}.jsonl")
        ]
        splits[split] = datasets.Dataset.from_list(rows, features=features)
    _write(base / "copa", splits)
    _readme(base, {"copa": {s: f"copa/{s}-*" for s in splits}}, repo.page)


def build_belebele(root: Path, repo: HubRepo) -> None:
    """data/<code>.jsonl named by a config per variant, one test split; each row as the
    release's with the hub's ds, the date of its export (read as a timestamp)."""
    base = _at(root, repo)
    (base / "data").mkdir(parents=True, exist_ok=True)
    rows = _jsonl(SHARED_DATA / "belebele/Belebele/deu_Latn.jsonl")
    lines = [json.dumps({**row, "ds": "2023-07-21 00:00:00"}, ensure_ascii=False) for row in rows]
    (base / "data/deu_Latn.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _readme(base, {"deu_Latn": {"test": "data/deu_Latn.jsonl"}}, repo.page)


def build_wikiann(root: Path, repo: HubRepo) -> None:
    base = _at(root, repo)
    splits = {
        s: _tagging(_column_sentences(SHARED_DATA / f"panx/{f}-qu.tsv", 0, 1), "ner_tags", NER)
        for s, f in (("validation", "dev"), ("test", "test"), ("train", "train"))
    }
    _write(base / "qu", splits)
    _readme(base, {"qu": {s: f"qu/{s}-*" for s in splits}}, repo.page)


def build_siqa(root: Path, repo: HubRepo) -> None:
    """main: card and social_i_qa.py; the export at its pinned commit:
    default/validation/0000.parquet."""
    _script_only(root / repo.id, "social_i_qa.py", repo.page)
    rows = _jsonl(SHARED_DATA / "siqa/socialIQa_v1.4_dev.jsonl")
    table = datasets.Dataset.from_dict(
        {
            **{
                key: [r[key] for r in rows]
                for key in ("context", "question", "answerA", "answerB", "answerC")
            },
            "label": [str("ABC".index(r["correct"]) + 1) for r in rows],
        }
    )
    folder = _at(root, repo) / "default/validation"
    folder.mkdir(parents=True)
    table.to_parquet(str(folder / "0000.parquet"))


def _export(root: Path, repo: HubRepo, config: str, split: str, table: datasets.Dataset) -> None:
    folder = root / f"{repo.id}{EXPORT}/{config}/{split}"
    folder.mkdir(parents=True, exist_ok=True)
    table.to_parquet(str(folder / "0000.parquet"))


def build_conll2003(root: Path, repo: HubRepo) -> None:
    _script_only(root / repo.id, "conll2003.py", repo.page)
    sentences = _column_sentences(SHARED_DATA / "conll/eng.testa", 0, 3)
    _export(root, repo, "conll2003", "validation", _tagging(sentences, "ner_tags", CONLL_NER))


def build_conll2002(root: Path, repo: HubRepo) -> None:
    _script_only(root / repo.id, "conll2002.py", repo.page)
    sentences = _column_sentences(SHARED_DATA / "conll/esp.testa", 0, 1, encoding="latin-1")
    _export(root, repo, "es", "validation", _tagging(sentences, "ner_tags", CONLL_NER))


def build_squad(root: Path, repo: HubRepo) -> None:
    """Parquet at its pinned commit: a configs block mapping plain_text to
    plain_text/{train,validation}-*, SQuAD's columns; rows from XQuAD's English (SQuAD's dev
    set's questions)."""
    base = _at(root, repo)
    rows = _squad_rows(SHARED_DATA / "xquad/xquad.en.json")
    _write(base / "plain_text", {"train": _qa(rows[:50]), "validation": _qa(rows)})
    splits = {s: f"plain_text/{s}-*" for s in ("train", "validation")}
    _readme(base, {"plain_text": splits}, repo.page)


def build_sib200(root: Path, repo: HubRepo) -> None:
    """TSV files data/<code>/{train,dev,test}.tsv (the authors' own), named by a per-language
    configs block whose splits are train, validation (dev.tsv) and test."""
    base = _at(root, repo)
    folder = base / "data/eng_Latn"
    folder.mkdir(parents=True)
    for split in ("train", "dev", "test"):
        shutil.copy(SHARED_DATA / f"sib200/eng_Latn/{split}.tsv", folder / f"{split}.tsv")
    splits = {s: f"data/eng_Latn/{f}.tsv" for s, f in (("train", "train"),
              ("validation", "dev"), ("test", "test"))}  # fmt: skip
    _readme(base, {"eng_Latn": splits}, repo.page)


def build_pawsx(root: Path, repo: HubRepo) -> None:
    """<lang>/<split>-00000-of-00001.parquet at its pinned commit, read by path: the id, the
    two sentences and a ClassLabel ('0', '1'); ids numbered as the fixture's release copy
    (tests below) numbers them."""
    base = _at(root, repo)
    rows = [line.split("\t") for line in _lines(SHARED_DATA / "pawsx/dev-de.tsv")]
    table = _pairs(rows, ("sentence1", "sentence2"), ["0", "1"])
    table = table.add_column("id", list(range(1, len(rows) + 1)))
    _write(base / "de", {"validation": table})


# each repository record, its builder, and a task, language and split read from it with the
# number of examples an independent count of the shared file gives
SOURCES: dict[str, tuple[Callable, str, str, str, Callable[[], int]]] = {
    "google/xtreme": (
        build_xtreme,
        "panx",
        "de",
        "dev",
        lambda: len(_column_sentences(SHARED_DATA / "panx/dev-de.tsv", 0, 1)),
    ),
    "facebook/xnli": (
        build_xnli,
        "xnli",
        "de",
        "dev",
        lambda: len(_lines(SHARED_DATA / "xnli/dev-de.tsv")),
    ),
    "google/xquad": (
        build_xquad,
        "xquad",
        "de",
        "test",
        lambda: len(_squad_rows(SHARED_DATA / "xquad/xquad.de.json")),
    ),
    "nyu-mll/glue": (
        build_glue,
        "sst2",
        "en",
        "dev",
        lambda: len(_lines(SHARED_DATA / "glue/SST-2/test.tsv")) - 1,
    ),
    "cambridgeltl/xcopa": (
        build_xcopa,
        "xcopa",
        "et",
        "test",
        lambda: len(_jsonl(SHARED_DATA / "xcopa/data/et/test.et.jsonl")),
    ),
    "aps/super_glue": (
        build_super_glue,
        "xcopa",
        "en",
        "train",
        lambda: len(_jsonl(SHARED_DATA / "copa/COPA/train.jsonl")),
    ),
    "facebook/belebele": (
        build_belebele,
        "belebele",
        "deu_Latn",
        "test",
        lambda: len(_jsonl(SHARED_DATA / "belebele/Belebele/deu_Latn.jsonl")),
    ),
    "unimelb-nlp/wikiann": (
        build_wikiann,
        "panx",
        "qu",
        "test",
        lambda: len(_column_sentences(SHARED_DATA / "panx/test-qu.tsv", 0, 1)),
    ),
    "allenai/social_i_qa": (
        build_siqa,
        "siqa",
        "en",
        "dev",
        lambda: len(_jsonl(SHARED_DATA / "siqa/socialIQa_v1.4_dev.jsonl")),
    ),
    "eriktks/conll2003": (
        build_conll2003,
        "conll",
        "en",
        "dev",
        lambda: len(_column_sentences(SHARED_DATA / "conll/eng.testa", 0, 3)),
    ),
    "eriktks/conll2002": (
        build_conll2002,
        "conll",
        "es",
        "dev",
        lambda: len(_column_sentences(SHARED_DATA / "conll/esp.testa", 0, 1, "latin-1")),
    ),
    "rajpurkar/squad": (
        build_squad,
        "squad",
        "en",
        "dev",
        lambda: len(_squad_rows(SHARED_DATA / "xquad/xquad.en.json")),
    ),
    "Davlan/sib200": (
        build_sib200,
        "sib200",
        "eng_Latn",
        "dev",
        lambda: len(_lines(SHARED_DATA / "sib200/eng_Latn/dev.tsv")) - 1,
    ),
    "google-research-datasets/paws-x": (
        build_pawsx,
        "pawsx",
        "de",
        "dev",
        lambda: len(_lines(SHARED_DATA / "pawsx/dev-de.tsv")),
    ),
}

RECORDS = {repo.id: repo for repo in vars(_hub).values() if isinstance(repo, HubRepo)}


def test_every_hub_source_of_every_spec_has_a_record_and_a_fixture() -> None:
    named = {repo.id for task in TASKS.values() for repo in task.hub_repos}
    assert named == set(RECORDS) == set(SOURCES)


@pytest.fixture(scope="module")
def hub_copies(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hub")
    for repo_id, (build, *_) in SOURCES.items():
        build(root, RECORDS[repo_id])
    return root


@pytest.mark.parametrize("repo_id", sorted(SOURCES))
def test_each_hub_source_loads_through_datasets(
    repo_id: str, hub_copies: Path, monkeypatch
) -> None:
    monkeypatch.setenv("MTE_HUB_DIR", str(hub_copies))
    _, task_name, language, split, count = SOURCES[repo_id]
    task = TASKS[task_name]
    examples, origin = materialize(task, {"source": "hub"}, language, split)
    assert len(examples) == count() > 0
    assert origin["id"] == repo_id
    repo = RECORDS[repo_id]
    exported = origin["route"] == "parquet export"
    assert origin["revision"] == repo.read_revision
    assert exported == (repo.status == "script")
    # a pinned commit is the commit read; a branch read from a copy cannot say which
    assert origin["commit"] == (repo.revision if repo.pinned else None)
    assert origin["local_copy"].startswith(str(hub_copies / repo_id))
    route = {"files": "parquet files", "script": "parquet export", "loads": "config"}
    assert origin["route"] == route[repo.status]
    # each data file read, with its SHA-256, by its path in the repository
    assert origin["files_read"]
    for path, digest in origin["files_read"].items():
        copy = Path(origin["local_copy"]) / path
        assert digest == f"sha256:{hashlib.sha256(copy.read_bytes()).hexdigest()}"


def test_the_hub_and_the_files_give_the_same_examples(hub_copies: Path, monkeypatch) -> None:
    """The hub's rows, through each family's hub reader, are the released files' examples."""
    monkeypatch.setenv("MTE_HUB_DIR", str(hub_copies))
    cases = [
        ("xnli", "de", "dev", "xnli"),
        ("panx", "de", "dev", "panx"),
        ("mlqa", "de", "dev", "mlqa"),
        ("xquad", "de", "test", "xquad"),
    ]
    for task_name, language, split, folder in cases:
        task = TASKS[task_name]
        hub, _ = materialize(task, {"source": "hub"}, language, split)
        files, _ = materialize(
            task, {"source": "files", "path": str(SHARED_DATA / folder)}, language, split
        )
        strip = lambda rows: [{k: v for k, v in r.items() if k != "id"} for r in rows]  # noqa: E731
        assert strip(hub) == strip(files), task_name


def test_google_xtreme_is_read_as_its_pinned_commit_lays_it_out(
    hub_copies: Path, monkeypatch
) -> None:
    """At ec5f1f4: <config>/<split>-00000-of-00001.parquet (PAN-X.de, MLQA.de.de), read by path
    at the pinned commit, the loading script beside them never run."""
    monkeypatch.setenv("MTE_HUB_DIR", str(hub_copies))
    for task, config in (("panx", "PAN-X.de"), ("mlqa", "MLQA.de.de")):
        _, origin = materialize(TASKS[task], {"source": "hub"}, "de", "dev")
        assert origin["commit"] == "ec5f1f46e9af79639a90684a7a70a956c4998f04"
        assert list(origin["files_read"]) == [f"{config}/validation-00000-of-00001.parquet"]
        assert origin["route"] == "parquet files"


def test_sib200_reads_dev_tsv_as_its_validation_split(hub_copies: Path, monkeypatch) -> None:
    """The pinned layout: data/eng_Latn/dev.tsv is the split the configs block names
    validation; every row of the authors' file, its index_id as the id."""
    monkeypatch.setenv("MTE_HUB_DIR", str(hub_copies))
    examples, origin = materialize(TASKS["sib200"], {"source": "hub"}, "eng_Latn", "dev")
    assert origin["split"] == "validation"
    assert list(origin["files_read"]) == ["data/eng_Latn/dev.tsv"]
    released, _ = materialize(
        TASKS["sib200"], {"source": "files", "path": str(SHARED_DATA / "sib200")}, "eng_Latn", "dev"
    )
    assert examples == released


def test_belebele_from_the_hub_and_from_the_release_are_the_same_items(
    hub_copies: Path, monkeypatch
) -> None:
    """The hub's ds is a date, not a split: the ids of the hub's rows and of the release's
    lines are the same (link and question number), and so is every field."""
    monkeypatch.setenv("MTE_HUB_DIR", str(hub_copies))
    hub, _ = materialize(TASKS["belebele"], {"source": "hub"}, "deu_Latn", "test")
    release = {"source": "files", "path": str(SHARED_DATA / "belebele")}
    files, _ = materialize(TASKS["belebele"], release, "deu_Latn", "test")
    assert len(hub) == len(files) == 900
    assert hub == files
    assert hub[0]["id"] == "https://en.wikibooks.org/wiki/Accordion/Right_hand #1"


def test_a_python_file_beside_belebele_s_configs_is_not_run_by_the_pinned_datasets(
    tmp_path: Path,
) -> None:
    """facebook/belebele's tree at its pin lists one .py file beside the configs block that
    its record reads (status "loads"). The pinned datasets refuses a repository only for
    <repository name>.py at its root (load.py: ``filename = <name> + ".py"``, for a hub id and
    a folder alike); any other .py is never looked at and the configs block is read. So the
    record holds unless that file is belebele.py, and then the download stops with the
    script-only line, reading nothing."""
    folder = tmp_path / "belebele"
    (folder / "data").mkdir(parents=True)
    row = {
        "link": "l", "question_number": 1, "flores_passage": "p", "question": "q",
        "mc_answer1": "a", "mc_answer2": "b", "mc_answer3": "c", "mc_answer4": "d",
        "correct_answer_num": "2", "dialect": "deu_Latn", "ds": "2023-07-21 00:00:00",
    }  # fmt: skip
    (folder / "data/deu_Latn.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    _readme(folder, {"deu_Latn": {"test": "data/deu_Latn.jsonl"}}, "a tree like belebele's")
    (folder / "assemble_training_set.py").write_text("raise SystemExit\n", encoding="utf-8")
    assert _hub.BELEBELE.status == "loads"

    builder = datasets.load_dataset_builder(str(folder), "deu_Latn")
    builder.download_and_prepare()
    assert builder.as_dataset(split="test")[0]["correct_answer_num"] == "2"

    (folder / "belebele.py").write_text("raise SystemExit\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match="Dataset scripts are no longer supported"):
        datasets.load_dataset_builder(str(folder), "deu_Latn")


def test_pawsx_from_the_hub_and_from_the_release_are_the_same_items(
    hub_copies: Path, monkeypatch, tmp_path: Path
) -> None:
    """The hub's rows and the original release's x-final/de/dev_2k.tsv (id, sentence1,
    sentence2, label), both written here from XTREME's dev-de.tsv and numbered alike: the same
    ids and fields through the two readers."""
    monkeypatch.setenv("MTE_HUB_DIR", str(hub_copies))
    hub, origin = materialize(TASKS["pawsx"], {"source": "hub"}, "de", "dev")
    rows = _lines(SHARED_DATA / "pawsx/dev-de.tsv")
    (tmp_path / "de").mkdir()
    lines = ["id\tsentence1\tsentence2\tlabel"]
    lines += [f"{number}\t{row}" for number, row in enumerate(rows, 1)]
    (tmp_path / "de/dev_2k.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    files, _ = materialize(TASKS["pawsx"], {"source": "files", "path": str(tmp_path)}, "de", "dev")
    assert len(hub) == len(files) == 2000
    assert hub == files
    assert "unlabelled" not in origin


def _pawsx_with_missing_labels(root: Path) -> None:
    """A copy of paws-x whose en rows include labels of -1, as the old loading script wrote a
    label missing from the release."""
    base = _at(root, RECORDS["google-research-datasets/paws-x"]) / "en"
    for split, labels in (("test", [0, 1, -1, 1]), ("train", [-1, 1, 0])):
        table = datasets.Dataset.from_dict(
            {
                "id": list(range(1, len(labels) + 1)),
                "sentence1": [f"first {n}" for n in range(len(labels))],
                "sentence2": [f"second {n}" for n in range(len(labels))],
                "label": labels,
            },
            features=datasets.Features(
                {
                    "id": datasets.Value("int32"),
                    "sentence1": datasets.Value("string"),
                    "sentence2": datasets.Value("string"),
                    "label": datasets.ClassLabel(names=["0", "1"]),
                }
            ),
        )
        _write(base, {split: table})


def test_pawsx_rows_labelled_minus_one_are_read_as_xtreme_reads_them(
    tmp_path: Path, monkeypatch
) -> None:
    """XTREME's PAWS-X reader gives a test line without a label "0" and cannot read a training
    line without one: a test row of -1 is kept as "0", a training row left out, each counted
    in the data record and said in the download's notes."""
    _pawsx_with_missing_labels(tmp_path)
    monkeypatch.setenv("MTE_HUB_DIR", str(tmp_path))
    test, origin = materialize(TASKS["pawsx"], {"source": "hub"}, "en", "test")
    assert [e["label"] for e in test] == ["0", "1", "0", "1"]
    assert origin["unlabelled"]["count"] == 1 and "labelled '0'" in origin["unlabelled"]["handled"]
    train, origin = materialize(TASKS["pawsx"], {"source": "hub"}, "en", "train")
    assert [e["id"] for e in train] == ["2", "3"]
    assert origin["unlabelled"] == {
        "count": 1,
        "handled": "left out, as XTREME's reader cannot read them",
    }
    note, warnings = read_notes(origin, "en", "train")
    assert "1 row(s) without a label: left out" in note
    assert len(warnings) == 1 and "1 row(s) of train have no label" in warnings[0]


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *args], capture_output=True, text=True, check=True,
        env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
             "GIT_COMMITTER_EMAIL": "t@t", "PATH": os.environ["PATH"]},
    )  # fmt: skip
    return done.stdout.strip()


@pytest.fixture
def xnli_clone(hub_copies: Path, tmp_path: Path) -> Path:
    """facebook/xnli as a git clone of the hub repository would hold it, with one commit of
    its own: not the commit the spec pins."""
    root = tmp_path / "hub"
    clone = root / "facebook/xnli"
    shutil.copytree(_at(hub_copies, RECORDS["facebook/xnli"]), clone)
    _git(clone, "init", "-q")
    _git(clone, "add", ".")
    _git(clone, "commit", "-q", "-m", "a copy")
    return root


def test_a_pinned_commit_that_is_not_served_is_one_line_and_reads_nothing(
    xnli_clone: Path, monkeypatch
) -> None:
    monkeypatch.setenv("MTE_HUB_DIR", str(xnli_clone))
    pin = RECORDS["facebook/xnli"].revision
    with pytest.raises(RevisionNotServedError) as caught:
        materialize(TASKS["xnli"], {"source": "hub"}, "de", "dev")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"tasks.xnli: facebook/xnli does not serve revision {pin}")
    assert "not replaced by main" in message
    assert "tasks.xnli.revision" in message and "tasks.xnli.source: release" in message
    # the config's revision: the commit the clone holds, read and recorded as such
    head = _git(xnli_clone / "facebook/xnli", "rev-parse", "HEAD")
    examples, origin = materialize(TASKS["xnli"], {"source": "hub", "revision": head}, "de", "dev")
    assert origin["commit"] == head and len(examples) == 2490


def test_the_hub_answering_revision_not_found_is_the_same_line(monkeypatch) -> None:
    """Online: the hub's RevisionNotFoundError for the pin is the same one line, before any
    data is read (the reachability check and the retries stand aside here)."""
    import huggingface_hub
    from huggingface_hub.errors import RevisionNotFoundError

    from mte.hub import datasets as hub_datasets

    def not_found(self, repo_id, revision=None, **kwargs):
        answer = SimpleNamespace(status_code=404, headers={}, request=None)  # the hub's 404
        raise RevisionNotFoundError(f"{repo_id}@{revision}: Revision Not Found", response=answer)

    monkeypatch.delenv("MTE_HUB_DIR", raising=False)
    monkeypatch.setattr(hub_datasets, "offline_requested", lambda: False)
    monkeypatch.setattr(hub_datasets, "hub_caller", lambda what, hint: lambda run: run())
    monkeypatch.setattr(huggingface_hub.HfApi, "dataset_info", not_found)
    monkeypatch.setattr(hub_datasets, "load_split_files", pytest.fail)
    with pytest.raises(RevisionNotServedError, match=r"^tasks\.panx: google/xtreme does not "
                       r"serve revision ec5f1f4.*the hub answers: revision not found"):  # fmt: skip
        materialize(TASKS["panx"], {"source": "hub"}, "de", "dev")


def test_a_plain_copy_never_stands_for_a_pinned_commit(hub_copies: Path, tmp_path: Path,
                                                      monkeypatch) -> None:  # fmt: skip
    """A folder named only <owner>/<name>, not a git clone, cannot say which commit it holds:
    a pinned commit is not read from it."""
    shutil.copytree(_at(hub_copies, RECORDS["facebook/xnli"]), tmp_path / "facebook/xnli")
    monkeypatch.setenv("MTE_HUB_DIR", str(tmp_path))
    with pytest.raises(MteError, match=r"neither a copy at it nor a git clone"):
        materialize(TASKS["xnli"], {"source": "hub"}, "de", "dev")


def test_a_script_only_repository_names_itself_datasets_and_the_way_out(
    hub_copies: Path, monkeypatch
) -> None:
    monkeypatch.setenv("MTE_HUB_DIR", str(hub_copies))
    with pytest.raises(ScriptOnlyError) as caught:
        load_split_files("eriktks/conll2003", "conll2003", "validation", revision="main")
    message = str(caught.value)
    assert "eriktks/conll2003 at main holds a loading script (conll2003.py)" in message
    assert f"datasets {datasets.__version__} no longer runs" in message
    assert PARQUET_EXPORT in message and "source: release" in message
    assert not isinstance(caught.value, type(None)) and "unreachable" not in message


def test_a_missing_copy_names_the_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("MTE_HUB_DIR", str(tmp_path))
    with pytest.raises(
        MteError, match=r"holds no copy of it at 51adfef.* \(looked for .*google/xquad"
    ):
        materialize(TASKS["xquad"], {"source": "hub"}, "de", "test")


def _download(task: str, language: str, split: str, folder: Path) -> dict:
    """What the download step records of one hub read: its data record, with the canonical
    examples written and summed as download.py sums them."""
    examples, origin = materialize(TASKS[task], {"source": "hub"}, language, split)
    written = folder / f"{language}-{split}.jsonl"
    origin["count"] = write_jsonl(written, examples)
    origin["sha256_jsonl"] = sha256_file(written)
    return origin


def test_a_hub_file_changed_under_the_same_pin_is_refused_with_both_sums(
    hub_copies: Path, tmp_path: Path, monkeypatch
) -> None:
    """XNLI de at its pinned commit, locked; the copy's parquet then holds one other label
    under the same commit: the next download is refused, naming the file's two SHA-256 sums
    and the examples' two."""
    root = tmp_path / "hub"
    shutil.copytree(hub_copies / "facebook", root / "facebook")
    monkeypatch.setenv("MTE_HUB_DIR", str(root))
    first = entry_of(_download("xnli", "de", "dev", tmp_path))
    lock = read_lock(None)
    merge_task(lock, "xnli", "hub-pinned", {"de/dev": first}, accept=False)
    write_lock(tmp_path / "run.lock", lock, "run.yaml")
    parquet = _at(root, RECORDS["facebook/xnli"]) / "de/validation-00000-of-00001.parquet"
    table = datasets.Dataset.from_parquet(str(parquet))
    labels = table["label"]
    table = table.remove_columns("label").add_column("label", [(labels[0] + 1) % 3, *labels[1:]])
    table = table.cast_column("label", datasets.ClassLabel(names=["entailment", "neutral",
                                                                   "contradiction"]))  # fmt: skip
    table.to_parquet(str(parquet))
    second = entry_of(_download("xnli", "de", "dev", tmp_path))
    assert second["commit"] == first["commit"] == RECORDS["facebook/xnli"].revision
    with pytest.raises(DataLockError) as caught:
        check_download(
            str(tmp_path / "run.lock"), "xnli", "hub-pinned", "de/dev", second, "de/dev.jsonl",
            accept=False,
        )  # fmt: skip
    message = str(caught.value)
    path = "de/validation-00000-of-00001.parquet"
    assert f"file {path}: {second['files'][path]}, the lock has {first['files'][path]}" in message
    assert second["examples"]["sha256"] in message and first["examples"]["sha256"] in message
