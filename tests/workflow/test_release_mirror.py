"""source: release through a mirror on loopback, run by the real workflow: XQuAD and XCOPA
(with SuperGLUE's COPA.zip for English), and the releases config/xtreme-r.yaml reads (UD-POS's
LINDAT archives, Tatoeba, LAReQA), fetched by rule fetch_release from a mirror laid out as
``<host>/<path>``, built from ../shared/data, and read by the download jobs; every count equal
to an independent count of the files."""

from __future__ import annotations

import functools
import http.server
import json
import re
import tarfile
import threading
import zipfile
from pathlib import Path

import pytest

from mte.config.plan.keys import data_key
from mte.config.schema import with_schema_defaults
from tests.conftest import REPO, SHARED_DATA
from tests.workflow.snakemake_runner import job_counts, run_snakemake

pytestmark = [
    pytest.mark.workflow,
    pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="needs ../shared/data"),
]

XQUAD = ["en", "de", "es", "zh", "ru", "ar", "ro"]
XCOPA = ["et", "id", "zh"]
TATOEBA = {"de": "deu", "lt": "lit"}
LAREQA = ["de", "en"]
LINDAT = "lindat.mff.cuni.cz/repository/xmlui/bitstream/handle/11234"
# the treebanks in each archive: (folder, its CoNLL-U files in ../shared/data); English's
# training set is its dev set here (EWT's train is not among the shared files)
UD_25 = {"UD_German-GSD": ["ud/de_gsd-ud-test.conllu", "ud/de_gsd-ud-dev.conllu"],
         "UD_English-EWT": ["ud/en_ewt-ud-dev.conllu", "ud/en_ewt-ud-test.conllu"]}  # fmt: skip
UD_27 = {
    "UD_Lithuanian-HSE": ["ud-2.7/UD_Lithuanian-HSE/lt_hse-ud-test.conllu"],
    "UD_Lithuanian-ALKSNIS": ["ud-2.7/UD_Lithuanian-ALKSNIS/lt_alksnis-ud-test.conllu"],
}


def _treebanks(path: Path, version: str, treebanks: dict[str, list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as archive:
        for folder, files in treebanks.items():
            for name in files:
                member = f"ud-treebanks-v{version}/{folder}/{Path(name).name}"
                archive.add(SHARED_DATA / name, member)
        if version == "2.5":  # English's training set
            archive.add(
                SHARED_DATA / "ud/en_ewt-ud-dev.conllu",
                "ud-treebanks-v2.5/UD_English-EWT/en_ewt-ud-train.conllu",
            )


def _mirror(root: Path) -> None:
    """The files as https://<host>/<path> names them, under root/<host>/<path>."""
    xquad = root / "raw.githubusercontent.com/deepmind/xquad/master"
    xquad.mkdir(parents=True)
    for lang in XQUAD:
        (xquad / f"xquad.{lang}.json").write_bytes(
            (SHARED_DATA / f"xquad/xquad.{lang}.json").read_bytes()
        )
    for lang in XCOPA:
        folder = root / f"raw.githubusercontent.com/cambridgeltl/xcopa/master/data/{lang}"
        folder.mkdir(parents=True)
        for split in ("val", "test"):
            name = f"{split}.{lang}.jsonl"
            (folder / name).write_bytes((SHARED_DATA / f"xcopa/data/{lang}/{name}").read_bytes())
    copa = root / "dl.fbaipublicfiles.com/glue/superglue/data/v2"
    copa.mkdir(parents=True)
    with zipfile.ZipFile(copa / "COPA.zip", "w") as archive:
        for split in ("train", "val", "test"):
            archive.write(SHARED_DATA / f"copa/COPA/{split}.jsonl", f"COPA/{split}.jsonl")
    _treebanks(root / LINDAT / "1-3105/ud-treebanks-v2.5.tgz", "2.5", UD_25)
    _treebanks(root / LINDAT / "1-3424/ud-treebanks-v2.7.tgz", "2.7", UD_27)
    laser = root / "raw.githubusercontent.com/facebookresearch/LASER/main/data/tatoeba/v1"
    laser.mkdir(parents=True)
    for code in TATOEBA.values():
        for side in (code, "eng"):
            name = f"tatoeba.{code}-eng.{side}"
            (laser / name).write_bytes((SHARED_DATA / f"tatoeba/{name}").read_bytes())
    lareqa = root / "raw.githubusercontent.com/google-research-datasets/lareqa/master/xquad-r"
    lareqa.mkdir(parents=True)
    for lang in LAREQA:
        name = f"{lang}.json"
        (lareqa / name).write_bytes((SHARED_DATA / f"lareqa/xquad-r/{name}").read_bytes())


def _sentences(path: Path) -> int:
    """CoNLL-U sentences: blocks of lines with at least one word line."""
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    return sum(1 for b in blocks if any(line[:1].isdigit() for line in b.splitlines()))


def _questions(path: Path) -> int:
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    return sum(len(p["qas"]) for article in data for p in article["paragraphs"])


def _lines(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


@pytest.fixture(scope="module")
def mirrored_run(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("mirror")
    _mirror(root)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    served: list[str] = []

    class Logged(handler.func):  # type: ignore[name-defined]
        def log_message(self, fmt, *args) -> None:
            served.append(self.path)

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Logged, directory=str(root))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    workdir = tmp_path_factory.mktemp("release-run")
    # SQuAD (XQuAD's training set) from a folder: only the release sources are under test
    squad = workdir / "squad"
    squad.mkdir()
    for name in ("train-v1.1.json", "dev-v1.1.json"):
        (squad / name).write_bytes((SHARED_DATA / "xquad/xquad.en.json").read_bytes())
    config = {
        "models": [{"name": "m", "source": "hub", "id": "FacebookAI/xlm-roberta-base"}],
        "tasks": {
            "squad": {"source": "files", "path": str(squad)},
            "xquad": {"source": "release", "languages": XQUAD},
            "xcopa": {"source": "release", "languages": XCOPA},
            "udpos": {"source": "release", "languages": ["de", "lt"]},
            "tatoeba": {"source": "release", "languages": list(TATOEBA)},
            "lareqa": {"source": "release", "languages": LAREQA},
        },
        "release_mirror": f"http://127.0.0.1:{httpd.server_address[1]}",
        "seeds": [1],
    }
    done = run_snakemake(workdir, config, "--until", "download")
    httpd.shutdown()
    httpd.server_close()
    return workdir, config, done, served


def test_the_mirror_serves_every_file_once_and_the_counts_match(mirrored_run) -> None:
    workdir, config, done, served = mirrored_run
    assert done.returncode == 0, done.stderr[-3000:]
    counts = job_counts(done.stdout + done.stderr)
    assert counts["fetch_release"] == 5
    files = len(XQUAD) + 2 * len(XCOPA) + 1 + 2 + 2 * len(TATOEBA) + len(LAREQA)
    assert len(served) == len(set(served)) == files
    filled = with_schema_defaults(config, REPO / "config" / "schema.yaml")
    for lang in XQUAD:
        folder = workdir / "resources/data/xquad" / data_key("xquad", filled) / lang
        meta = json.loads((folder / "test.meta.json").read_text())
        expected = _questions(SHARED_DATA / f"xquad/xquad.{lang}.json")
        assert meta["count"] == _lines(folder / "test.jsonl") == expected, lang
        assert meta["source"] == "release"
        [release_file] = meta["release"]
        assert release_file["url"].endswith(f"deepmind/xquad/master/xquad.{lang}.json")
        assert meta["files"][0]["sha256"] == release_file["sha256"]  # the pinned genuine sum
    key = data_key("xcopa", filled)
    for lang in XCOPA:
        meta = json.loads(
            (workdir / f"resources/data/xcopa/{key}/{lang}/test.meta.json").read_text()
        )
        assert meta["count"] == _lines(SHARED_DATA / f"xcopa/data/{lang}/test.{lang}.jsonl")
    for split, name in (("train", "train"), ("dev", "val")):
        meta = json.loads(
            (workdir / f"resources/data/xcopa/{key}/en/{split}.meta.json").read_text()
        )
        assert meta["count"] == _lines(SHARED_DATA / f"copa/COPA/{name}.jsonl")
    key = data_key("udpos", filled)
    expected = {
        "de": _sentences(SHARED_DATA / "ud/de_gsd-ud-test.conllu"),
        # XTREME merges every treebank of a language: Lithuanian's two, from UD v2.7
        "lt": sum(_sentences(SHARED_DATA / name) for name in sum(UD_27.values(), [])),
    }
    for lang, count in expected.items():
        meta = json.loads(
            (workdir / f"resources/data/udpos/{key}/{lang}/test.meta.json").read_text()
        )
        assert meta["count"] == count, lang
    key = data_key("tatoeba", filled)
    for lang, code in TATOEBA.items():
        meta = json.loads(
            (workdir / f"resources/data/tatoeba/{key}/{lang}/test.meta.json").read_text()
        )
        assert meta["count"] == _lines(SHARED_DATA / f"tatoeba/tatoeba.{code}-eng.{code}")
    key = data_key("lareqa", filled)
    for lang in LAREQA:
        meta = json.loads(
            (workdir / f"resources/data/lareqa/{key}/{lang}/test.meta.json").read_text()
        )
        assert meta["count"] == _questions(SHARED_DATA / f"lareqa/xquad-r/{lang}.json")
    # only the asked languages' treebanks were extracted
    extracted = sorted(p.name for p in (workdir / "resources/releases/udpos").rglob("*.conllu"))
    archived = [Path(n).name for n in sum([*UD_25.values(), *UD_27.values()], [])]
    assert extracted == sorted([*archived, "en_ewt-ud-train.conllu"])
    # COPA.zip could not be pinned: its checksum was recorded at this first download
    recorded = (workdir / "resources/releases/xcopa/.recorded.sha256").read_text()
    assert recorded.endswith("  COPA.zip\n")


def test_a_second_run_fetches_nothing(mirrored_run) -> None:
    workdir, config, done, _ = mirrored_run
    again = run_snakemake(workdir, config, "-n", "--until", "download")
    assert again.returncode == 0, again.stderr[-2000:]
    # nothing left to run up to the downloads: no fetch, no download job
    assert re.search(r"^total\s+0$", again.stdout + again.stderr, re.M)
