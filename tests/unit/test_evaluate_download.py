"""tools/parity/evaluate_download.py: the label folder evaluate.py reads, written straight from
an XTREME download/ folder by the formats' definitions (worked out by hand below), for the
languages a submission holds and no others."""

from __future__ import annotations

from pathlib import Path

from tools.parity import evaluate_download

# XTREME's processed PAN-X file: token TAB tag, a blank line between sentences
PANX_DE = "Berlin\tB-LOC\nist\tO\n\nAngela\tB-PER\nMerkel\tI-PER\nsprach\tO\n"


def test_labels_are_the_download_files_own_gold(tmp_path: Path) -> None:
    download, submission = tmp_path / "download", tmp_path / "submission"
    (download / "panx").mkdir(parents=True)
    (download / "panx" / "test-de.tsv").write_text(PANX_DE, encoding="utf-8")
    # a language of the folder the submission lacks: no label file is written for it
    (download / "panx" / "test-fr.tsv").write_text("Paris\tB-LOC\n", encoding="utf-8")
    (download / "tatoeba").mkdir()
    # three aligned English lines: foreign line i's gold is English line i
    english = "Hello.\nThank you.\nGood night.\n"
    (download / "tatoeba" / "tatoeba.deu-eng.eng").write_text(english, encoding="utf-8")
    for folder in ("panx", "tatoeba"):
        (submission / folder).mkdir(parents=True)
        (submission / folder / "test-de.tsv").write_text("", encoding="utf-8")

    languages = evaluate_download.write_labels(download, submission, tmp_path / "labels")

    assert languages == {"panx": ["de"], "tatoeba": ["de"]}
    panx = (tmp_path / "labels" / "panx" / "test-de.tsv").read_text(encoding="utf-8")
    assert panx.splitlines() == ["B-LOC", "O", "", "B-PER", "I-PER", "O"]
    tatoeba = (tmp_path / "labels" / "tatoeba" / "test-de.tsv").read_text(encoding="utf-8")
    assert tatoeba.splitlines() == ["0", "1", "2"]
    assert not (tmp_path / "labels" / "panx" / "test-fr.tsv").exists()
