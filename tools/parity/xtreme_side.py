"""XTREME's own feature code on one job of the parity harness (runs in tools/parity/.venv:
transformers 2.4.1, XTREME's third_party/ from a checkout at the pinned commit).

Usage: xtreme_side.py JOB.json OUT.json, where JOB names the family, the tokenizer folder
(``sentencepiece.bpe.model`` for an XLM-R-shaped tokenizer, ``vocab.txt`` for a WordPiece one),
the options and the canonical examples; OUT receives one record per feature, unpadded.

Each family is featurised by the function and the arguments XTREME's script passes it:
- pairs: ``processors/utils.py`` ``convert_examples_to_features`` as ``run_classify.py`` calls it;
- tagging: ``utils_preprocess.py``'s chunking as ``scripts/preprocess_panx.sh`` and
  ``preprocess_udpos.sh`` run it, then ``utils_tag.py`` ``convert_examples_to_features`` as
  ``run_tag.py`` calls it;
- qa: ``processors/squad.py``'s ``squad_convert_example_to_features`` on each example, as
  ``squad_convert_examples_to_features`` runs it for ``run_squad.py``;
- retrieval: ``evaluate_retrieval.py``'s ``tokenize_text`` steps and ``prepare_batch``'s ids;
- lareqa: XTREME-R's LAReQA questions and candidates, ``utils_lareqa.load_data`` then the
  same steps through the files ``evaluate_retrieval.py`` writes.
Nothing of XTREME's is patched; tools/parity/stand_ins.py stands in for boto3 and the Rust
tokenizers, which these functions never call.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def tokenizer_of(job):
    from transformers import BertTokenizer, XLMRobertaTokenizer

    classes = {"xlmr": XLMRobertaTokenizer, "bert": BertTokenizer}
    # as every XTREME script loads it: from_pretrained(folder, do_lower_case=args.do_lower_case)
    return classes[job["kind"]].from_pretrained(
        job["tokenizer_dir"], do_lower_case=job["do_lower_case"]
    )


def unpadded(values, mask):
    return [value for value, keep in zip(values, mask, strict=True) if keep]


def pairs(job, tokenizer):
    from processors.utils import InputExample, convert_examples_to_features

    labels = job["labels"]
    examples = [
        InputExample(
            guid=e["id"],
            text_a=e["text_a"],
            text_b=e.get("text_b"),
            label=e["label"],
            language=job["language"],
        )
        for e in job["examples"]
    ]
    # run_classify.py load_and_cache_examples (l. 437)
    features = convert_examples_to_features(
        examples,
        tokenizer,
        label_list=labels,
        max_length=job["max_length"],
        output_mode="classification",
        pad_on_left=False,
        pad_token=tokenizer.convert_tokens_to_ids([tokenizer.pad_token])[0],
        pad_token_segment_id=0,
        lang2id=None,
    )
    return [
        {
            "example": index,
            "input_ids": unpadded(f.input_ids, f.attention_mask),
            "token_type_ids": unpadded(f.token_type_ids, f.attention_mask),
            "label": f.label,
        }
        for index, f in enumerate(features)
    ]


def preprocessed_chunks(job):
    """The sentences as XTREME's ``utils_preprocess.py`` leaves them for ``run_tag.py``.

    ``scripts/preprocess_panx.sh`` and ``preprocess_udpos.sh`` run ``panx_tokenize_preprocess``
    or ``udpos_tokenize_preprocess`` (``--max_len 128``) before any training or prediction: a
    sentence is cut between words into chunks of at most 128 - 3 (XLM-R) or 128 - 2 sub-tokens,
    a word of no sub-token or of more than that becomes the unknown token, and an ``.idx`` file
    names each line's sentence (``save_predictions`` joins the chunks' predictions by it).
    Returns ``utils_tag.read_examples_from_file`` of the processed file and each chunk's
    sentence, read from the ``.idx`` file.
    """
    import argparse
    import os
    import tempfile

    import utils_preprocess
    from utils_tag import read_examples_from_file

    lang = job["language"]
    preprocess = {
        "panx": utils_preprocess.panx_tokenize_preprocess,
        "udpos": utils_preprocess.udpos_tokenize_preprocess,
    }[job["task"]]
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / "data").mkdir()
        # the files utils_preprocess reads: {split}-{lang}.tsv, a word and its tag a line
        lines = [
            line
            for e in job["examples"]
            for line in [
                *(f"{w}\t{t}\n" for w, t in zip(e["tokens"], e["tags"], strict=True)),
                "\n",
            ]
        ]
        (folder / "data" / f"dev-{lang}.tsv").write_text("".join(lines), encoding="utf-8")
        # its output is named f"{split}.{model_name_or_path}": a relative folder name keeps it
        # one file, as XTREME's hub names do
        (folder / "model").symlink_to(job["tokenizer_dir"])
        args = argparse.Namespace(
            model_type=job["kind"],
            model_name_or_path="model",
            do_lower_case=job["do_lower_case"],
            cache_dir=None,
            languages=lang,
            data_dir=str(folder / "data"),
            output_dir=str(folder / "out"),
            max_len=job["max_length"],
        )
        here = os.getcwd()
        os.chdir(folder)
        try:
            preprocess(args)
        finally:
            os.chdir(here)
        processed = folder / "out" / lang / "dev.model"
        examples = read_examples_from_file(str(processed), lang)
        sentences, starts = [], True
        with open(processed, encoding="utf-8") as text, open(f"{processed}.idx") as idx:
            for line, index in zip(text, idx, strict=True):
                if not line.strip():
                    starts = True
                elif starts:
                    sentences.append(int(index))
                    starts = False
    if len(sentences) != len(examples):
        raise RuntimeError(f"{len(examples)} chunks read, {len(sentences)} in the .idx file")
    return examples, sentences


def tagging(job, tokenizer):
    from utils_tag import convert_examples_to_features

    examples, sentences = preprocessed_chunks(job)
    xlmr = job["kind"] == "xlmr"
    # run_tag.py load_and_cache_examples (l. 348); pad_token_label_id is CrossEntropyLoss's -100
    features = convert_examples_to_features(
        examples,
        job["labels"],
        job["max_length"],
        tokenizer,
        cls_token_at_end=False,
        cls_token=tokenizer.cls_token,
        cls_token_segment_id=0,
        sep_token=tokenizer.sep_token,
        sep_token_extra=xlmr,
        pad_on_left=False,
        pad_token=tokenizer.convert_tokens_to_ids([tokenizer.pad_token])[0],
        pad_token_segment_id=0,
        pad_token_label_id=-100,
        lang=job["language"],
    )
    return [
        {
            "example": sentence,
            "input_ids": unpadded(f.input_ids, f.input_mask),
            "labels": unpadded(f.label_ids, f.input_mask),
        }
        for sentence, f in zip(sentences, features, strict=True)
    ]


def qa(job, tokenizer):
    from processors.squad import (
        SquadExample,
        squad_convert_example_to_features,
        squad_convert_example_to_features_init,
    )

    training = job["training"]
    examples = []
    for e in job["examples"]:
        first = e["answers"]["text"][0] if e["answers"]["text"] else None
        start = e["answers"]["answer_start"][0] if e["answers"]["text"] else None
        # SquadV1Processor._create_examples: training takes the first answer, evaluation all
        examples.append(
            SquadExample(
                qas_id=e["id"],
                question_text=e["question"],
                context_text=e["context"],
                answer_text=first if training else None,
                start_position_character=start if training else None,
                title=e.get("title", ""),
                is_impossible=False,
                answers=[]
                if training
                else [
                    {"text": t, "answer_start": s}
                    for t, s in zip(e["answers"]["text"], e["answers"]["answer_start"], strict=True)
                ],
                language=job["language"],
            )
        )
    # squad_convert_examples_to_features runs squad_convert_example_to_features on each example
    # in a pool, then numbers the examples that have features: a training example whose answer
    # is not found in its words has none, and every later example's index would shift. The
    # per-example function is called here as the pool calls it, each example keeping its index.
    squad_convert_example_to_features_init(tokenizer)
    per_example = [
        squad_convert_example_to_features(
            example,
            max_seq_length=job["max_length"],
            doc_stride=job["doc_stride"],
            max_query_length=job["max_query_length"],
            is_training=training,
            lang2id=None,
        )
        for example in examples
    ]
    features = []
    for index, example_features in enumerate(per_example):
        for feature in example_features:
            feature.example_index = index
            features.append(feature)
    return [
        {
            "example": f.example_index,
            "input_ids": unpadded(f.input_ids, f.attention_mask),
            "token_type_ids": unpadded(f.token_type_ids, f.attention_mask),
            "start_position": f.start_position,
            "end_position": f.end_position,
            "max_context": {str(k): bool(v) for k, v in f.token_is_max_context.items()},
        }
        for f in features
    ]


def retrieval(job, tokenizer):
    # evaluate_retrieval.py imports torch and faiss at its top, which a feature comparison
    # does not need; its two input steps are read from it and applied here unchanged:
    # tokenize_text: sents = [l.strip() for l in open(text_file)]; tokenizer.tokenize(sent)
    # prepare_batch: tokenizer.convert_tokens_to_ids([cls_token] + sent + [sep_token]) with
    # sent cut to max_length - 2
    out = []
    for index, e in enumerate(job["examples"]):
        tokens = tokenizer.tokenize(e["text"].strip())[: job["max_length"] - 2]
        ids = tokenizer.convert_tokens_to_ids([tokenizer.cls_token, *tokens, tokenizer.sep_token])
        out.append({"example": index, "input_ids": ids})
    return out


def lareqa(job, tokenizer):
    """XTREME-R's LAReQA inputs (``evaluate_retrieval.py``, task lareqa, l. 508-600):
    ``utils_lareqa.load_data`` over every XQuAD-R file; each language's questions written a
    line each, and its candidates (sentence then paragraph, line breaks removed) joined by line
    breaks, to the files ``extract_encodings`` reads back through ``tokenize_text`` (each line
    stripped, then ``tokenizer.tokenize``) and ``prepare_batch`` (cut to the length less the
    two special tokens): questions at ``--max_query_length``, candidates at
    ``--max_answer_length``. Returns each question's and candidate's ids under its uid."""
    import tempfile

    import utils_lareqa

    squad_per_lang = {}
    for language, path in job["files"].items():
        with open(path, encoding="utf-8") as f:
            squad_per_lang[language] = json.load(f)
    question_set, candidate_set = utils_lareqa.load_data(squad_per_lang)

    def encoded(lines_file, uids, max_length):
        # tokenize_text: sents = [l.strip() for l in open(text_file)]
        with open(lines_file, encoding="utf-8") as f:
            sentences = [line.strip() for line in f]
        if len(sentences) != len(uids):
            raise RuntimeError(f"{lines_file}: {len(sentences)} lines for {len(uids)} texts")
        out = []
        for uid, sentence in zip(uids, sentences, strict=True):
            tokens = tokenizer.tokenize(sentence)[: max_length - 2]
            ids = tokenizer.convert_tokens_to_ids(
                [tokenizer.cls_token, *tokens, tokenizer.sep_token]
            )
            out.append({"id": uid, "input_ids": ids})
        return out

    records = []
    with tempfile.TemporaryDirectory() as folder:
        for lang, questions in question_set.by_lang.items():
            lang_file = Path(folder) / f"{lang}-questions.txt"
            with open(lang_file, "w", encoding="utf-8") as f:
                for question in questions:
                    f.write(f"{question.question}\n")
            uids = [q.uid for q in questions]
            records += encoded(lang_file, uids, job["max_query_length"])
        for lang, candidates in candidate_set.by_lang.items():
            lang_file = Path(folder) / f"{lang}-candidates_sentences_and_contexts.txt"
            texts = [(c.sentence + c.context).replace("\n", "") for c in candidates]
            with open(lang_file, "w", encoding="utf-8") as f:
                f.write("\n".join(texts))
            uids = [c.uid for c in candidates]
            records += encoded(lang_file, uids, job["max_answer_length"])
    return records


def main(job_path: str, out_path: str) -> None:
    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    # third_party/ as the scripts run it; the checkout's root for utils_preprocess.py
    sys.path.insert(0, str(Path(job["xtreme"])))
    sys.path.insert(0, str(Path(job["xtreme"]) / "third_party"))
    tokenizer = tokenizer_of(job)
    family = {
        "pairs": pairs,
        "tagging": tagging,
        "qa": qa,
        "retrieval": retrieval,
        "lareqa": lareqa,
    }[job["family"]]
    Path(out_path).write_text(json.dumps(family(job, tokenizer)), encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:])
