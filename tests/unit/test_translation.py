"""Translation with a sequence-to-sequence model: ids and labels kept, each text translated once,
language codes for NLLB and M2M-100, MarianMT's one model per pair."""

from __future__ import annotations

from pathlib import Path

import pytest

from mte.modelling.translation import language_codes, translate_examples, translator_id


@pytest.fixture(scope="module")
def tiny_translator(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 1-layer BART with the tiny model's tokenizer: translates into nonsense, which is
    all the plumbing needs."""
    import torch
    from transformers import AutoTokenizer, BartConfig, BartForConditionalGeneration

    out = tmp_path_factory.mktemp("translator")
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    tokenizer.save_pretrained(out)
    torch.manual_seed(0)
    config = BartConfig(
        vocab_size=len(tokenizer),
        d_model=16,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=32,
        decoder_ffn_dim=32,
        max_position_embeddings=64,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id or tokenizer.cls_token_id,
        eos_token_id=tokenizer.eos_token_id or tokenizer.sep_token_id,
        decoder_start_token_id=tokenizer.eos_token_id or tokenizer.sep_token_id,
    )
    BartForConditionalGeneration(config).save_pretrained(out)
    return out


def test_examples_keep_ids_and_labels(tiny_translator: Path) -> None:
    examples = [
        {"id": "1", "text_a": "A man plays.", "text_b": "He is outside.", "label": "neutral"},
        {"id": "2", "text_a": "A man plays.", "text_b": "Nobody plays.", "label": "contradiction"},
    ]
    options = {"model": str(tiny_translator), "num_beams": 2, "max_length": 12, "batch_size": 2}
    translated, origin = translate_examples(examples, options, "en", "de", None, "cpu")
    assert [(e["id"], e["label"]) for e in translated] == [
        ("1", "neutral"),
        ("2", "contradiction"),
    ]
    assert all(isinstance(e[f], str) for e in translated for f in ("text_a", "text_b"))
    # the repeated premise is translated once, so both copies read the same
    assert translated[0]["text_a"] == translated[1]["text_a"]
    assert origin["translation_model"] == str(tiny_translator)
    assert (origin["source_language"], origin["target_language"]) == ("en", "de")
    again, _ = translate_examples(examples, options, "en", "de", None, "cpu")
    assert again == translated


def test_language_codes_per_model_family() -> None:
    nllb = type("NllbTokenizerFast", (), {})()
    m2m = type("M2M100Tokenizer", (), {})()
    marian = type("MarianTokenizer", (), {})()
    assert language_codes(nllb, "en", "sw") == ("eng_Latn", "swh_Latn")
    assert language_codes(m2m, "en", "sw") == ("en", "sw")
    assert language_codes(marian, "en", "sw") is None
    with pytest.raises(ValueError, match="no NLLB code known for language 'xx'"):
        language_codes(nllb, "en", "xx")
    assert translator_id("Helsinki-NLP/opus-mt-{src}-{tgt}", "en", "de") == (
        "Helsinki-NLP/opus-mt-en-de"
    )
    assert translator_id("facebook/nllb-200-distilled-600M", "en", "de").startswith("facebook")


def test_every_language_a_model_can_translate_has_an_nllb_code() -> None:
    """Every language of a task whose family a translation model can translate (sentence
    classification: XNLI, PAWS-X, GLUE, SIB-200) has an NLLB code; FLORES-200 codes are their
    own."""
    from mte.modelling.translation import nllb_code
    from mte.registry import TASKS, family_of

    languages = {
        lang
        for task in TASKS.values()
        if family_of(task).model_translatable
        for lang in task.languages
    }
    assert "deu_Latn" in languages and "de" in languages
    assert sorted(lang for lang in languages if nllb_code(lang) is None) == []
    assert nllb_code("de") == "deu_Latn" == nllb_code("deu_Latn")
    assert nllb_code("xx") is None


def test_a_fetched_hub_model_is_loaded_from_its_folder_and_keeps_its_name_and_commit(
    tiny_translator: Path, tmp_path: Path
) -> None:
    """What fetch_translation_model wrote (the files and mte_model.json) is all a translate job
    needs: no hub call; the provenance names the hub id and the commit, not the folder."""
    import json
    import shutil

    from mte.modelling.translation import translator_folder

    folder = tmp_path / translator_folder("org/tiny-mt")
    shutil.copytree(tiny_translator, folder)
    record = {"source": "hub", "id": "org/tiny-mt", "revision": "main", "commit": "0123abcd"}
    (folder / "mte_model.json").write_text(json.dumps(record))
    examples = [{"id": "1", "text_a": "A man plays.", "label": "neutral"}]
    options = {"model": "org/tiny-mt", "num_beams": 1, "max_length": 8, "batch_size": 16}
    _, origin = translate_examples(examples, options, "en", "de", str(folder), "cpu")
    assert origin["translation_model"] == "org/tiny-mt"
    assert origin["revision"] == "0123abcd"


@pytest.mark.parametrize(
    ("name", "revision", "folder"),
    [
        ("facebook/nllb-200-distilled-600M", None, "facebook--nllb-200-distilled-600M"),
        ("Helsinki-NLP/opus-mt-en-de", "6dd3e9a", "Helsinki-NLP--opus-mt-en-de@6dd3e9a"),
    ],
)
def test_translation_model_folders_name_the_hub_id_and_revision(
    name: str, revision: str | None, folder: str
) -> None:
    from mte.modelling.translation import translator_folder, translator_on_hub

    assert translator_folder(name, revision) == folder
    assert translator_on_hub(folder) == {"id": name, "revision": revision}
