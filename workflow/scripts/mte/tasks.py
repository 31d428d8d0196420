"""The benchmark registry: languages, label sets, metrics and hub locations of each task."""

from __future__ import annotations

from dataclasses import dataclass, field

from mte.errors import ConfigError

# translate-train: the English training set machine-translated into a language;
# translate-test: a language's test set translated into English; pseudo-test: the English test
# set translated into a language (XTREME's pseudo test sets). Each is stored under the
# language it belongs to.
TRANSLATED_SPLITS = ("translate-train", "translate-test", "pseudo-test")
SPLITS = ("train", "dev", "test", *TRANSLATED_SPLITS)


@dataclass(frozen=True)
class Task:
    """What the workflow needs to know about one benchmark task."""

    name: str
    title: str
    family: str
    languages: tuple[str, ...]
    labels: tuple[str, ...]
    primary_metric: str
    hub_id: str
    # hub split names for our canonical split names
    hub_splits: dict[str, str] = field(default_factory=dict)
    # the hub dataset's text columns, in the canonical order (text_a, text_b)
    hub_text_columns: tuple[str, ...] = ()
    # spellings of a label in released files that mean one of ``labels``
    label_aliases: dict[str, str] = field(default_factory=dict)
    demo_languages: tuple[str, ...] = ()
    train_language: str = "en"
    reference: str = ""
    # the metrics reported (the primary one first) and the one that selects the dev epoch
    metrics: tuple[str, ...] = ("accuracy",)
    # hub: dataset id and config per language, where they differ from hub_id / the language
    hub_configs: dict[str, tuple[str, str]] = field(default_factory=dict)
    hub_tag_column: str = ""
    # transfer settings the task has data for
    settings: tuple[str, ...] = ("zero-shot",)
    # a language's code in released file names, where it is not the language code itself
    file_codes: dict[str, str] = field(default_factory=dict)
    # a training set only (SQuAD v1.1): fine-tuned on, never evaluated; the tasks whose
    # ``models_of`` names it evaluate its fine-tunes
    train_only: bool = False
    # QA answer normalisation: "squad" (v1.1) or "mlqa" (v1, per language)
    qa_normalization: str = ""
    # evaluate the fine-tuned models of another task instead of fine-tuning again (one SQuAD
    # fine-tune serves XQuAD, MLQA and MLQA G-XLT, as in XTREME's scripts/train.sh)
    models_of: str = ""
    # hub configs that mix languages: a language's examples are those whose id starts with
    # this prefix (google/xtreme's "tydiqa": "arabic-2387335860751143628-1")
    hub_id_prefixes: dict[str, str] = field(default_factory=dict)
    # the split scored when the config names none (GLUE's test labels are not public: dev)
    default_eval_split: str = "test"
    # header names of (text_a, text_b or None, label) in the task's header-named TSV files
    table_columns: tuple[str, str | None, str] = ("sentence1", "sentence2", "gold_label")
    # files without a header: (number of fields, text_a field, text_b field or None, label field)
    headerless_fields: tuple[int, int, int | None, int] | None = None
    # the suite whose summary score the task enters (GLUE's average)
    group: str = ""
    # every language's test set holds the same items, translated (bootstrap resamples items)
    parallel_test_sets: bool = False

    def answer_language(self, language: str) -> str:
        """The language whose normalisation scores answers: a G-XLT pair's context language."""
        return language.split("-")[0]

    def canonical_label(self, label: str) -> str | None:
        """The canonical spelling of ``label``, or None when it is not a label of the task."""
        label = self.label_aliases.get(label, label)
        return label if label in self.labels else None

    def check_language(self, language: str, key: str) -> None:
        """Raise a :class:`ConfigError` naming ``key`` if the task lacks ``language``."""
        if language not in self.languages:
            raise ConfigError(
                key,
                f"'{language}' is not a language of {self.title} "
                f"(it has: {', '.join(self.languages)})",
            )


# settings for tasks with training data in every language (XNLI's and PAWS-X's non-English
# training sets are the releases' machine translations of the English one)
NATIVE_TRAINING = ("zero-shot", "in-language", "multilingual")
NER_TAGS = ("O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC")
# the 17 Universal POS tags of UD v2
UPOS_TAGS = (
    "ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM",
    "PART", "PRON", "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X",
)  # fmt: skip
# XTREME's 40 PAN-X languages (Hu et al. 2020, Table 6)
PANX_LANGUAGES = (
    "en", "af", "ar", "bg", "bn", "de", "el", "es", "et", "eu", "fa", "fi", "fr", "he",
    "hi", "hu", "id", "it", "ja", "jv", "ka", "kk", "ko", "ml", "mr", "ms", "my", "nl",
    "pt", "ru", "sw", "ta", "te", "th", "tl", "tr", "ur", "vi", "yo", "zh",
)  # fmt: skip
# XTREME's UD-POS languages, with the names google/xtreme gives its udpos.* configs
UDPOS_LANGUAGES = {
    "en": "English", "af": "Afrikaans", "ar": "Arabic", "bg": "Bulgarian", "de": "German",
    "el": "Greek", "es": "Spanish", "et": "Estonian", "eu": "Basque", "fa": "Persian",
    "fi": "Finnish", "fr": "French", "he": "Hebrew", "hi": "Hindi", "hu": "Hungarian",
    "id": "Indonesian", "it": "Italian", "ja": "Japanese", "kk": "Kazakh", "ko": "Korean",
    "mr": "Marathi", "nl": "Dutch", "pt": "Portuguese", "ru": "Russian", "ta": "Tamil",
    "te": "Telugu", "th": "Thai", "tl": "Tagalog", "tr": "Turkish", "ur": "Urdu",
    "vi": "Vietnamese", "yo": "Yoruba", "zh": "Chinese",
}  # fmt: skip

XQUAD_LANGUAGES = ("en", "es", "de", "el", "ru", "tr", "ar", "vi", "th", "zh", "hi")
MLQA_LANGUAGES = ("en", "es", "de", "ar", "hi", "vi", "zh")
# TyDiQA-GoldP's languages, with the names that begin the ids of its released examples
TYDIQA_ID_NAMES = {
    "en": "english", "ar": "arabic", "bn": "bengali", "fi": "finnish", "id": "indonesian",
    "ko": "korean", "ru": "russian", "sw": "swahili", "te": "telugu",
}  # fmt: skip
TYDIQA_LANGUAGES = tuple(TYDIQA_ID_NAMES)
# MLQA's generalised cross-lingual transfer: every context language x question language
GXLT_PAIRS = tuple(f"{c}-{q}" for c in MLQA_LANGUAGES for q in MLQA_LANGUAGES)


def _glue(name: str, title: str, **fields) -> Task:
    """A GLUE task: English only, scored on dev (the test labels are not public)."""
    defaults = dict(
        name=name,
        title=title,
        family="pair_classification",
        languages=("en",),
        labels=("0", "1"),
        primary_metric="accuracy",
        hub_id="nyu-mll/glue",
        hub_splits={"train": "train", "dev": "validation", "test": "test"},
        hub_configs={"en": ("nyu-mll/glue", name.replace("_mm", ""))},
        default_eval_split="dev",
        group="glue",
        reference="Wang et al. 2019 (GLUE); XLM-R Table 4 (dev)",
    )
    return Task(**{**defaults, **fields})


# Tatoeba (XTREME's 36 languages): ISO 639-1 code -> the three-letter code of its files
TATOEBA_CODES = {
    "af": "afr", "ar": "ara", "bg": "bul", "bn": "ben", "de": "deu", "el": "ell", "es": "spa",
    "et": "est", "eu": "eus", "fa": "pes", "fi": "fin", "fr": "fra", "he": "heb", "hi": "hin",
    "hu": "hun", "id": "ind", "it": "ita", "ja": "jpn", "jv": "jav", "ka": "kat", "kk": "kaz",
    "ko": "kor", "ml": "mal", "mr": "mar", "nl": "nld", "pt": "por", "ru": "rus", "sw": "swh",
    "ta": "tam", "te": "tel", "th": "tha", "tl": "tgl", "tr": "tur", "ur": "urd", "vi": "vie",
    "zh": "cmn",
}  # fmt: skip
BUCC_LANGUAGES = ("de", "fr", "ru", "zh")

GLUE_TASKS = (
    _glue(
        "cola",
        "CoLA",
        primary_metric="mcc",
        metrics=("mcc",),
        hub_text_columns=("sentence",),
        label_aliases={"unacceptable": "0", "acceptable": "1"},
        # train/dev.tsv: source, label, original label, sentence; no header
        headerless_fields=(4, 3, None, 1),
        table_columns=("sentence", None, "label"),
    ),
    _glue(
        "sst2",
        "SST-2",
        hub_text_columns=("sentence",),
        label_aliases={"negative": "0", "positive": "1"},
        table_columns=("sentence", None, "label"),
    ),
    _glue(
        "mrpc",
        "MRPC",
        primary_metric="f1",
        metrics=("f1", "accuracy"),
        hub_text_columns=("sentence1", "sentence2"),
        label_aliases={"not_equivalent": "0", "equivalent": "1"},
        table_columns=("#1 String", "#2 String", "Quality"),
    ),
    _glue(
        "qqp",
        "QQP",
        primary_metric="f1",
        metrics=("f1", "accuracy"),
        hub_text_columns=("question1", "question2"),
        label_aliases={"not_duplicate": "0", "duplicate": "1"},
        table_columns=("question1", "question2", "is_duplicate"),
    ),
    _glue(
        "stsb",
        "STS-B",
        family="regression",
        labels=(),
        primary_metric="pearson",
        metrics=("pearson", "spearman"),
        hub_text_columns=("sentence1", "sentence2"),
        table_columns=("sentence1", "sentence2", "score"),
    ),
    _glue(
        "mnli",
        "MNLI-m",
        labels=("entailment", "neutral", "contradiction"),
        hub_text_columns=("premise", "hypothesis"),
        hub_splits={"train": "train", "dev": "validation_matched", "test": "test_matched"},
    ),
    _glue(
        "mnli_mm",
        "MNLI-mm",
        labels=("entailment", "neutral", "contradiction"),
        hub_text_columns=("premise", "hypothesis"),
        hub_splits={"train": "train", "dev": "validation_mismatched", "test": "test_mismatched"},
        models_of="mnli",
    ),
    _glue(
        "qnli",
        "QNLI",
        labels=("entailment", "not_entailment"),
        hub_text_columns=("question", "sentence"),
        table_columns=("question", "sentence", "label"),
    ),
    _glue(
        "rte",
        "RTE",
        labels=("entailment", "not_entailment"),
        hub_text_columns=("sentence1", "sentence2"),
        table_columns=("sentence1", "sentence2", "label"),
    ),
)

# the column order of the XLM-R paper's GLUE table (Table 4), CoLA and RTE after it
GLUE_ORDER = ("mnli", "mnli_mm", "qnli", "qqp", "sst2", "mrpc", "cola", "stsb", "rte")
GLUE_TASKS = tuple(sorted(GLUE_TASKS, key=lambda task: GLUE_ORDER.index(task.name)))

RETRIEVAL_TASKS = (
    Task(
        name="tatoeba",
        title="Tatoeba",
        family="retrieval",
        languages=tuple(TATOEBA_CODES),
        labels=(),
        primary_metric="accuracy",
        metrics=("accuracy", "error_rate", "accuracy_en_to_xx"),
        hub_id="google/xtreme",
        # XTREME releases Tatoeba as one evaluation set, the hub's validation split
        hub_splits={"test": "validation"},
        hub_configs={
            lang: ("google/xtreme", f"tatoeba.{code}") for lang, code in TATOEBA_CODES.items()
        },
        file_codes=TATOEBA_CODES,
        settings=("zero-shot",),
        reference="Artetxe & Schwenk 2019 (Tatoeba); XTREME Table 2",
    ),
    Task(
        name="bucc",
        title="BUCC 2018",
        family="mining",
        languages=BUCC_LANGUAGES,
        labels=(),
        primary_metric="f1",
        metrics=("f1", "precision", "recall", "threshold"),
        hub_id="google/xtreme",
        # XTREME uses the BUCC sample set as dev (it picks the threshold) and the training set,
        # whose gold pairs are public, as test
        hub_splits={"dev": "validation", "test": "test"},
        hub_configs={lang: ("google/xtreme", f"bucc18.{lang}") for lang in BUCC_LANGUAGES},
        settings=("zero-shot",),
        reference="Zweigenbaum et al. 2018 (BUCC); XTREME Table 2",
    ),
)


TASKS: dict[str, Task] = {
    task.name: task
    for task in (
        Task(
            name="xnli",
            title="XNLI",
            family="pair_classification",
            # XNLI's 15 languages (Conneau et al. 2018), the set used by XLM-R and XTREME
            languages=(
                "en",
                "fr",
                "es",
                "de",
                "el",
                "bg",
                "ru",
                "tr",
                "ar",
                "vi",
                "th",
                "zh",
                "hi",
                "sw",
                "ur",
            ),
            labels=("entailment", "neutral", "contradiction"),
            primary_metric="accuracy",
            hub_id="facebook/xnli",
            hub_splits={"train": "train", "dev": "validation", "test": "test"},
            hub_text_columns=("premise", "hypothesis"),
            # XNLI-MT and MultiNLI releases spell one label "contradictory"
            label_aliases={"contradictory": "contradiction"},
            demo_languages=("en", "de", "es", "ru", "zh", "ar"),
            parallel_test_sets=True,
            settings=NATIVE_TRAINING,
            reference="Conneau et al. 2018 (XNLI); XLM-R Table 1; XTREME Table 2",
        ),
        Task(
            name="pawsx",
            title="PAWS-X",
            family="pair_classification",
            languages=("en", "de", "es", "fr", "ja", "ko", "zh"),
            labels=("0", "1"),
            primary_metric="accuracy",
            # the original x-final/ release: id, sentence1, sentence2, label
            table_columns=("sentence1", "sentence2", "label"),
            hub_id="google-research-datasets/paws-x",
            hub_splits={"train": "train", "dev": "validation", "test": "test"},
            hub_text_columns=("sentence1", "sentence2"),
            reference="Yang et al. 2019 (PAWS-X); XTREME Table 2",
            settings=NATIVE_TRAINING,
            parallel_test_sets=True,
        ),
        Task(
            name="conll",
            title="CoNLL-2002/2003 NER",
            family="tagging",
            languages=("en", "nl", "es", "de"),
            labels=(*NER_TAGS, "B-MISC", "I-MISC"),
            primary_metric="f1",
            metrics=("f1", "precision", "recall", "token_f1"),
            hub_id="eriktks/conll2003",
            hub_splits={"train": "train", "dev": "validation", "test": "test"},
            # CoNLL-2003 German is not on the hub (its text is licensed); en and es/nl are
            hub_configs={
                "en": ("eriktks/conll2003", "conll2003"),
                "es": ("eriktks/conll2002", "es"),
                "nl": ("eriktks/conll2002", "nl"),
            },
            hub_tag_column="ner_tags",
            settings=NATIVE_TRAINING,
            file_codes={"en": "eng", "es": "esp", "nl": "ned", "de": "deu"},
            reference="Tjong Kim Sang 2002; Tjong Kim Sang & De Meulder 2003; XLM-R Table 2",
        ),
        Task(
            name="panx",
            title="PAN-X (WikiANN) NER",
            family="tagging",
            languages=PANX_LANGUAGES,
            labels=NER_TAGS,
            primary_metric="f1",
            metrics=("f1", "precision", "recall", "token_f1"),
            hub_id="google/xtreme",
            hub_splits={"train": "train", "dev": "validation", "test": "test"},
            hub_configs={lang: ("google/xtreme", f"PAN-X.{lang}") for lang in PANX_LANGUAGES},
            hub_tag_column="ner_tags",
            reference="Pan et al. 2017; Rahimi et al. 2019 splits; XTREME Table 2",
            settings=NATIVE_TRAINING,
        ),
        Task(
            name="udpos",
            title="UD POS",
            family="tagging",
            languages=tuple(UDPOS_LANGUAGES),
            labels=UPOS_TAGS,
            primary_metric="accuracy",
            metrics=("accuracy", "seqeval_f1"),
            hub_id="google/xtreme",
            hub_splits={"train": "train", "dev": "validation", "test": "test"},
            hub_configs={
                lang: ("google/xtreme", f"udpos.{name}") for lang, name in UDPOS_LANGUAGES.items()
            },
            hub_tag_column="pos_tags",
            settings=NATIVE_TRAINING,
            reference="Universal Dependencies v2.5; XTREME Table 2",
        ),
        Task(
            name="squad",
            title="SQuAD v1.1",
            family="qa",
            languages=("en",),
            labels=(),
            primary_metric="f1",
            metrics=("f1", "exact_match"),
            hub_id="rajpurkar/squad",
            hub_splits={"train": "train", "dev": "validation"},
            hub_configs={"en": ("rajpurkar/squad", None)},
            qa_normalization="squad",
            train_only=True,
            reference="Rajpurkar et al. 2016 (SQuAD v1.1), the training set of XQuAD and MLQA",
        ),
        Task(
            name="xquad",
            title="XQuAD",
            family="qa",
            languages=XQUAD_LANGUAGES,
            labels=(),
            primary_metric="f1",
            metrics=("f1", "exact_match"),
            hub_id="google/xquad",
            parallel_test_sets=True,
            # XQuAD is one evaluation set, released as the hub's validation split
            hub_splits={"train": "train", "dev": "validation", "test": "validation"},
            hub_configs={lang: ("google/xquad", f"xquad.{lang}") for lang in XQUAD_LANGUAGES},
            qa_normalization="squad",
            models_of="squad",
            reference="Artetxe et al. 2020 (XQuAD); XTREME Table 2",
        ),
        Task(
            name="mlqa",
            title="MLQA",
            family="qa",
            languages=MLQA_LANGUAGES,
            labels=(),
            primary_metric="f1",
            metrics=("f1", "exact_match"),
            hub_id="facebook/mlqa",
            hub_splits={"train": "train", "dev": "validation", "test": "test"},
            hub_configs={lang: ("facebook/mlqa", f"mlqa.{lang}.{lang}") for lang in MLQA_LANGUAGES},
            qa_normalization="mlqa",
            models_of="squad",
            reference="Lewis et al. 2020 (MLQA); XLM-R Table 3; XTREME Table 2",
        ),
        Task(
            name="mlqa_gxlt",
            title="MLQA G-XLT",
            family="qa",
            languages=GXLT_PAIRS,
            labels=(),
            primary_metric="f1",
            metrics=("f1", "exact_match"),
            hub_id="facebook/mlqa",
            hub_splits={"train": "train", "dev": "validation", "test": "test"},
            hub_configs={
                pair: ("facebook/mlqa", "mlqa.{}.{}".format(*pair.split("-")))
                for pair in GXLT_PAIRS
            },
            qa_normalization="mlqa",
            models_of="squad",
            reference="Lewis et al. 2020 (MLQA), Table 5 (G-XLT)",
        ),
        Task(
            name="tydiqa",
            title="TyDiQA-GoldP",
            family="qa",
            languages=TYDIQA_LANGUAGES,
            labels=(),
            primary_metric="f1",
            metrics=("f1", "exact_match"),
            hub_id="google/xtreme",
            # GoldP has train and dev sets; XTREME evaluates on dev (its "test")
            hub_splits={"train": "train", "dev": "validation", "test": "validation"},
            # google/xtreme's "tydiqa" config holds all languages; ids name the language
            hub_configs={lang: ("google/xtreme", "tydiqa") for lang in TYDIQA_LANGUAGES},
            hub_id_prefixes={lang: f"{name}-" for lang, name in TYDIQA_ID_NAMES.items()},
            # XTREME fine-tunes on the English TyDiQA-GoldP training set, not on SQuAD
            # (scripts/train.sh: train_qa.sh $MODEL tydiqa; train_qa.sh: tydiqa.en.train.json)
            qa_normalization="squad",
            reference="Clark et al. 2020 (TyDi QA); XTREME Table 2",
        ),
        *GLUE_TASKS,
        *RETRIEVAL_TASKS,
    )
}


def get_task(name: str, key: str = "tasks") -> Task:
    """Look up a task by name; an unknown name raises a :class:`ConfigError` naming ``key``."""
    try:
        return TASKS[name]
    except KeyError:
        raise ConfigError(
            f"{key}.{name}",
            f"unknown task '{name}' (known tasks: {', '.join(sorted(TASKS))})",
        ) from None
