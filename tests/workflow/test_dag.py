"""DAG-time behaviour: paper configs build offline, bad configs stop before any job."""

from __future__ import annotations

import functools
import re
import tempfile
from pathlib import Path

import pytest
import yaml

from mte.config.checks import check_configuration
from mte.errors import ConfigError
from mte.registry import all_suites
from tests.workflow.snakemake_runner import REPO, job_counts, run_snakemake
from tools import job_counts as counts_tool

pytestmark = pytest.mark.workflow


@functools.cache
def shipped(config: str, *args: str) -> tuple[str, Path]:
    """A dry run of a shipped config (config/<config>) in a new folder, with Snakemake's
    per-job blocks unless ``args`` say otherwise: its output and the folder. Once per module:
    the paper configs' tests and the docs' job counts read the same runs."""
    folder = Path(tempfile.mkdtemp(prefix="mte-dag-"))
    return counts_tool.dry_run(config, folder, *(args or counts_tool.NO_PROFILE)), folder


def test_xtreme_config_builds_its_dag_offline() -> None:
    output, folder = shipped("xtreme.yaml")
    counts = job_counts(output)
    models = len(yaml.safe_load((REPO / "config" / "xtreme.yaml").read_text())["models"])
    # test sets of every language, plus English train and dev: XNLI 15, PAN-X 40, UD POS 33,
    # PAWS-X 7, TyDiQA 9 (trained on its own English set); SQuAD's train and dev, once for
    # XQuAD's 11 and MLQA's 7 test sets; BUCC dev and test of 4 languages; Tatoeba 36
    assert counts["download"] == 17 + 42 + 35 + 9 + 11 + 2 + 11 + 7 + 8 + 36
    assert counts["predict"] == (15 + 40 + 33 + 7 + 11 + 7 + 9) * models
    # Tatoeba and BUCC embed with the pretrained model: no fine-tune
    assert counts["retrieve"] == (36 + 4) * models
    # one fine-tune per model for XNLI, PAWS-X, UD POS, PAN-X, SQuAD (XQuAD and MLQA), TyDiQA
    assert counts["finetune"] == 6 * models
    assert not (folder / "resources").exists()


def test_xtreme_r_config_builds_its_dag_offline_from_nothing() -> None:
    """No download/ tree: the hub and the releases' URLs for every task, and for Mewsli-X,
    whose files no URL gives, one line naming the step instead of a stop."""
    output, _ = shipped("xtreme-r.yaml")
    notes = [line for line in output.splitlines() if line.startswith("Note: ")]
    assert len(notes) == 1 and "download/mewslix does not exist yet" in notes[0]
    assert "get-mewsli-x.sh" in notes[0]
    counts = job_counts(output)
    # UD-POS (LINDAT's two archives), Tatoeba and LAReQA from their release URLs
    assert counts["fetch_release"] == 3
    models = len(yaml.safe_load((REPO / "config" / "xtreme-r.yaml").read_text())["models"])
    # evaluate.py's XTREME-R languages: XNLI 15, XCOPA 11 (and Social IQa's English dev),
    # UD-POS 38, PAN-X 48, XQuAD 12, MLQA 7, TyDiQA 9
    assert counts["predict"] == (15 + 11 + 1 + 38 + 48 + 12 + 7 + 9) * models
    # Tatoeba 41 (with SQuAD's fine-tune), Mewsli-X 11 and LAReQA 11 (each with its dual
    # encoder's fine-tune) retrieve, the last two from one pool each
    assert counts["retrieve"] == (41 + 11 + 11) * models
    assert counts["embed_pool"] == 2 * models
    # XNLI, Social IQa, XCOPA (from Social IQa's), UD-POS, PAN-X, SQuAD, TyDiQA, and the dual
    # encoders of LAReQA and Mewsli-X
    assert counts["finetune"] == 9 * models
    # the XTREME-R summary is among the tables the run writes
    assert "results/runs/xtreme-r/tables/xtreme_r.csv" in output


def _base(tmp_path: Path) -> dict:
    return {
        "models": [{"name": "tiny", "source": "tiny"}],
        "tasks": {"xnli": {"source": "demo"}},
    }


def _hp(**values):
    return lambda c, t: c["tasks"]["xnli"].update({"hyperparameters": values})


# every entry: what a user gets wrong, and the one message that must name the key at fault
BAD_CONFIGS = {
    "unknown-task": (
        lambda c, t: c["tasks"].update({"nli": {"source": "demo"}}),
        "config key 'tasks.nli': unknown task 'nli'",
    ),
    "unknown-language": (
        lambda c, t: c["tasks"]["xnli"].update({"languages": ["en", "yy"]}),
        "config key 'tasks.xnli.languages': 'yy' is not a language of XNLI",
    ),
    "language-not-in-the-data": (
        lambda c, t: c["tasks"]["xnli"].update({"languages": ["en", "fr"]}),
        "config key 'tasks.xnli.languages': the demo data of XNLI has no 'fr'",
    ),
    "missing-file": (
        lambda c, t: c["tasks"].update({"xnli": {"source": "files", "path": str(t)}}),
        "config key 'tasks.xnli.path': no train file for XNLI language 'en'",
    ),
    "unknown-data-source": (
        lambda c, t: c["tasks"]["xnli"].update({"source": "s3"}),
        "config key 'tasks.xnli.source'",
    ),
    "unknown-setting": (
        lambda c, t: c.update({"settings": ["zero-shot", "few-shot"]}),
        "config key 'settings",
    ),
    "unknown-model-source": (
        lambda c, t: c.update({"models": [{"name": "m", "source": "ftp"}]}),
        "config key 'models.m.source'",
    ),
    "hub-model-without-id": (
        lambda c, t: c.update({"models": [{"name": "m", "source": "hub"}]}),
        "config key 'models.m.id'",
    ),
    "duplicate-model-names": (
        lambda c, t: c.update({"models": [{"name": "m", "source": "tiny"}] * 2}),
        "config key 'models': ",
    ),
    "zero-epochs": (_hp(epochs=0), "config key 'tasks.xnli.hyperparameters.epochs'"),
    "negative-epochs": (_hp(epochs=-2), "config key 'tasks.xnli.hyperparameters.epochs'"),
    "zero-batch-size": (_hp(batch_size=0), "config key 'tasks.xnli.hyperparameters.batch_size'"),
    "zero-learning-rate": (
        _hp(learning_rate=0),
        "config key 'tasks.xnli.hyperparameters.learning_rate'",
    ),
    "negative-learning-rate": (
        _hp(learning_rate=-1e-5),
        "config key 'tasks.xnli.hyperparameters.learning_rate'",
    ),
    "duplicate-seeds": (lambda c, t: c.update({"seeds": [1, 2, 1]}), "config key 'seeds'"),
    "translate-train-without-translations": (
        lambda c, t: c.update({"settings": ["translate-train"]}),
        "config key 'tasks.xnli.translations': 'translate-train' needs machine translations",
    ),
    "setting-without-its-data": (
        lambda c, t: c.update(
            {"settings": ["translate-train"], "tasks": {"mrpc": {"source": "demo"}}}
        ),
        "config key 'settings': MRPC has no translated data for 'translate-train'",
    ),
    "unknown-eval-split": (
        lambda c, t: c["tasks"]["xnli"].update({"eval_split": "validation"}),
        "config key 'tasks.xnli.eval_split'",
    ),
    "baseline-of-another-model": (
        lambda c, t: c.update({"statistics": {"baseline": {"model": "x", "setting": "zero-shot"}}}),
        "config key 'statistics.baseline.model': 'x' is not a configured model",
    ),
    "unknown-key": (
        lambda c, t: c.update({"seed": [1]}),
        "config key 'seed': unknown key; did you mean 'seeds'?",
    ),
    "unknown-task-key": (
        lambda c, t: c["tasks"]["xnli"].update({"languags": ["en"]}),
        "config key 'tasks.xnli.languags': unknown key; did you mean 'languages'?",
    ),
    "unknown-hyperparameter": (
        _hp(learning_rte=1e-5),
        "config key 'tasks.xnli.hyperparameters.learning_rte': unknown key; did you mean "
        "'learning_rate'?",
    ),
    "key-near-none": (
        lambda c, t: c["tasks"]["xnli"].update({"epochs": 3}),
        "config key 'tasks.xnli.epochs': unknown key; valid keys: eval_split, files,",
    ),
}


@pytest.mark.parametrize(("change", "expected"), BAD_CONFIGS.values(), ids=BAD_CONFIGS.keys())
def test_a_bad_config_is_one_error_naming_its_key(tmp_path: Path, change, expected: str) -> None:
    """The checks a run makes before any job (common.smk calls check_configuration), in this
    process: a Snakemake start for each would cost about 6 s; the three below start one."""
    config = _base(tmp_path)
    change(config, tmp_path)
    with pytest.raises(ConfigError) as raised:
        check_configuration(config, REPO / "config" / "schema.yaml")
    assert expected in f"Configuration error: {raised.value}"


# one of each kind of check, through Snakemake: the registry, the schema, the data on disk
@pytest.mark.parametrize("name", ["unknown-task", "unknown-key", "missing-file"])
def test_bad_config_stops_before_any_job(tmp_path: Path, name: str) -> None:
    change, expected = BAD_CONFIGS[name]
    config = _base(tmp_path)
    change(config, tmp_path)
    done = run_snakemake(tmp_path, config)
    assert done.returncode != 0
    assert expected in done.stderr, done.stderr[-2000:]
    assert done.stderr.count("Configuration error") == 1
    # the message, and nothing else of ours: no traceback of our code, no frame around it
    assert "Traceback" not in done.stderr and "WorkflowError" not in done.stderr
    assert not (tmp_path / "results").exists() and not (tmp_path / "resources").exists()


def test_xlmr_config_builds_its_dag_offline() -> None:
    counts = job_counts(shipped("xlmr.yaml")[0])
    config = yaml.safe_load((REPO / "config" / "xlmr.yaml").read_text())
    models = len(config["models"])
    # per model: XNLI (five seeds, as Table 1), CoNLL, SQuAD (for MLQA) zero-shot, CoNLL
    # multilingual, 8 GLUE tasks (MNLI-mm scores MNLI's fine-tune); CoNLL in-language per language
    assert counts["finetune"] == (5 + 11) * models
    assert counts["finetune_per_language"] == 3 * models
    # one summary per suite with a configured task: GLUE, and a partial XTREME summary
    # (XNLI, MLQA)
    suites = [s for s in all_suites().values() if s.configured(config["tasks"])]
    assert [s.name for s in suites] == ["glue", "xtreme_summary"]
    assert counts["summarize"] == len(suites)


def test_llm_config_plans_full_lora_and_in_context_side_by_side() -> None:
    """config/llm.yaml offline: XLM-R base fine-tuned whole and with LoRA, two decoders also
    prompted in context; Belebele's English training set, which only a script builds, is one
    note naming that step."""
    output, _ = shipped("llm.yaml")
    notes = [line for line in output.splitlines() if line.startswith("Note: ")]
    assert len(notes) == 1 and "assemble_training_set.py" in notes[0]
    counts = job_counts(output)
    # languages: XNLI 15, PAN-X 10, XQuAD 11, XCOPA 11, Belebele 10 (and its training set's
    # English dev, scored in zero-shot)
    evaluated = 15 + 10 + 11 + 11 + 10
    # fine-tuned: 3 models x (zero-shot, zero-shot-lora); prompted: the 2 decoders on every
    # task but PAN-X (no prompt)
    assert counts["predict"] == 3 * 2 * evaluated + 3
    assert counts["prompt"] == 2 * (evaluated - 10)
    # XNLI, PAN-X, SQuAD (for XQuAD), XCOPA and Belebele's training set, whole and with LoRA
    assert counts["finetune"] == 3 * 2 * 5
    assert counts["score"] == counts["predict"] + counts["prompt"]
    # a gap figure per task with English among its languages (XCOPA has none)
    assert counts["plot_language_gaps"] == 4
    # a heatmap per model and setting it runs: XLM-R 2, the decoders 3 each
    assert counts["plot_heatmap"] == 2 + 3 + 3


def test_translations_by_a_model_are_jobs_of_their_own(tmp_path: Path) -> None:
    """translate-train and translate-test with an NLLB model: each translated split is a
    translate job that reads the original split and the model, fetched once where the network
    is; nothing is loaded while the DAG is built."""
    config = {
        "models": [{"name": "tiny", "source": "tiny"}],
        "settings": ["zero-shot", "translate-train", "translate-train-all", "translate-test"],
        "tasks": {
            "xnli": {
                "source": "demo",
                "languages": ["en", "de", "zh"],
                "translations": {"source": "model", "model": "facebook/nllb-200-distilled-600M"},
                "pseudo_test": True,
            }
        },
    }
    done = run_snakemake(tmp_path, config, "-n", "--quiet", "rules")
    assert done.returncode == 0, done.stderr[-3000:]
    counts = job_counts(done.stdout + done.stderr)
    # originals: en train, en dev, 3 test sets; translated: de/zh x translate-train,
    # translate-test and pseudo-test
    assert counts["download"] == 5 and counts["translate"] == 6
    # NLLB: one model for every direction, fetched once
    assert counts["fetch_translation_model"] == 1
    dry = run_snakemake(tmp_path, config, "-n")
    assert "resources/translation-models/facebook--nllb-200-distilled-600M" in dry.stdout
    # a model translates on the GPU the job asks for
    # each job's block starts with a "[date]" line
    jobs = re.split(r"^\[", dry.stdout, flags=re.M)
    translating = [job for job in jobs if "\nrule translate:" in job]
    assert len(translating) == 6 and all("gpu=1" in job for job in translating)
    # zero-shot, translate-train-all; translate-train for de and zh
    assert counts["finetune"] == 2 and counts["finetune_per_language"] == 2
    assert counts["predict_pseudo_test"] == 2 and counts["pseudo_test_table"] == 1


def test_a_failing_job_says_so_once_with_its_log_and_no_traceback(tmp_path: Path) -> None:
    folder = tmp_path / "pawsx"
    folder.mkdir()
    good = "The cat sat .\tThe cat sat down .\t1\nA dog ran .\tA cat ran .\t0\n" * 4
    for name in ("train-en.tsv", "dev-en.tsv", "test-en.tsv"):
        (folder / name).write_text(good, encoding="utf-8")
    # line 3: two fields where PAWS-X has three
    bad = "Die Katze sa\u00df .\tDie Katze sa\u00df da .\t1\n" * 2 + "nur ein Satz\tkein Label\n"
    (folder / "test-de.tsv").write_text(bad, encoding="utf-8")
    config = {
        "models": [{"name": "tiny", "source": "tiny"}],
        "tasks": {"pawsx": {"source": "files", "path": str(folder), "languages": ["en", "de"]}},
    }
    done = run_snakemake(tmp_path, config)
    assert done.returncode != 0
    console = done.stdout + done.stderr
    failures = [line for line in console.splitlines() if "] failed: " in line]
    assert len(failures) == 1, console[-3000:]
    line = failures[0]
    assert line.startswith("[download/pawsx/")
    assert "test-de.tsv" in line and "line 3" in line
    log = line.rpartition("(log: ")[2].rstrip(")")
    assert log.startswith("results/logs/download/pawsx/") and (tmp_path / log).is_file()
    # the traceback is in the log, not on the console
    assert "Traceback" not in console
    assert "Traceback" in (tmp_path / log).read_text(encoding="utf-8")


def test_a_fine_tune_that_starts_from_another_tasks_reads_its_model(tmp_path: Path) -> None:
    """``start_from``: CoLA (here on SST-2's tiny files: both label sentences "0" or "1")
    starts from SST-2's fine-tune of the same model and seed, which is SST-2's own zero-shot
    run, built once; SST-2 starts from the pretrained model."""
    from tests.workflow.tiny_data import write_glue

    glue = tmp_path / "glue"
    write_glue(glue)
    sst = {"source": "files", "path": str(glue / "SST-2")}
    cola = {
        "source": "files",
        "path": str(glue / "SST-2"),
        "files": {"train": "train.tsv", "dev": "dev.tsv"},
        "start_from": "sst2",
    }
    config = {
        "models": [{"name": "tiny", "source": "tiny"}],
        "tasks": {"sst2": sst, "cola": cola},
        "seeds": [1, 2],
    }
    dry = run_snakemake(tmp_path, config, "-n")
    assert dry.returncode == 0, dry.stderr[-3000:]
    jobs = re.split(r"^\[", dry.stdout, flags=re.M)
    finetunes = {
        re.search(r"output: results/tiny/(\w+)/", job).group(1)
        + re.search(r"seed(\d)", job).group(1): job
        for job in jobs
        if "\nrule finetune:" in job
    }
    assert sorted(finetunes) == ["cola1", "cola2", "sst21", "sst22"]
    for seed in (1, 2):
        inputs = re.search(r"input: (.*)", finetunes[f"cola{seed}"]).group(1)
        started = re.search(r"results/tiny/sst2/[^/]+/zero-shot/seed(\d)/model", inputs)
        assert started and started.group(1) == str(seed)
        assert "resources/models/tiny" in re.search(r"input: (.*)", finetunes[f"sst2{seed}"])[1]


def test_the_console_leaves_out_snakemakes_job_blocks_by_default(tmp_path: Path) -> None:
    """profiles/default (read when no profile is given) quiets Snakemake's per-job blocks; the
    job table stays, and --workflow-profile none brings the blocks back."""
    config = _base(tmp_path)
    blocks = run_snakemake(tmp_path, config, "-n")  # the test runner's: no profile
    quiet = run_snakemake(
        tmp_path, config, "-n", "--workflow-profile", str(REPO / "profiles" / "default")
    )
    assert blocks.returncode == quiet.returncode == 0, quiet.stderr[-2000:]
    assert "rule finetune:" in blocks.stdout + blocks.stderr
    assert "rule finetune:" not in quiet.stdout + quiet.stderr
    assert job_counts(quiet.stdout + quiet.stderr) == job_counts(blocks.stdout + blocks.stderr)
    lines = len((quiet.stdout + quiet.stderr).splitlines())
    assert lines * 4 < len((blocks.stdout + blocks.stderr).splitlines())


def test_the_light_rules_template_is_no_job_of_its_own(tmp_path: Path) -> None:
    """light_step only lends its directives to the light rules (workflow/rules/light.smk):
    asked for by name, it stops with a message saying so, before any job."""
    done = run_snakemake(tmp_path, REPO / "config" / "config.yaml", "-n", "light_step")
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert "is the template of the light rules" in output, output[-2000:]
    assert not (tmp_path / "results").exists()


def test_the_docs_job_counts_are_those_of_a_dry_run() -> None:
    """docs/running.md's jobs per rule of every shipped config and docs/clusters.md's SLURM
    submissions are what tools/job_counts.py writes from fresh dry runs (make job-counts), and
    docs/decoders.md's table of config/llm.yaml holds the same numbers."""
    outputs = {name: shipped(name)[0] for name in counts_tool.CONFIGS}
    # the demo's console with the default profile, as the tool counts it
    quiet = len(counts_tool.dry_run("config.yaml", shipped("config.yaml")[1]).splitlines())
    full = len(outputs["config.yaml"].splitlines())
    running, slurm = counts_tool.sections(outputs, (quiet, full))
    assert running in (REPO / "docs" / "running.md").read_text(encoding="utf-8"), (
        "docs/running.md's job counts are stale: make job-counts"
    )
    assert slurm in (REPO / "docs" / "clusters.md").read_text(encoding="utf-8"), (
        "docs/clusters.md's SLURM job counts are stale: make job-counts"
    )
    llm = counts_tool.job_counts(outputs["llm.yaml"])
    table = (REPO / "docs" / "decoders.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([a-z_ /]+) \| ([0-9, /]+) \|", table, re.M)
    assert rows
    for names, numbers in rows:
        for name, number in zip(names.split(" / "), numbers.split(" / "), strict=True):
            expected = sum(llm.values()) if name == "total" else llm[name]
            assert int(number.replace(",", "")) == expected, f"docs/decoders.md: {name}"


def test_the_readmes_one_line_evaluation_of_a_new_model_plans_what_it_says() -> None:
    """README: a paper config on any hub model with --config model=..., no YAML written: the
    dry run plans the job count the README states, for that one model, into its own run."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = re.search(r"--configfile config/xtreme\.yaml --config (model=\S+)", readme)
    stated = re.search(r"`-n` plans ([\d,]+) jobs", readme)
    assert command and stated
    args = ("--workflow-profile", "none", "--config", command.group(1))
    output, _ = shipped("xtreme.yaml", *args)
    counts = job_counts(output)
    assert sum(counts.values()) == int(stated.group(1).replace(",", ""))
    assert counts["prepare_model"] == 1 and "resources/models/xlm-roberta-base" in output
    assert "results/runs/xtreme-xlm-roberta-base/tables/xtreme_summary.csv" in output
    assert "results/runs/xtreme/" not in output


def _download_folder(root: Path) -> Path:
    """A tiny XTREME download/ with panx/, udpos/ and tatoeba/ laid out as download_data.sh
    writes them, lacking PAN-X's th and UD-POS's de as a public copy of it does."""
    from mte.registry import get_task

    tagged = "Berlin\tB-LOC\nliegt\tO\n\n"
    for task, lacking in (("panx", "th"), ("udpos", "de")):
        folder = root / task
        folder.mkdir(parents=True)
        for name in ("train-en.tsv", "dev-en.tsv"):
            (folder / name).write_text(tagged, encoding="utf-8")
        for language in get_task(task).languages:
            if language != lacking:
                (folder / f"test-{language}.tsv").write_text(tagged, encoding="utf-8")
    tatoeba = get_task("tatoeba")
    (root / "tatoeba").mkdir()
    for language in tatoeba.languages:
        code = tatoeba.file_codes[language]
        for side in (code, "eng"):
            (root / "tatoeba" / f"tatoeba.{code}-eng.{side}").write_text("a\nb\n")
    return root


def test_the_whole_benchmark_overlay_plans_every_language_its_download_folder_has(
    tmp_path: Path,
) -> None:
    """config/xtreme-e5-cpu.yaml over config/xtreme.yaml, pointed at a download/ folder by one
    --config key (docs/whole-benchmark.md): PAN-X, UD-POS and Tatoeba only, with the embedded
    model, every language the folder holds (th and de left out, not stopped at)."""
    download = _download_folder(tmp_path / "download")
    configs = [REPO / "config" / "xtreme.yaml", REPO / "config" / "xtreme-e5-cpu.yaml"]
    done = run_snakemake(tmp_path, configs, "-n", "--config", f"files_root={download}")
    assert done.returncode == 0, done.stderr[-3000:]
    counts = job_counts(done.stdout + done.stderr)
    # PAN-X 39 of XTREME's 40 languages, UD-POS 32 of its 33; Tatoeba's 36 embedded
    assert counts["predict"] == 39 + 32 and counts["retrieve"] == 36
    assert counts["finetune"] == 2 and counts["prepare_model"] == 1
    # test files, and English train and dev of the two fine-tuned tasks
    assert counts["download"] == 39 + 2 + 32 + 2 + 36
    assert "resources/models/e5-small" in done.stdout
    assert "results/runs/xtreme-e5-cpu/tables/xtreme_summary.csv" in done.stdout
