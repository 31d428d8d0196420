"""Tiny released-format files for workflow tests: a few sentences, real layouts."""

from __future__ import annotations

import json
from pathlib import Path

SENTENCES = [
    ("The dog sleeps.", "Der Hund schläft."),
    ("It is raining.", "Es regnet."),
    ("The cat eats fish.", "Die Katze frisst Fisch."),
    ("We go home.", "Wir gehen nach Hause."),
    ("The train is late.", "Der Zug ist spät."),
    ("I like tea.", "Ich mag Tee."),
]


def write_lines(path: Path, lines: list[str]) -> None:
    """``lines`` into ``path`` (its folder made), each ended by a newline."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def write_pawsx(folder: Path) -> None:
    folder.mkdir()
    rows = [f"{a}\t{b}\t{n % 2}" for n, (a, b) in enumerate(SENTENCES)]
    for split in ("train", "dev"):
        write_lines(folder / f"{split}-en.tsv", rows)
    for language in ("en", "de"):
        write_lines(folder / f"test-{language}.tsv", rows)


def write_tatoeba(folder: Path) -> None:
    folder.mkdir()
    write_lines(folder / "tatoeba.deu-eng.deu", [de for _, de in SENTENCES])
    write_lines(folder / "tatoeba.deu-eng.eng", [en for en, _ in SENTENCES])


def write_bucc(folder: Path) -> None:
    folder.mkdir()
    for split in ("dev", "test"):
        write_lines(
            folder / f"de-en.{split}.de", [f"de-{i}\t{de}" for i, (_, de) in enumerate(SENTENCES)]
        )
        write_lines(
            folder / f"de-en.{split}.en", [f"en-{i}\t{en}" for i, (en, _) in enumerate(SENTENCES)]
        )
        write_lines(folder / f"de-en.{split}.gold", [f"de-{i}\ten-{i}" for i in range(0, 6, 2)])


def write_glue(folder: Path) -> None:
    (folder / "SST-2").mkdir(parents=True)
    (folder / "STS-B").mkdir()
    sst = ["sentence\tlabel", *(f"{en}\t{n % 2}" for n, (en, _) in enumerate(SENTENCES))]
    header = (
        "index\tgenre\tfilename\tyear\told_index\tsource1\tsource2\tsentence1\tsentence2\tscore"
    )
    sts = [header] + [
        f"{n}\tmain\tx\t2012\t{n}\tnone\tnone\t{en}\t{SENTENCES[(n + 1) % 6][0]}\t{n * 0.8:.3f}"
        for n, (en, _) in enumerate(SENTENCES)
    ]
    for split in ("train", "dev"):
        write_lines(folder / "SST-2" / f"{split}.tsv", sst)
        write_lines(folder / "STS-B" / f"{split}.tsv", sts)


XNLI_LABELS = ("entailment", "neutral", "contradiction")


def write_xnli(folder: Path, languages=("en", "de")) -> None:
    """XNLI in XTREME's layout: premise, hypothesis, label; train and dev in English."""
    folder.mkdir()
    rows = [f"{a}\t{b}\t{XNLI_LABELS[n % 3]}" for n, (a, b) in enumerate(SENTENCES)]
    for split in ("train", "dev"):
        write_lines(folder / f"{split}-en.tsv", rows)
    for language in languages:
        write_lines(folder / f"test-{language}.tsv", rows)


# (English tokens, German tokens, tags), the same tags in both languages
NER = [
    ("Angela Merkel visited Paris .", "Angela Merkel besuchte Paris .", "B-PER I-PER O B-LOC O"),
    ("Siemens is based in Munich .", "Siemens sitzt in München .", None),
    ("The UN met in Geneva .", "Die UNO tagte in Genf .", "O B-ORG O O B-LOC O"),
]
GERMAN_TAGS = {1: "B-ORG O O B-LOC O"}
# (tokens, tags) in IOB1 as the CoNLL-2003 files write them
CONLL_SENTENCES = [
    ("Peter Blackburn lives in London .", "I-PER I-PER O O I-LOC O"),
    ("The EU met in Brussels .", "O I-ORG O O I-LOC O"),
    ("Angela Merkel visited Paris today .", "I-PER I-PER O I-LOC O O"),
    ("Siemens opened an office in Madrid .", "I-ORG O O O O I-LOC O"),
]
POS_SENTENCES = [
    ("Der Zug fährt nach Berlin .", "DET NOUN VERB ADP PROPN PUNCT"),
    ("Sie liest ein Buch .", "PRON VERB DET NOUN PUNCT"),
]
ENGLISH_TAGS = {1: "B-ORG O O O B-LOC O"}


def tagged_lines(sentences: list[tuple[str, str]], repeat: int) -> list[str]:
    lines = []
    for text, tags in sentences * repeat:
        lines += [f"{w}\t{t}" for w, t in zip(text.split(), tags.split(), strict=True)]
        lines.append("")
    return lines


def write_panx_folders(root: Path) -> None:
    english = [(en, tags or ENGLISH_TAGS[i]) for i, (en, _, tags) in enumerate(NER)]
    german = [(de, tags or GERMAN_TAGS[i]) for i, (_, de, tags) in enumerate(NER)]
    for language, sentences in (("en", english), ("de", german)):
        for split, repeat in (("train", 4), ("dev", 1), ("test", 2)):
            write_lines(root / f"panx/{split}-{language}.tsv", tagged_lines(sentences, repeat))
    write_lines(root / "panx-mt/translate-train/en-de-translated.tsv", tagged_lines(german, 4))
    write_lines(root / "panx-mt/translate-test/test-de-en-translated.tsv", tagged_lines(english, 2))


def write_conll_folders(root: Path) -> None:
    for code in ("eng", "esp"):
        for split, repeat in (("train", 6), ("testa", 2), ("testb", 3)):
            lines = ["-DOCSTART- -X- O O", ""]
            for text, tags in CONLL_SENTENCES * repeat:
                words = zip(text.split(), tags.split(), strict=True)
                lines += [f"{w} X X {t}" for w, t in words]
                lines.append("")
            path = root / "conll" / f"{code}.{split}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(lines) + "\n", encoding="latin-1")
    for name in ("train-en.tsv", "dev-en.tsv", "test-en.tsv", "test-de.tsv"):
        write_lines(root / "udpos" / name, tagged_lines(POS_SENTENCES, 4))


FILLER = "Der Zug nach Berlin fuhr heute nicht, weil es regnete. " * 12


def write_squad_json(path: Path, prefix: str, long_context: bool) -> None:
    paragraphs = []
    for n, (city, river) in enumerate(
        [("Berlin", "Spree"), ("Paris", "Seine"), ("London", "Thames"), ("Wien", "Donau")]
    ):
        context = f"{city} liegt an der {river}. " + (FILLER if long_context else "")
        answer = {"text": river, "answer_start": context.index(river)}
        if long_context and n == 0:  # an answer far past the first window
            context = FILLER + f"{city} liegt an der {river}."
            answer = {"text": river, "answer_start": context.rindex(river)}
        paragraphs.append(
            {
                "context": context,
                "qas": [
                    {
                        "id": f"{prefix}{n}",
                        "question": f"An welchem Fluss liegt {city}?",
                        "answers": [answer],
                    }
                ],
            }
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps({"version": "1.1", "data": [{"title": "t", "paragraphs": paragraphs}]})
    )


def write_qa_folders(root: Path, languages=("en", "de")) -> None:
    """SQuAD v1.1 (train, dev), XQuAD and MLQA test files, and TyDiQA-GoldP in XTREME's layout
    (English train; GoldP dev per language), under ``root``/{squad,xquad,mlqa,tydiqa}."""
    write_squad_json(root / "squad" / "train-v1.1.json", "t", long_context=False)
    write_squad_json(root / "squad" / "dev-v1.1.json", "d", long_context=False)
    for language in languages:
        write_squad_json(root / "xquad" / f"xquad.{language}.json", "q", long_context=True)
        mlqa = root / "mlqa" / f"test-context-{language}-question-{language}.json"
        write_squad_json(mlqa, language, long_context=False)
    tydiqa = root / "tydiqa"
    write_squad_json(tydiqa / "tydiqa-goldp-v1.1-train" / "tydiqa.en.train.json", "ty", False)
    for language in ("en", "fi"):
        dev = tydiqa / "tydiqa-goldp-v1.1-dev" / f"tydiqa.goldp.{language}.dev.json"
        write_squad_json(dev, f"{language}-", long_context=False)


SIB_TOPICS = ("travel", "sports", "health")


def write_sib200(folder: Path) -> None:
    """SIB-200's layout: {lang}/{split}.tsv with the header index_id, category, text; English
    train/dev/test, German dev/test, the same index_ids in both languages."""
    for language, column, splits in (
        ("eng_Latn", 0, ("train", "dev", "test")),
        ("deu_Latn", 1, ("dev", "test")),
    ):
        rows = [
            f"{100 + n}\t{SIB_TOPICS[n % 3]}\t{pair[column]}" for n, pair in enumerate(SENTENCES)
        ]
        for split in splits:
            write_lines(folder / language / f"{split}.tsv", ["index_id\tcategory\ttext", *rows])


# (premise, question, choice1, choice2, label) in English and Estonian
COPA_ITEMS = [
    (("The man turned on the faucet.", "effect", "The toilet filled.", "Water flowed.", 1),
     ("Mees keeras kraani lahti.", "effect", "Tualett täitus.", "Vett voolas.", 1)),
    (("The girl found a bug.", "effect", "She poured milk.", "She lost her appetite.", 1),
     ("Tüdruk leidis putuka.", "effect", "Ta kallas piima.", "Ta kaotas isu.", 1)),
    (("The woman retired.", "effect", "She got her pension.", "She paid her mortgage.", 0),
     ("Naine jäi pensionile.", "effect", "Ta sai pensioni.", "Ta maksis laenu.", 0)),
    (("The window broke.", "cause", "A ball hit it.", "The sun rose.", 0),
     ("Aken purunes.", "cause", "Pall tabas seda.", "Päike tõusis.", 0)),
]  # fmt: skip


def _copa_line(idx: int, item: tuple) -> str:
    premise, question, choice1, choice2, label = item
    fields = dict(premise=premise, choice1=choice1, choice2=choice2, question=question)
    return json.dumps({**fields, "label": label, "idx": idx}, ensure_ascii=False)


def write_xcopa(folder: Path) -> None:
    """XCOPA's layout: data/{lang}/{val,test}.{lang}.jsonl, data-gmt/ the items in English;
    English COPA placed as data/en/{train,val}.en.jsonl."""
    english = [_copa_line(n, en) for n, (en, _) in enumerate(COPA_ITEMS)]
    estonian = [_copa_line(n, et) for n, (_, et) in enumerate(COPA_ITEMS)]
    train = [
        _copa_line(n + len(COPA_ITEMS) * k, en)
        for k in (0, 1)
        for n, (en, _) in enumerate(COPA_ITEMS)
    ]
    write_lines(folder / "data/en/train.en.jsonl", train)
    write_lines(folder / "data/en/val.en.jsonl", english)
    for split in ("val", "test"):
        write_lines(folder / f"data/et/{split}.et.jsonl", estonian)
        write_lines(folder / f"data-gmt/et/{split}.et.jsonl", english)


# Social IQa items: context, question, answers A-C, the correct letter
SIQA_ITEMS = [
    ("Tracy went home early.", "Why did Tracy do this?", "to rest", "to swim", "to sing", "A"),
    ("Sasha gave Lee a gift.", "How would Lee feel?", "angry", "thankful", "bored", "B"),
    ("Jordan lost the keys.", "What will Jordan do next?", "sleep", "eat", "look for them", "C"),
    ("Kai helped a friend move.", "How would you describe Kai?", "helpful", "lazy", "rude", "A"),
    ("Riley won the race.", "How does Riley feel?", "sad", "proud", "tired", "B"),
    ("Alex broke a cup.", "What does Alex need to do?", "dance", "run", "clean it up", "C"),
]  # fmt: skip


def write_siqa(folder: Path) -> None:
    """Social IQa's release layout: socialIQa_v1.4_{trn,dev}.jsonl, one JSON object a line
    (context, question, answerA-C, correct)."""
    fields = ("context", "question", "answerA", "answerB", "answerC", "correct")
    lines = [json.dumps(dict(zip(fields, item, strict=True))) for item in SIQA_ITEMS]
    write_lines(folder / "socialIQa_v1.4_trn.jsonl", lines + lines)
    write_lines(folder / "socialIQa_v1.4_dev.jsonl", lines)


# MCTest stories: (story, four (question, four answers, correct letter))
MCTEST_STORIES = [
    (
        "Tom has a red ball.\\newlineHe plays with it in the park every day.",
        [
            ("one: What color is the ball?", ("red", "blue", "green", "black"), "A"),
            ("one: Where does Tom play?", ("at school", "in the park", "at home", "at sea"), "B"),
            ("multiple: When does Tom play?", ("never", "at night", "every day", "once"), "C"),
            ("one: Who has the ball?", ("Ann", "Bob", "Sue", "Tom"), "D"),
        ],
    ),
    (
        "Ann bakes bread on Sundays. Her brother eats it with jam.",
        [
            ("one: What does Ann bake?", ("bread", "cake", "pie", "soup"), "A"),
            ("one: When does Ann bake?", ("Mondays", "Sundays", "Fridays", "daily"), "B"),
            ("multiple: Who eats the bread?", ("Ann", "her mother", "her brother", "a dog"), "C"),
            ("one: What goes on the bread?", ("salt", "cheese", "honey", "jam"), "D"),
        ],
    ),
]


def write_mctest(folder: Path, name: str = "mc500") -> None:
    """MCTest's TSV/ANS release layout: ``{name}.{split}.tsv`` (id, properties, story, then per
    question its text and four answers) and ``.ans`` (the four correct letters of a story)."""
    for split in ("train", "dev", "test"):
        lines, answers = [], []
        for number, (story, questions) in enumerate(MCTEST_STORIES):
            fields = [f"{name}.{split}.{number}", "Author: 1;Work Time(s): 60", story]
            for question, choices, _ in questions:
                fields += [question, *choices]
            lines.append("\t".join(fields))
            answers.append("\t".join(letter for _, _, letter in questions))
        write_lines(folder / f"{name}.{split}.tsv", lines)
        write_lines(folder / f"{name}.{split}.ans", answers)


# Belebele questions on two passages: (link, question number, passage, question, answers, the
# correct answer's 1-based number), in English and German
BELEBELE_ITEMS = [
    ("https://en.wikinews.org/a", 1, "The dog sleeps in the sun.", "Where does the dog sleep?",
     ("in the sun", "in the rain", "at sea", "in a car"), "1"),
    ("https://en.wikinews.org/a", 2, "The dog sleeps in the sun.", "Who sleeps?",
     ("a cat", "the dog", "a bird", "nobody"), "2"),
    ("https://en.wikinews.org/b", 1, "We go home by train.", "How do we go home?",
     ("by car", "on foot", "by train", "by boat"), "3"),
]  # fmt: skip
BELEBELE_GERMAN = {
    "The dog sleeps in the sun.": "Der Hund schläft in der Sonne.",
    "We go home by train.": "Wir fahren mit dem Zug nach Hause.",
}


def write_belebele(folder: Path) -> None:
    """Belebele's release layout: ``Belebele/{code}.jsonl`` per variant (eng_Latn, deu_Latn:
    the same questions, the German passages translated)."""
    for code in ("eng_Latn", "deu_Latn"):
        lines = []
        for link, number, passage, question, answers, correct in BELEBELE_ITEMS:
            text = passage if code == "eng_Latn" else BELEBELE_GERMAN[passage]
            record = {
                "link": link,
                "question_number": number,
                "flores_passage": text,
                "question": question,
                **{f"mc_answer{n}": answer for n, answer in enumerate(answers, 1)},
                "correct_answer_num": correct,
                "dialect": code,
            }
            lines.append(json.dumps(record, ensure_ascii=False))
        write_lines(folder / "Belebele" / f"{code}.jsonl", lines)


def write_belebele_train(folder: Path) -> None:
    """Belebele's assembled English training set as its assemble_training_set.py writes it:
    pandas' to_csv with TAB and the index column, train and dev rows in one file; a passage
    with a line break and one with quotes are CSV-quoted."""
    import pandas as pd

    rows = []
    for n, (_, _, passage, question, answers, correct) in enumerate(BELEBELE_ITEMS * 2):
        rows.append(
            {
                "dataset": "MCTest_500" if n % 2 else "RACE",
                "split": "dev" if n >= len(BELEBELE_ITEMS) + 1 else "train",
                "passage_id": n,
                "question_id": 1,
                "passage": passage + ('\nIt is "warm".' if n == 0 else ""),
                "question": question,
                **{f"answer{k}": answer for k, answer in enumerate(answers, 1)},
                "correct_answer": answers[int(correct) - 1],
                "correct_answer_num": int(correct),
            }
        )
    folder.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(folder / "belebele_training_set.tsv", sep="\t")


# XQuAD-R in two languages: two paragraphs each (sentence_breaks), three questions whose ids
# are shared across the languages; each answer's sentence by hand:
# q1 -> paragraph 1 sentence 1, q2 -> paragraph 1 sentence 0, q3 -> paragraph 2 sentence 1
XQUAD_R = {
    "en": [
        (["The dog sleeps.", "It is raining."], [("q1", 1), ("q2", 0)]),
        (["The cat eats fish.", "We go home."], [("q3", 1)]),
    ],
    "de": [
        (["Der Hund schläft.", "Es regnet."], [("q1", 1), ("q2", 0)]),
        (["Die Katze frisst Fisch.", "Wir gehen nach Hause."], [("q3", 1)]),
    ],
}


def write_xquad_r(folder: Path) -> None:
    """LAReQA's ``xquad-r/{lang}.json`` for en and de (:data:`XQUAD_R`)."""
    folder.mkdir(parents=True)
    for language, paragraphs in XQUAD_R.items():
        built = []
        for sentences, questions in paragraphs:
            context = " ".join(sentences)
            starts = [context.index(sentence) for sentence in sentences]
            breaks = [[start, start + len(s)] for start, s in zip(starts, sentences, strict=True)]
            qas = [
                {
                    "id": qid,
                    "question": f"Which sentence is number {position} ({qid})?",
                    "answers": [{"answer_start": starts[position], "text": sentences[position]}],
                }
                for qid, position in questions
            ]
            built.append({"context": context, "sentence_breaks": breaks, "qas": qas})
        data = {"data": [{"title": "tiny", "paragraphs": built}]}
        (folder / f"{language}.json").write_text(json.dumps(data, ensure_ascii=False))


# Mewsli-X: four candidate entities, and per language one article with two mentions whose
# gold entities are Q1 and Q3 (get-mewsli-x.sh's layout: one mention file of every language)
MEWSLIX_ENTITIES = {
    "Q1": "Helsinki is the capital of Finland.",
    "Q2": "Tea is a drink.",
    "Q3": "A strike is a stop of work.",
    "Q4": "The dog is an animal.",
}
MEWSLIX_ARTICLES = {
    "en": "The strike in Helsinki. Buses stop.",
    "de": "Der Streik in Helsinki. Busse halten.",
}


# Mewsli-X's Wikipedia training pairs: (context sentence, mention, its entity)
WIKIPEDIA_PAIRS = [
    ("Helsinki lies by the sea.", "Helsinki", "Q1"),
    ("Tea is hot.", "Tea", "Q2"),
    ("The strike ended.", "strike", "Q3"),
    ("A dog barked.", "dog", "Q4"),
]


def _entity(qid: str) -> dict:
    text = MEWSLIX_ENTITIES[qid]
    return {
        "entity_id": qid,
        "title": qid,
        "description": text,
        "sentence_spans": [{"start": 0, "end": len(text)}],
        "description_language": "en",
        "description_url": f"https://en.wikipedia.org/wiki/{qid}",
    }


def mention_entity_pair(n: int, text: str, mention: str, qid: str) -> dict:
    """One MentionEntityPair record of wikipedia_pairs-*.jsonl."""
    at = text.index(mention)
    context = {
        "document_title": f"w{n}",
        "document_url": f"https://en.wikipedia.org/wiki/w{n}",
        "document_id": f"w{n}",
        "language": "en",
        "text": text,
        "sentence_spans": [{"start": 0, "end": len(text)}],
    }
    span = {"start": at, "end": at + len(mention), "text": mention}
    return {
        "contextual_mention": {
            "context": context,
            "mention": {"example_id": f"w{n}", "mention_span": span, "entity_id": qid},
        },
        "entity": _entity(qid),
    }


def write_mewslix(folder: Path) -> None:
    """``candidate_set_entities.jsonl``, ``wikinews_mentions-test.jsonl`` (en, de) and the
    English ``wikipedia_pairs-{train,dev}.jsonl`` (the same four pairs)."""
    folder.mkdir(parents=True)
    entities = [_entity(qid) for qid in MEWSLIX_ENTITIES]
    write_lines(folder / "candidate_set_entities.jsonl", [json.dumps(e) for e in entities])
    pairs = [json.dumps(mention_entity_pair(n, *pair)) for n, pair in enumerate(WIKIPEDIA_PAIRS)]
    for split in ("train", "dev"):
        write_lines(folder / f"wikipedia_pairs-{split}.jsonl", pairs)
    articles = []
    for language, text in MEWSLIX_ARTICLES.items():
        first = text.index(".") + 1
        sentences = [{"start": 0, "end": first}, {"start": first + 1, "end": len(text)}]
        city, strike = text.index("Helsinki"), text.index("Str" if language == "de" else "str")
        mentions = [
            {
                "example_id": f"{language}-{n}",
                "mention_span": {"start": at, "end": at + size, "text": text[at : at + size]},
                "entity_id": gold,
            }
            for n, (at, size, gold) in enumerate([(city, 8, "Q1"), (strike, 6, "Q3")])
        ]
        context = {
            "document_title": "t",
            "document_url": "u",
            "document_id": f"{language}-1",
            "language": language,
            "text": text,
            "sentence_spans": sentences,
        }
        articles.append(json.dumps({"context": context, "mentions": mentions}, ensure_ascii=False))
    write_lines(folder / "wikinews_mentions-test.jsonl", articles)
