"""Machine translation of sentence(-pair) examples with a transformers sequence-to-sequence model,
for the translate-train / translate-test settings and XTREME's pseudo test sets."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

# NLLB-200's codes of XTREME's 40 languages and CoNLL's (ISO 639-1 -> NLLB)
NLLB_CODES = {
    "af": "afr_Latn", "ar": "arb_Arab", "bg": "bul_Cyrl", "bn": "ben_Beng", "de": "deu_Latn",
    "el": "ell_Grek", "en": "eng_Latn", "es": "spa_Latn", "et": "est_Latn", "eu": "eus_Latn",
    "fa": "pes_Arab", "fi": "fin_Latn", "fr": "fra_Latn", "he": "heb_Hebr", "hi": "hin_Deva",
    "hu": "hun_Latn", "id": "ind_Latn", "it": "ita_Latn", "ja": "jpn_Jpan", "jv": "jav_Latn",
    "ka": "kat_Geor", "kk": "kaz_Cyrl", "ko": "kor_Hang", "ml": "mal_Mlym", "mr": "mar_Deva",
    "ms": "zsm_Latn", "my": "mya_Mymr", "nl": "nld_Latn", "pt": "por_Latn", "ru": "rus_Cyrl",
    "sw": "swh_Latn", "ta": "tam_Taml", "te": "tel_Telu", "th": "tha_Thai", "tl": "tgl_Latn",
    "tr": "tur_Latn", "ur": "urd_Arab", "vi": "vie_Latn", "yo": "yor_Latn", "zh": "zho_Hans",
}  # fmt: skip


def nllb_code(language: str) -> str | None:
    """NLLB's code of a language: an ISO 639-1 code through NLLB_CODES; a code that is already
    FLORES-200's (SIB-200's ``deu_Latn``) is its own."""
    from mte.tasks.languages import FLORES200_SIB_CODES

    if language in FLORES200_SIB_CODES:
        return language
    return NLLB_CODES.get(language)


# the text fields of the families a model can translate
TEXT_FIELDS = ("text_a", "text_b", "text")


def translator_id(model: str, source: str, target: str) -> str:
    """The model to load for one direction: a ``{src}``/``{tgt}`` template (MarianMT's one model
    per pair) filled in, else the model itself (NLLB, M2M-100: one model, codes per job)."""
    return model.format(src=source, tgt=target) if "{src}" in model else model


def translator_folder(name: str, revision: str | None = None) -> str:
    """The folder name (under resources/translation-models/) of a hub translation model:
    ``facebook/nllb-200-distilled-600M`` -> ``facebook--nllb-200-distilled-600M``, with
    ``@revision`` when one is pinned (the hub allows no "--" in a repository name)."""
    return name.replace("/", "--") + (f"@{revision}" if revision else "")


def translator_on_hub(folder: str) -> dict[str, str | None]:
    """The hub id and revision a :func:`translator_folder` name stands for."""
    name, _, revision = folder.partition("@")
    return {"id": name.replace("--", "/"), "revision": revision or None}


def language_codes(tokenizer: Any, source: str, target: str) -> tuple[str, str] | None:
    """The tokenizer's codes for the two languages, or None for a model of one direction.

    NLLB spells languages as ``deu_Latn``; M2M-100 as ``__de__`` tokens with plain codes."""
    name = type(tokenizer).__name__
    if "Nllb" in name:
        codes = nllb_code(source), nllb_code(target)
        for language, code in zip((source, target), codes, strict=True):
            if code is None:
                raise ValueError(f"no NLLB code known for language '{language}'")
        return codes
    if "M2M100" in name:
        return source, target
    return None


def translate_texts(
    texts: list[str],
    model_name: str,
    source: str,
    target: str,
    *,
    revision: str | None,
    batch_size: int,
    num_beams: int,
    max_length: int,
    model_dir: str | None,
    device: str,
) -> tuple[list[str], dict[str, Any]]:
    """Translate ``texts`` from ``source`` into ``target`` (ISO 639-1 codes) with beam search;
    ``model_dir``: the model's folder as fetch_translation_model wrote it (else the model is
    loaded by its name: a local folder, or the hub); ``device``: the config's ``device`` (the
    GPU the translate job was given, else the CPU).

    Each distinct text is translated once (XNLI repeats every premise three times), longest
    first so that batches pad little; beam search is deterministic, so a rerun gives the same
    output. Returns the translations in input order and what produced them.
    """
    import torch
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    from mte.modelling.device import describe, resolve_device, to_device
    from mte.runtime.logs import progress_bar

    name = translator_id(model_name, source, target)
    where: dict[str, Any] = {"pretrained_model_name_or_path": name, "revision": revision}
    if model_dir is not None:
        from mte.hub.models import MODEL_RECORD
        from mte.io import read_json

        # the commit the fetch resolved the revision to, so that a branch name still pins it
        revision = read_json(Path(model_dir) / MODEL_RECORD)["commit"]
        where = {"pretrained_model_name_or_path": model_dir}
    tokenizer = AutoTokenizer.from_pretrained(**where)
    on = resolve_device(device)
    model = AutoModelForSeq2SeqLM.from_pretrained(**where).eval().to(on)
    log.info("translating with %s on %s", name, describe(on, None))
    codes = language_codes(tokenizer, source, target)
    generate_options: dict[str, Any] = {"num_beams": num_beams, "max_length": max_length}
    if codes:
        tokenizer.src_lang = codes[0]
        token = codes[1] if "Nllb" in type(tokenizer).__name__ else tokenizer.get_lang_token(target)
        generate_options["forced_bos_token_id"] = tokenizer.convert_tokens_to_ids(token)
    distinct = sorted(set(texts), key=lambda text: (-len(text), text))
    translated: dict[str, str] = {}
    batches = [distinct[i : i + batch_size] for i in range(0, len(distinct), batch_size)]
    with torch.inference_mode():
        for batch in progress_bar(iterable=batches, desc=f"translate {source}->{target}"):
            inputs = tokenizer(
                batch, return_tensors="pt", padding=True, truncation=True, max_length=max_length
            )
            outputs = model.generate(**to_device(inputs, on), **generate_options)
            for text, output in zip(
                batch, tokenizer.batch_decode(outputs, skip_special_tokens=True), strict=True
            ):
                translated[text] = output.strip()
    origin = {
        "translation_model": name,
        "revision": revision or getattr(model.config, "_commit_hash", None),
        "source_language": source,
        "target_language": target,
        "num_beams": num_beams,
        "max_length": max_length,
    }
    return [translated[text] for text in texts], origin


def translate_examples(
    examples: list[dict[str, Any]],
    options: dict[str, Any],
    source: str,
    target: str,
    model_dir: str | None,
    device: str,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The examples with every text field translated; ids and labels are kept, so the
    translation is scored (and paired) example by example with the original."""
    fields = [f for f in TEXT_FIELDS if any(isinstance(e.get(f), str) for e in examples)]
    texts = [e[f] for e in examples for f in fields if isinstance(e.get(f), str)]
    translated, origin = translate_texts(
        texts,
        options["model"],
        source,
        target,
        revision=options.get("revision"),
        # the schema's defaults (translations: batch_size, num_beams, max_length) are filled
        batch_size=options["batch_size"],
        num_beams=options["num_beams"],
        max_length=options["max_length"],
        model_dir=model_dir,
        device=device,
    )
    outputs, position = [], 0
    for example in examples:
        copy = dict(example)
        for field in fields:
            if isinstance(example.get(field), str):
                copy[field] = translated[position]
                position += 1
        outputs.append(copy)
    return outputs, origin


def translate_file(
    original_path: str, options: dict[str, Any], languages: tuple[str, str], **where: Any
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Translate a canonical JSON Lines file from ``languages[0]`` into ``languages[1]``;
    ``where``: the translation model's ``model_dir`` and the ``device``, as for
    :func:`translate_examples`. The provenance names the original's checksum."""
    from mte.io import read_jsonl, sha256_file

    source, target = languages
    examples, origin = translate_examples(
        read_jsonl(original_path), options, source, target, **where
    )
    origin.update(
        source="model", original=str(original_path), original_sha256=sha256_file(original_path)
    )
    return examples, origin
