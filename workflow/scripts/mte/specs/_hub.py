"""The Hugging Face hub repositories the specs read, each as its pages showed it on 2026-12-03
(the hub cannot be reached from where the project is written: its file trees, commits and
discussions were read through a search of stored pages). A spec names the repositories it reads
in its ``hub_repos``; docs/data-sources.md is written from these records."""

from mte.hub.repos import HubRepo

HF = "https://huggingface.co/datasets"

XTREME = HubRepo(
    id="google/xtreme",
    revision="68bd9e06bf4bbe671073c975ccd61d754e1bd3d6",
    status="files",
    page=f"{HF}/google/xtreme/commit/68bd9e06bf4bbe671073c975ccd61d754e1bd3d6",
    holds="discussion 9 ('Convert dataset to Parquet', lhoestq) adds a parquet folder per config "
    "(MLQA.*, PAN-X.*, PAWS-X.*, bucc18.*, tatoeba.*, tydiqa, udpos.*, ...) and a configs block; "
    "this is its last data commit ('Add udpos.Yoruba data files'), xtreme.py still beside them. "
    "The branch's next commit deletes the script (refs/pr/9, 21f88c0); no page read shows "
    "whether main took it, so the parquet files are read by path at this commit",
)
XNLI = HubRepo(
    id="facebook/xnli",
    revision="b8dd5d7af51114dbda02c0e3f6133f332186418e",
    page=f"{HF}/xnli/commit/b8dd5d7af51114dbda02c0e3f6133f332186418e",
    holds="'Convert dataset to Parquet (#10)' on main: a parquet folder per language and "
    "all_languages, a configs block; the loading script and dataset_infos.json deleted",
)
XQUAD = HubRepo(
    id="google/xquad",
    revision="main",
    page=f"{HF}/xquad/blob/main/README.md?code=true",
    holds="README at 'Convert dataset to Parquet (#3)' (51adfef): configs xquad.<lang>, one "
    "validation split of 1190 questions each; no page read shows the commit in full",
)
GLUE = HubRepo(
    id="nyu-mll/glue",
    revision="main",
    page=f"{HF}/nyu-mll/glue/tree/0de23925db68e9cf6287d3776a0f67f5267a42eb/mnli_matched",
    holds="parquet folders per task ('Add mnli_matched data files', albertvillanova) with "
    "validation_matched/validation_mismatched for mnli; the commit of main is not shown",
)
XCOPA = HubRepo(
    id="cambridgeltl/xcopa",
    revision="main",
    page=f"{HF}/cambridgeltl/xcopa/tree/5abe7ba112d121057faa0f8178c6ae8387f573cf/tr",
    holds="parquet per language ('Add tr data files', albertvillanova: "
    "<lang>/{validation,test}-00000-of-00001.parquet); the commit of main is not shown",
)
BELEBELE = HubRepo(
    id="facebook/belebele",
    revision="main",
    page=f"{HF}/facebook/belebele/commit/72d7d6891963b00ef52bb94cf7256000ef41ef0b",
    holds="JSON lines per variant (data/<code>.jsonl) named by a configs block, one config per "
    "variant ('Modify config to enable downloading just one language/file at a time'); the "
    "script moved to unused/",
)
WIKIANN = HubRepo(
    id="unimelb-nlp/wikiann",
    revision="main",
    page=f"{HF}/unimelb-nlp/wikiann/commits/814ec71c734c1a2c15736359e4278b83ca44616a",
    holds="parquet, one config per language with Rahimi et al.'s splits (the issue's reading); "
    "the pages read show the parquet converter's history, not main's commit",
)
SIQA = HubRepo(
    id="allenai/social_i_qa",
    revision="main",
    status="script",
    export_revision="9eb9490eb61bd4ffb5eaedf2ae22e260d8c4019e",
    page=f"{HF}/allenai/social_i_qa/commits/9eb9490eb61bd4ffb5eaedf2ae22e260d8c4019e/default/"
    "validation/0000.parquet",
    holds="main: README and social_i_qa.py (a parquet pull request, discussion 3, is not "
    "merged); the parquet export holds default/{train,validation}/0000.parquet, 'Update parquet "
    "files' at this commit",
)
CONLL2003 = HubRepo(
    id="eriktks/conll2003",
    revision="main",
    status="script",
    page=f"{HF}/eriktks/conll2003/tree/main",
    holds="main: README and conll2003.py only (the issue's reading); a refs/convert/parquet "
    "branch exists, its commit not shown",
)
CONLL2002 = HubRepo(
    id="eriktks/conll2002",
    revision="main",
    status="script",
    page=f"{HF}/eriktks/conll2002/tree/94b6b2ab574876c04cf1ac9097acf4903789315c",
    holds="main at 94b6b2a ('Delete legacy JSON metadata (#4)'): .gitattributes, README.md and "
    "conll2002.py only; no page read shows its parquet export",
)
SQUAD = HubRepo(
    id="rajpurkar/squad",
    revision="main",
    status="unsettled",
    page=f"{HF}/rajpurkar/squad_v2/discussions/6",
    holds="no page of rajpurkar/squad itself was found; its sibling squad_v2 took 'Convert "
    "dataset to Parquet' with 'Delete loading script' (merged Jan 2024): tried, else its "
    "parquet export (plain_text)",
)
SUPER_GLUE = HubRepo(
    id="aps/super_glue",
    revision="main",
    status="unsettled",
    page=f"{HF}/aps/super_glue",
    holds="no page read shows its tree: tried, else its parquet export (copa)",
)
SIB200 = HubRepo(
    id="Davlan/sib200",
    revision="main",
    status="unsettled",
    page=f"{HF}/Davlan/sib200",
    holds="no page read shows its tree or its split names (dev or validation): tried, else "
    "its parquet export; a missing validation split is read as dev",
)
PAWSX = HubRepo(
    id="google-research-datasets/paws-x",
    revision="main",
    status="unsettled",
    page=f"{HF}/google-research-datasets/paws-x",
    holds="no page read shows its tree: tried, else its parquet export (the language config)",
)
