"""Task heads for model types transformers gives none: every decoder lacks a
``*ForMultipleChoice`` class, and some (Gemma's) a ``*ForQuestionAnswering`` one.

- :class:`ChoiceScorer`: one score per choice from the model's one-label sequence classifier
  (for a decoder, transformers' head on the last token that is not padding), the choices' scores
  a softmax's logits, as ``*ForMultipleChoice`` scores them with a linear layer on one pooled
  vector per choice.
- :class:`SpanScorer`: the base model and a linear layer to a start and an end logit per token,
  as ``*ForQuestionAnswering`` is built (``qa_outputs``), with transformers' own loss.

Both save the folder a prediction loads back with :func:`head_model_class`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from mte.hub.decoders import model_type_of

# the Auto classes that fall back to a head of this module, with transformers' mapping of the
# model types each knows
FALLBACKS = {
    "AutoModelForMultipleChoice": "MODEL_FOR_MULTIPLE_CHOICE_MAPPING_NAMES",
    "AutoModelForQuestionAnswering": "MODEL_FOR_QUESTION_ANSWERING_MAPPING_NAMES",
}
SPAN_HEAD_FILE = "qa_outputs.safetensors"


def head_model_class(auto_class: str, model_dir: str | Path) -> Any:
    """The class whose ``from_pretrained`` loads the model of ``model_dir`` under the head of
    ``auto_class``: transformers' Auto class where it knows the model type, else this module's
    stand-in (see the module)."""
    import transformers
    from transformers.models.auto import modeling_auto

    if auto_class in FALLBACKS:
        known = getattr(modeling_auto, FALLBACKS[auto_class])
        if model_type_of(model_dir) not in known:
            return ChoiceScorer if auto_class == "AutoModelForMultipleChoice" else SpanScorer
    return getattr(transformers, auto_class)


class ChoiceScorer(torch.nn.Module):
    """Multiple choice with a one-label sequence classifier: inputs of shape (examples,
    choices, width) are scored as examples x choices sequences."""

    def __init__(self, scorer: Any) -> None:
        super().__init__()
        self.scorer = scorer
        self.config = scorer.config
        # the load report's prefix of the pretrained body (mte.modelling.heads)
        self.base_model_prefix = f"scorer.{scorer.base_model_prefix}"

    @classmethod
    def from_pretrained(
        cls, model_dir: str | Path, output_loading_info: bool = False, **kwargs: Any
    ) -> Any:
        from transformers import AutoModelForSequenceClassification

        kwargs.update(num_labels=1, id2label={0: "score"}, label2id={"score": 0})
        scorer, info = AutoModelForSequenceClassification.from_pretrained(
            model_dir, output_loading_info=True, **kwargs
        )
        model = cls(scorer)
        if not output_loading_info:
            return model
        missing = [f"scorer.{key}" for key in info.get("missing_keys") or []]
        return model, {**info, "missing_keys": missing}

    def get_input_embeddings(self) -> Any:
        return self.scorer.get_input_embeddings()

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        labels: torch.Tensor | None = None,
        token_type_ids: torch.Tensor | None = None,
    ) -> Any:
        from transformers.modeling_outputs import MultipleChoiceModelOutput

        examples, choices, width = input_ids.shape
        flat = {
            "input_ids": input_ids.view(-1, width),
            "attention_mask": attention_mask.view(-1, width),
        }
        if token_type_ids is not None:
            flat["token_type_ids"] = token_type_ids.view(-1, width)
        logits = self.scorer(**flat).logits.view(examples, choices)
        loss = None
        if labels is not None:
            loss = torch.nn.functional.cross_entropy(logits.float(), labels)
        return MultipleChoiceModelOutput(loss=loss, logits=logits)

    def save_pretrained(self, out_dir: str | Path) -> None:
        self.scorer.save_pretrained(out_dir)


class SpanScorer(torch.nn.Module):
    """Extractive QA on the base model: ``qa_outputs`` maps each token's last hidden state to
    a start and an end logit; saved as the base model's folder with the layer beside it."""

    def __init__(self, body: Any, qa_outputs: torch.nn.Linear) -> None:
        super().__init__()
        self.body = body
        self.qa_outputs = qa_outputs
        self.config = body.config
        self.base_model_prefix = "body"

    @classmethod
    def from_pretrained(
        cls, model_dir: str | Path, output_loading_info: bool = False, **kwargs: Any
    ) -> Any:
        from safetensors.torch import load_file
        from transformers import AutoModel

        for key in ("num_labels", "id2label", "label2id"):
            kwargs.pop(key, None)
        body, info = AutoModel.from_pretrained(model_dir, output_loading_info=True, **kwargs)
        qa_outputs = torch.nn.Linear(body.config.hidden_size, 2)
        body._init_weights(qa_outputs)  # as the model's own heads start
        saved = Path(model_dir) / SPAN_HEAD_FILE
        missing = [f"body.{key}" for key in info.get("missing_keys") or []]
        if saved.is_file():
            qa_outputs.load_state_dict(load_file(saved))
        else:
            missing += ["qa_outputs.weight", "qa_outputs.bias"]
        model = cls(body, qa_outputs)
        return (model, {**info, "missing_keys": missing}) if output_loading_info else model

    def get_input_embeddings(self) -> Any:
        return self.body.get_input_embeddings()

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        start_positions: torch.Tensor | None = None,
        end_positions: torch.Tensor | None = None,
        token_type_ids: torch.Tensor | None = None,
    ) -> Any:
        from transformers.loss.loss_utils import ForQuestionAnsweringLoss
        from transformers.modeling_outputs import QuestionAnsweringModelOutput

        hidden = self.body(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        start_logits, end_logits = self.qa_outputs(hidden).split(1, dim=-1)
        start_logits = start_logits.squeeze(-1).contiguous()
        end_logits = end_logits.squeeze(-1).contiguous()
        loss = None
        if start_positions is not None and end_positions is not None:
            loss = ForQuestionAnsweringLoss(
                start_logits, end_logits, start_positions, end_positions
            )
        return QuestionAnsweringModelOutput(
            loss=loss, start_logits=start_logits, end_logits=end_logits
        )

    def save_pretrained(self, out_dir: str | Path) -> None:
        from safetensors.torch import save_file

        self.body.save_pretrained(out_dir)
        state = {key: value.contiguous() for key, value in self.qa_outputs.state_dict().items()}
        save_file(state, Path(out_dir) / SPAN_HEAD_FILE)
