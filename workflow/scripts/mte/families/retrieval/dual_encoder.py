"""The dual encoder that XTREME-R fine-tunes for LAReQA (``scripts/train_lareqa.sh``,
``third_party/run_retrieval_qa.py`` with ``bert.py``'s ``BertForRetrieval``) and Mewsli-X
(``train_mewslix.sh``, ``run_retrieval_el.py``: mentions and entity descriptions, the same
model): one encoder for
both towers, a question and its answer (the answer's sentence followed by its paragraph) each
read as the pooler output over the first token, L2-normalised; the logits of a batch are the
questions' dot products with every answer of the batch times a learned scale (100 at the
start), and the loss is the softmax cross-entropy of each question against its own answer
(the batch's other answers are its negatives).

Training pairs come from SQuAD v1.1 JSON as run_retrieval_qa.py's processor
(``processors/lareqa.py``) makes them: the first answer of each question; its sentence is the
one whose span, as :mod:`mte.families.retrieval.sentences` breaks the paragraph, holds the
answer's start; a question whose start lies in no sentence, or whose answer text is not in the
paragraph's whitespace words at its offsets, is left out.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import torch

from mte.errors import InputError, MteError
from mte.hub.decoders import model_config
from mte.io import read_json, write_json
from mte.modelling.architectures import ENCODER, dual_encoder_pooling, encoder_class
from mte.modelling.batching import pad_rows
from mte.modelling.embeddings import pool_hidden
from mte.modelling.heads import Head
from mte.text import whitespace_words

log = logging.getLogger(__name__)

# how a fine-tuned dual encoder embeds: beside its weights, read by the retrieval step instead
# of the pretrained model's record
EMBEDDING_RECORD = "embedding.json"
# run_retrieval_qa.py's BertForRetrieval: torch.nn.init.constant_(self.logit_scale, 100.0)
INITIAL_LOGIT_SCALE = 100.0


def read_squad_pairs(path: str | Path, language: str = "en") -> list[dict[str, Any]]:
    """Question-answer pairs of a SQuAD v1.1 file: ``id``, ``question``, ``sentence`` (the
    answer's), ``context`` (its paragraph) and ``language``, in the file's order."""
    path = Path(path)
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("data"), list):
        raise InputError(path, 1, "not SQuAD JSON: no top-level 'data' list")
    paragraphs = [p for article in data["data"] for p in article.get("paragraphs", [])]
    try:
        return _squad_pairs(paragraphs, language, path.name)
    except ValueError as error:
        raise InputError(path, 1, str(error)) from None


def squad_pairs_from_hub(dataset: Any, name: str, language: str = "en") -> list[dict[str, Any]]:
    """The pairs of a hub split of the SQuAD schema (rajpurkar/squad: ``id, context, question,
    answers{text, answer_start}``), as :func:`read_squad_pairs` makes them of the file; the
    rows of one paragraph follow each other, as in the file."""
    paragraphs: list[dict[str, Any]] = []
    for row in dataset:
        answers = row["answers"]
        qa = {
            "id": row["id"],
            "question": row["question"],
            "answers": [
                {"text": text, "answer_start": start}
                for text, start in zip(answers["text"], answers["answer_start"], strict=True)
            ],
        }
        if paragraphs and paragraphs[-1]["context"] == row["context"]:
            paragraphs[-1]["qas"].append(qa)
        else:
            paragraphs.append({"context": row["context"], "qas": [qa]})
    try:
        return _squad_pairs(paragraphs, language, name)
    except ValueError as error:
        raise MteError(f"{name}: {error}") from None


def _squad_pairs(paragraphs: list[dict[str, Any]], language: str, name: str) -> list[dict]:
    """The pairs of SQuAD paragraphs; ValueError for a paragraph or question it cannot read."""
    from mte.families.retrieval.sentences import sentence_breaks

    pairs: list[dict[str, Any]] = []
    skipped = {"no sentence": 0, "answer not at its offset": 0}
    for number, paragraph in enumerate(paragraphs, 1):
        context = paragraph.get("context")
        if not isinstance(context, str):
            raise ValueError(f"paragraph {number} has no context")
        spans = list(sentence_breaks(context))
        words, word_of_char = whitespace_words(context)
        for qa in paragraph.get("qas", []):
            answers = qa.get("answers") or []
            if not answers:
                raise ValueError(f"question {qa.get('id')!r} has no answer")
            text, start = answers[0]["text"], int(answers[0]["answer_start"])
            if not (text and 0 <= start and start + len(text) <= len(context)):
                where = f"question {qa.get('id')!r}"
                raise ValueError(f"{where}: its answer lies outside its paragraph")
            sentence = next((context[a:b] for a, b in spans if a <= start < b), "")
            if not sentence:
                skipped["no sentence"] += 1
                continue
            first, last = word_of_char[start], word_of_char[start + len(text) - 1]
            if " ".join(text.split()) not in " ".join(words[first : last + 1]):
                skipped["answer not at its offset"] += 1
                continue
            pairs.append(
                {
                    "id": str(qa["id"]),
                    "question": qa["question"],
                    "sentence": sentence,
                    "context": context,
                    "language": language,
                }
            )
    if any(skipped.values()):
        log.info(
            "%s: %d questions kept, %d left out (%s), as run_retrieval_qa.py leaves them out",
            name,
            len(pairs),
            sum(skipped.values()),
            ", ".join(f"{n} {why}" for why, n in skipped.items() if n),
        )
    return pairs


def answer_text(example: dict[str, Any]) -> str:
    """What the answer tower reads: an entity's description as its reader made it
    (Mewsli-X's pairs), else the sentence, then its paragraph, as one string without line
    breaks (run_retrieval_qa.py's processor)."""
    if "answer" in example:
        return example["answer"]
    return (example["sentence"] + example["context"]).replace("\n", "")


def tokenize_pairs(
    tokenizer: Any, examples: list[dict[str, Any]], header: dict[str, Any], options: dict
) -> dict[str, Any]:
    """Features of question-answer pairs: ``input_ids`` (the questions, cut at
    ``max_query_length``) and ``answer_input_ids`` (the answers, cut at ``max_length``), each
    with the model's special tokens, unpadded."""
    questions = tokenizer(
        [e["question"] for e in examples], truncation=True, max_length=options["max_query_length"]
    )["input_ids"]
    answers = tokenizer(
        [answer_text(e) for e in examples], truncation=True, max_length=options["max_length"]
    )["input_ids"]
    return {
        **header,
        "max_query_length": options["max_query_length"],
        "input_ids": questions,
        "answer_input_ids": answers,
        "truncated": sum(len(ids) >= options["max_length"] for ids in answers),
    }


@dataclass
class DualEncoderOutput:
    """A batch's in-batch softmax loss and its questions' and answers' unit vectors."""

    loss: torch.Tensor
    questions: torch.Tensor
    answers: torch.Tensor


class DualEncoderModel(torch.nn.Module):
    """One pretrained encoder (a transformers AutoModel with its pooler) for both towers and
    the learned logit scale; saved as the encoder's own folder, which the retrieval step loads
    as it loads a pretrained model, with :data:`EMBEDDING_RECORD` beside it."""

    base_model_prefix = "encoder"

    def __init__(self, encoder: Any) -> None:
        super().__init__()
        self.encoder = encoder
        self.config = encoder.config
        self.logit_scale = torch.nn.Parameter(torch.tensor([INITIAL_LOGIT_SCALE]))

    @classmethod
    def from_pretrained(
        cls, model_dir: str | Path, output_loading_info: bool = False, **kwargs: Any
    ) -> Any:
        # the encoder alone (an encoder-decoder's: mT5's MT5EncoderModel), with its pooler
        # where its class has one (dense and tanh over the first token); a model without one
        # is read at its first token, mean-pooled or at its last token (mte.modelling.
        # architectures)
        if dual_encoder_pooling(model_config(model_dir)) == "pooler":
            kwargs["add_pooling_layer"] = True
        encoder, info = encoder_class(model_dir).from_pretrained(
            model_dir, output_loading_info=True, **kwargs
        )
        model = cls(encoder)
        if not output_loading_info:
            return model
        # named as this module names them, so that a pooler the checkpoint lacks (e5 has
        # none) is reported as the new head it is
        missing = [f"encoder.{key}" for key in info.get("missing_keys") or []]
        return model, {**info, "missing_keys": missing}

    def get_input_embeddings(self) -> Any:
        return self.encoder.get_input_embeddings()

    @property
    def pooling(self) -> str:
        """``pooler`` (an encoder's pooler), ``cls`` (the first token of an encoder without
        one), ``mean`` (an encoder-decoder's encoder) or ``last`` (a decoder's last real
        token): mte.modelling.architectures.dual_encoder_pooling."""
        return dual_encoder_pooling(self.config.to_dict())

    def embed(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Unit vectors of the texts, pooled as :attr:`pooling` says."""
        output = self.encoder(input_ids=input_ids, attention_mask=attention_mask)
        pooling = self.pooling
        if pooling == "pooler":
            pooled = output.pooler_output
        else:
            pooled = pool_hidden(output.last_hidden_state, attention_mask, pooling)
        return torch.nn.functional.normalize(pooled.float(), p=2, dim=1)

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        answer_input_ids: torch.Tensor,
        answer_attention_mask: torch.Tensor,
    ) -> DualEncoderOutput:
        questions = self.embed(input_ids, attention_mask)
        answers = self.embed(answer_input_ids, answer_attention_mask)
        logits = questions @ answers.T * self.logit_scale
        targets = torch.arange(len(questions), device=logits.device)
        loss = torch.nn.functional.cross_entropy(logits, targets)
        return DualEncoderOutput(loss=loss, questions=questions, answers=answers)

    def save_pretrained(self, out_dir: str | Path) -> None:
        out_dir = Path(out_dir)
        self.encoder.save_pretrained(out_dir)
        write_json(
            out_dir / EMBEDDING_RECORD,
            {
                "pooling": self.pooling,
                "prefix": "",
                "layer": None,
                "logit_scale": float(self.logit_scale.detach()),
            },
        )


class DualEncoderHead(Head):
    """Question-answer pairs, each batch its own negatives. The dev score is the share of dev
    questions whose own answer is the nearest of every dev answer (run_retrieval_qa.py
    reports only the dev loss; its final model is kept, as ``model_selection: last`` keeps
    it)."""

    output_fields: ClassVar[tuple[str, ...]] = ("questions", "answers")
    # what it asks of a model: its encoder (mte.modelling.architectures), not a transformers head
    auto_class: ClassVar[str] = ENCODER

    def model_class(self, model_dir: str | Path) -> Any:
        return DualEncoderModel

    def collate(
        self, features: dict[str, Any], indices: Sequence[int], pad_id: int
    ) -> dict[str, torch.Tensor]:
        questions = pad_rows([features["input_ids"][i] for i in indices], pad_id)
        answers = pad_rows([features["answer_input_ids"][i] for i in indices], pad_id)
        return {
            "input_ids": questions[0],
            "attention_mask": questions[1],
            "answer_input_ids": answers[0],
            "answer_attention_mask": answers[1],
        }

    def batch_targets(self, features: dict[str, Any], indices: Sequence[int]) -> dict:
        return {}  # each question's own answer: its place in the batch

    def gold(self, features: dict[str, Any]) -> list:
        return list(range(len(features["input_ids"])))

    def start(self, features: dict[str, Any]) -> dict[str, list]:
        count = len(features["input_ids"])
        return {"questions": [None] * count, "answers": [None] * count}

    def read(
        self,
        features: dict[str, Any],
        indices: list[int],
        outputs: dict[str, torch.Tensor],
        collected: dict[str, list],
    ) -> None:
        for name in ("questions", "answers"):
            for index, vector in zip(indices, outputs[name], strict=True):
                collected[name][index] = vector

    def finish(self, features: dict[str, Any], collected: dict[str, list]) -> list:
        """Each dev question's nearest dev answer (an index into the features)."""
        questions = torch.stack(collected["questions"])
        answers = torch.stack(collected["answers"])
        return (questions @ answers.T).argmax(dim=1).tolist()

    def records(self, features: dict[str, Any], predicted: list) -> list[dict[str, Any]]:
        return [
            {"id": example_id, "nearest": features["ids"][found]}
            for example_id, found in zip(features["ids"], predicted, strict=True)
        ]

    def dev_score(self, features: dict[str, Any], predicted: list) -> float:
        # two questions on one sentence share an answer text: either copy is the answer
        texts = features["answer_input_ids"]
        hits = [texts[found] == texts[i] for i, found in enumerate(predicted)]
        return sum(hits) / len(hits)
