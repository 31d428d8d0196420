"""The Hugging Face hub repositories the specs read, each pinned to a full commit where one was
seen, as its pages and public code showed it on 2026-12-05 (the hub cannot be reached from
where the project is written: its file trees, commits and discussions were read through a
search of stored pages, and the commits in public code that pins these repositories: hub
client cache paths ``snapshots/<sha>/``, ``hf://datasets/<id>@<sha>/...`` strings, MTEB's task
metadata). A spec names the repositories it reads in its ``hub_repos``; docs/data-sources.md is
written from these records. What a download read (the commit it resolved to, the SHA-256 of
each file and of the examples written) is held by the run's data lock (mte.hub.lock)."""

from mte.hub.repos import PARQUET_EXPORT, HubRepo

HF = "https://huggingface.co/datasets"
NO_COMMIT = (
    "no page or code read shows a commit of it: read at {branch}, the commit each download "
    "resolves recorded, the content held by the data lock"
)

XTREME = HubRepo(
    id="google/xtreme",
    revision="ec5f1f46e9af79639a90684a7a70a956c4998f04",
    status="files",
    page=f"{HF}/google/xtreme/tree/ec5f1f46e9af79639a90684a7a70a956c4998f04",
    holds="a parquet folder per config, <config>/<split>-00000-of-00001.parquet (MLQA.en.en "
    "validation and test, PAWS-X.es validation with string labels '0'/'1', PAN-X.*, udpos.*, "
    "tatoeba.*, bucc18.*, tydiqa); xtreme.py may still sit beside them, so the files are read "
    "by path and the script is never run",
    seen="main's commit as public code pins it: a DatasetSpec of google/xtreme MLQA.en.en at "
    "revision ec5f1f4..., and a script reading PAWS-X.es validation rows at it through the "
    "dataset viewer. No page or code shows 68bd9e06... (a commit of pull request 9), the pin "
    "before this one",
)
XNLI = HubRepo(
    id="facebook/xnli",
    revision="b8dd5d7af51114dbda02c0e3f6133f332186418e",
    page=f"{HF}/xnli/commit/b8dd5d7af51114dbda02c0e3f6133f332186418e",
    holds="'Convert dataset to Parquet (#10)' on main: a parquet folder per language and "
    "all_languages, a configs block; the loading script and dataset_infos.json deleted",
    seen="the commit page itself; public code pins facebook/xnli at it beside "
    "google-research-datasets/paws-x@4cd8187 (xnli/all_languages/test-00000-of-00001.parquet "
    "with its SHA-256)",
)
XQUAD = HubRepo(
    id="google/xquad",
    revision="51adfef1c1287aab1d2d91b5bead9bcfb9c68583",
    page=f"{HF}/xquad/blob/main/README.md?code=true",
    holds="README at 'Convert dataset to Parquet (#3)' (51adfef): configs xquad.<lang>, one "
    "validation split of 1190 questions each, xquad.<lang>/validation-00000-of-00001.parquet",
    seen="MTEB's XQuADRetrieval TaskMetadata (dataset revision 51adfef...), and public code "
    "reading xquad.<lang>/validation-00000-of-00001.parquet at it with hf_hub_download",
)
GLUE = HubRepo(
    id="nyu-mll/glue",
    revision="bcdcba79d07bc864c1c254ccfcedcce55bcc9a8c",
    page=f"{HF}/nyu-mll/glue/tree/0de23925db68e9cf6287d3776a0f67f5267a42eb/mnli_matched",
    holds="parquet folders per task ('Add mnli_matched data files', albertvillanova) with "
    "validation_matched/validation_mismatched for mnli",
    seen="a datasets download-checksum key hf://datasets/nyu-mll/glue@bcdcba7.../mrpc/"
    "train-00000-of-00001.parquet in public code, its README linked at this commit, and the "
    "datasets cache folders glue/<task>/0.0.0/bcdcba7.../ that public logs print",
)
XCOPA = HubRepo(
    id="cambridgeltl/xcopa",
    revision="042f78955ba48e6404616762fa6e05e839c3907a",
    page=f"{HF}/cambridgeltl/xcopa/blob/042f78955ba48e6404616762fa6e05e839c3907a/README.md",
    holds="parquet per language ('Add tr data files', albertvillanova: "
    "<lang>/{validation,test}-00000-of-00001.parquet); configs <lang> and translation-<lang>, "
    "no en",
    seen="its README at this commit (linked from public notes that checked its configs), and "
    "public code pinning it for xcopa tr, zh and sw (with facebook/belebele@7899cdf)",
)
BELEBELE = HubRepo(
    id="facebook/belebele",
    revision="7899cdfa4e1e0d733fd77c848e2c273cb1d32be2",
    page=f"{HF}/facebook/belebele/tree/7899cdfa4e1e0d733fd77c848e2c273cb1d32be2",
    holds="127 files: data/<code>.jsonl per variant named by a configs block (122 configs, "
    "one test split of 900 rows each), data.zip, and one .py file (its name not on the pages "
    "read): datasets 5.2 refuses a repository only for belebele.py at its root and otherwise "
    "reads the configs block, never the .py; columns link, question_number (int), "
    "flores_passage, question, mc_answer1..4, correct_answer_num (string), dialect, and ds, "
    "a date (2023-07-21), not the FLORES split",
    seen="a public schema inspection of facebook/belebele at revision 7899cdf... (its file "
    "tree, configs and a streamed slice), and public code pinning it",
)
WIKIANN = HubRepo(
    id="unimelb-nlp/wikiann",
    revision="f0a3be6dc5564c0cc4150bb660144800a1f539d4",
    page=f"{HF}/unimelb-nlp/wikiann/tree/f0a3be6dc5564c0cc4150bb660144800a1f539d4/bn",
    holds="parquet, one folder and config per language with Rahimi et al.'s splits "
    "(<lang>/{train,validation,test}-00000-of-00001.parquet)",
    seen="public code pinning it as its dataset revision (DATASET_REVISION f0a3be6..., split "
    "test), public code reading <lang>/train-00000-of-00001.parquet at it with hf_hub_download "
    "and a SHA-256 per file for 12 languages, and public notes linking its tree (bn) and README "
    "at this commit",
)
SIQA = HubRepo(
    id="allenai/social_i_qa",
    revision="537a2ec8ec565adc0b70b70752893e59e024df26",
    status="script",
    page=f"{HF}/allenai/social_i_qa/commits/9eb9490eb61bd4ffb5eaedf2ae22e260d8c4019e/default/"
    "validation/0000.parquet",
    holds="main (8835ceb...): README and social_i_qa.py only (a parquet pull request, "
    "discussion 3, is not merged); the parquet export holds default/{train,validation}/"
    "0000.parquet",
    seen=f"a commit of its parquet export ({PARQUET_EXPORT}): public code reading "
    "default/validation/0000.parquet and default/train/0000.parquet at 537a2ec... (the latter "
    "with a SHA-256, 7c4fabfb...), public notes recording asking for main's 8835ceb... and "
    "getting 537a2ec..., and a table of the branch's tip showing 537a2ec... from 2024-05-23 on",
)
CONLL2003 = HubRepo(
    id="eriktks/conll2003",
    revision="main",
    status="script",
    page=f"{HF}/eriktks/conll2003/tree/main",
    holds="main: README and conll2003.py only; a refs/convert/parquet branch exists",
    seen=NO_COMMIT.format(branch=PARQUET_EXPORT),
)
CONLL2002 = HubRepo(
    id="eriktks/conll2002",
    revision="main",
    status="script",
    page=f"{HF}/eriktks/conll2002/tree/94b6b2ab574876c04cf1ac9097acf4903789315c",
    holds="main at 94b6b2a ('Delete legacy JSON metadata (#4)'): .gitattributes, README.md and "
    "conll2002.py only",
    seen=NO_COMMIT.format(branch=PARQUET_EXPORT),
)
SQUAD = HubRepo(
    id="rajpurkar/squad",
    revision="7b6d24c440a36b6815f21b70d25016731768db1f",
    page=f"{HF}/rajpurkar/squad/blob/7b6d24c440a36b6815f21b70d25016731768db1f/README.md",
    holds="parquet on main: its README's configs block maps plain_text to "
    "plain_text/{train,validation}-* (87,599 / 10,570 questions)",
    seen="public code and notes pinning rajpurkar/squad at 7b6d24c... (revision constants, "
    "datasets cache folders squad/plain_text/0.0.0/7b6d24c.../)",
)
SUPER_GLUE = HubRepo(
    id="aps/super_glue",
    revision="3de24cf8022e94f4ee4b9d55a6f539891524d646",
    status="files",
    page=f"{HF}/aps/super_glue/tree/3de24cf8022e94f4ee4b9d55a6f539891524d646",
    holds="parquet <config>/<split>-00000-of-00001.parquet (copa, boolq, multirc, ...); read "
    "by path, so that a loading script beside them is never run",
    seen="public code reading multirc/validation-00000-of-00001.parquet at 3de24cf..., other "
    "projects' own task lists pinning it (boolq, copa, ...: their specs cite "
    "lm-evaluation-harness's prompts; the harness's own super_glue YAMLs pin no revision), "
    "and datasets cache folders super_glue/<config>/0.0.0/3de24cf.../; it is also read at "
    "5234c61e804e85e5994b14b002fa9ec34487bcfb",
)
SIB200 = HubRepo(
    id="Davlan/sib200",
    revision="38977a667f6fc264d5c26ec57a01e16db040b358",
    page=f"{HF}/Davlan/sib200/tree/38977a667f6fc264d5c26ec57a01e16db040b358",
    holds="TSV files data/<code>/{train,dev,test}.tsv (index_id, category, text) named by a "
    "per-language configs block; the splits as loaded are train / validation / test "
    "(701 / 99 / 204)",
    seen="public code pinning it: a project's own SIB-200 task configs written for lighteval "
    "(hf_revision 38977a6..., hf_avail_splits train, validation, test; not lighteval's "
    "shipped tasks), revision constants in other projects, data/<code>/train.tsv read at it "
    "and 701/99/204 rows asserted",
)
PAWSX = HubRepo(
    id="google-research-datasets/paws-x",
    revision="4cd8187c404bda33cb1f62b49b001115862acf37",
    status="files",
    page=f"{HF}/google-research-datasets/paws-x/tree/4cd8187c404bda33cb1f62b49b001115862acf37",
    holds="parquet <lang>/{train,validation,test}-00000-of-00001.parquet with a ClassLabel "
    "label ('0', '1'); the old loading script stored a label outside {0, 1} as -1",
    seen="hub client cache paths datasets--google-research-datasets--paws-x/snapshots/"
    "4cd8187.../zh/validation-00000-of-00001.parquet and resolve URLs at it in public code",
)
