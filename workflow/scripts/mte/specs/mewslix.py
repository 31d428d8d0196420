"""Mewsli-X (Botha et al. 2020; XTREME-R): entity linking as retrieval, each WikiNews mention
against the candidate set of entity descriptions; the mean reciprocal rank at 20, which
XTREME-R's evaluate.py reports as mAP@20."""

from mte.tasks.spec import Task

# the mention languages (third_party/utils_mewslix.py MENTION_LANGUAGES)
MEWSLIX_LANGUAGES = ("ar", "de", "en", "es", "fa", "ja", "pl", "ro", "ta", "tr", "uk")

TASKS = (
    Task(
        name="mewslix",
        title="Mewsli-X",
        family="entity_retrieval",
        languages=MEWSLIX_LANGUAGES,
        labels=(),
        primary_metric="map_at_20",
        metrics=("map_at_20",),
        # built by google-research's dense_representations_for_entity_retrieval/mel
        # get-mewsli-x.sh from Wikipedia and WikiNews dumps: files only
        hub_id="",
        # no URL gives the files: google-research/dense_representations_for_entity_retrieval
        # mel/get-mewsli-x.sh builds them from Wikipedia and WikiNews dumps
        manual_step="build them with google-research's dense_representations_for_entity_"
        "retrieval/mel/get-mewsli-x.sh (XTREME-R's download_data.sh, download_mewslix: its "
        "own conda environment, Wikipedia and WikiNews dumps) and put its output in this "
        "folder (docs/data-sources.md)",
        settings=("zero-shot",),
        reference="Botha et al. 2020 (Mewsli-X); XTREME-R Table 2",
        # XTREME-R's layout (wikinews_mentions/{split}-{lang}.jsonl, labels apart in
        # wikinews_labels/), else get-mewsli-x.sh's one file of every language
        files={
            split: (f"wikinews_mentions/{split}-{{lang}}.jsonl", f"wikinews_mentions-{split}.jsonl")
            for split in ("dev", "test")
        },
    ),
)
