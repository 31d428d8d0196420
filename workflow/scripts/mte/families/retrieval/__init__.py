"""Retrieval: Tatoeba (nearest neighbour accuracy) and BUCC 2018 (bitext mining F1, its
threshold set on the dev split) with the pretrained encoder or another task's fine-tune;
LAReQA and Mewsli-X (mAP@20 over one pool) with the pretrained encoder or a dual encoder
fine-tuned on query-answer pairs (squad_retrieval, mewslix_pairs)."""

from mte.families.retrieval.answer_retrieval_family import AnswerRetrieval
from mte.families.retrieval.dual_encoder_family import DualEncoder, DualEncoderOptions
from mte.families.retrieval.entity_retrieval_family import EntityRetrieval
from mte.families.retrieval.mining_family import Mining
from mte.families.retrieval.retrieval_family import Retrieval

# one module per family class (``*_family``): the registry reads this list
FAMILY_CLASSES = (
    Retrieval,
    Mining,
    AnswerRetrieval,
    EntityRetrieval,
    DualEncoder,
)

__all__ = [
    "AnswerRetrieval",
    "DualEncoder",
    "DualEncoderOptions",
    "EntityRetrieval",
    "FAMILY_CLASSES",
    "Mining",
    "Retrieval",
]
