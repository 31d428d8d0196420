"""Every hub source of every spec, read through the real ``datasets.load_dataset`` without the
network: each repository is a local folder laid out as the hub lays it out (its README configs
block, its split names, parquet or JSON lines in its schema with its ClassLabel names), built
from ../shared/data and named by ``MTE_HUB_DIR``. Each builder names the page it copies (the
``page`` of the repository's record in mte.specs._hub). A repository that holds only a loading
script gives the message that says so and how to read it instead."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import datasets
import pytest
import yaml

from mte.errors import MteError
from mte.hub.datasets import ScriptOnlyError, load_hub_split
from mte.hub.repos import PARQUET_EXPORT, HubRepo
from mte.registry import TASKS
from mte.specs import _hub
from mte.steps.data import materialize
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.skipif(
    not SHARED_DATA.is_dir(), reason="needs ../shared/data (the real benchmark files)"
)

EXPORT = f"@{PARQUET_EXPORT.replace('/', '%2F')}"
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
    """google/xtreme at its pinned commit: a parquet folder per config, xtreme.py beside."""
    base = root / f"{repo.id}@{repo.revision}"
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
    base = root / f"{repo.id}@{repo.revision}"
    rows = [line.split("\t") for line in _lines(SHARED_DATA / "xnli/dev-de.tsv")]
    table = _pairs(rows, ("premise", "hypothesis"), ["entailment", "neutral", "contradiction"])
    _write(base / "de", {"validation": table})
    _readme(base, {"de": {"validation": "de/validation-*"}}, repo.page)


def build_xquad(root: Path, repo: HubRepo) -> None:
    base = root / repo.id
    _write(base / "xquad.de", {"validation": _qa(_squad_rows(SHARED_DATA / "xquad/xquad.de.json"))})
    _readme(base, {"xquad.de": {"validation": "xquad.de/validation-*"}}, repo.page)


def build_glue(root: Path, repo: HubRepo) -> None:
    base = root / repo.id
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
    base = root / repo.id
    splits = {
        s: datasets.Dataset.from_list(_jsonl(SHARED_DATA / f"xcopa/data/et/{f}.et.jsonl"))
        for s, f in (("validation", "val"), ("test", "test"))
    }
    _write(base / "et", splits)
    _readme(base, {"et": {s: f"et/{s}-*" for s in splits}}, repo.page)


def build_super_glue(root: Path, repo: HubRepo) -> None:
    """Converted, as its sibling repositories are (the pages do not show it): copa/ parquet."""
    base = root / repo.id
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
    base = root / repo.id
    (base / "data").mkdir(parents=True, exist_ok=True)
    source = SHARED_DATA / "belebele/Belebele/deu_Latn.jsonl"
    (base / "data/deu_Latn.jsonl").write_bytes(source.read_bytes())
    _readme(base, {"deu_Latn": {"test": "data/deu_Latn.jsonl"}}, repo.page)


def build_wikiann(root: Path, repo: HubRepo) -> None:
    base = root / repo.id
    splits = {
        s: _tagging(_column_sentences(SHARED_DATA / f"panx/{f}-qu.tsv", 0, 1), "ner_tags", NER)
        for s, f in (("validation", "dev"), ("test", "test"), ("train", "train"))
    }
    _write(base / "qu", splits)
    _readme(base, {"qu": {s: f"qu/{s}-*" for s in splits}}, repo.page)


def build_siqa(root: Path, repo: HubRepo) -> None:
    """main: card and social_i_qa.py; the export: default/validation/0000.parquet."""
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
    folder = root / f"{repo.id}@{repo.export_revision}/default/validation"
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
    """Unsettled: main as a script-only repository, so that the loader falls back to its
    export (plain_text), with SQuAD's columns; rows from XQuAD's English, SQuAD's dev set."""
    _script_only(root / repo.id, "squad.py", repo.page)
    rows = _squad_rows(SHARED_DATA / "xquad/xquad.en.json")
    _export(root, repo, "plain_text", "validation", _qa(rows))


def build_sib200(root: Path, repo: HubRepo) -> None:
    """Unsettled split names: a configs block whose evaluation split is named dev."""
    base = root / repo.id
    lines = _lines(SHARED_DATA / "sib200/eng_Latn/dev.tsv")[1:]
    rows = [line.split("\t") for line in lines]
    table = datasets.Dataset.from_dict(
        {
            "index_id": [int(r[0]) for r in rows],
            "category": [r[1] for r in rows],
            "text": [r[2] for r in rows],
        }
    )
    _write(base / "eng_Latn", {"dev": table})
    _readme(base, {"eng_Latn": {"dev": "eng_Latn/dev-*"}}, repo.page)


def build_pawsx(root: Path, repo: HubRepo) -> None:
    base = root / repo.id
    rows = [line.split("\t") for line in _lines(SHARED_DATA / "pawsx/dev-de.tsv")]
    _write(base / "de", {"validation": _pairs(rows, ("sentence1", "sentence2"), ["0", "1"])})
    _readme(base, {"de": {"validation": "de/validation-*"}}, repo.page)


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
    assert origin["revision"] == (repo.export_revision if exported else repo.revision)
    assert origin["local_copy"].startswith(str(hub_copies / repo_id))
    route = {"files": "parquet files", "script": "parquet export", "loads": "config"}
    if repo.status in route:
        assert origin["route"] == route[repo.status]


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


def test_an_unsettled_repository_falls_back_to_its_export_with_one_line(
    hub_copies: Path, monkeypatch, caplog
) -> None:
    monkeypatch.setenv("MTE_HUB_DIR", str(hub_copies))
    with caplog.at_level("WARNING", logger="mte.hub.datasets"):
        examples, origin = materialize(TASKS["squad"], {"source": "hub"}, "en", "dev")
    lines = [r.getMessage() for r in caplog.records if r.name == "mte.hub.datasets"]
    assert len(lines) == 1 and "squad.py" in lines[0] and PARQUET_EXPORT in lines[0]
    assert origin["route"] == "parquet export" and origin["fallback"] == lines[0]
    assert origin["data_dir"] == "plain_text"


def test_a_validation_split_named_dev_is_read_as_dev(hub_copies: Path, monkeypatch) -> None:
    monkeypatch.setenv("MTE_HUB_DIR", str(hub_copies))
    _, origin = materialize(TASKS["sib200"], {"source": "hub"}, "eng_Latn", "dev")
    assert origin["split"] == "dev"


def test_a_script_only_repository_names_itself_datasets_and_the_way_out(
    hub_copies: Path, monkeypatch
) -> None:
    monkeypatch.setenv("MTE_HUB_DIR", str(hub_copies))
    with pytest.raises(ScriptOnlyError) as caught:
        load_hub_split("eriktks/conll2003", "conll2003", "validation", revision="main")
    message = str(caught.value)
    assert "eriktks/conll2003 at main holds a loading script (conll2003.py)" in message
    assert f"datasets {datasets.__version__} no longer runs" in message
    assert PARQUET_EXPORT in message and "source: release" in message
    assert not isinstance(caught.value, type(None)) and "unreachable" not in message


def test_a_missing_copy_names_the_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("MTE_HUB_DIR", str(tmp_path))
    with pytest.raises(MteError, match=r"holds no copy of it \(looked for .*google/xquad"):
        materialize(TASKS["xquad"], {"source": "hub"}, "de", "test")
