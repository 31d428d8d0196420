# Two commands for a fresh machine: `make run` (install, then the default workflow) and
# `make test` (install, then the tests). Everything installs into .venv inside the checkout.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CORES ?= all

.PHONY: data-sources job-counts install run update-lock report leaderboard submission parity-evaluate test test-long test-long-ci test-shapes test-architectures test-slurm test-browser test-smoke test-real test-protocols real-readme smoke-readme protocols-readme measure-run parity lint format clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# CONFIG: a config file to run instead of the demo (make run CONFIG=config/xtreme.yaml), or a
# config and its overlays (CONFIG="config/xtreme.yaml config/xtreme-e5-cpu.yaml"); VALUES: its
# --config values (VALUES=files_root=/data/xtreme/download); each run ends in its report,
# results/runs/<run>/report.html (mte-report)
CONFIG ?=
VALUES ?=
CONFIG_FILES := $(if $(CONFIG),--configfile $(CONFIG))
CONFIG_ARGS := $(CONFIG_FILES) $(if $(VALUES),--config $(VALUES))
run: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) $(CONFIG_ARGS)
	$(BIN)/mte-report $(CONFIG_ARGS)

# accept on purpose data whose bytes differ from the run's data lock (docs/data-sources.md, "The
# data lock"): every download of CONFIG, nothing else; the lock then says what changed
update-lock: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) $(CONFIG_FILES) --config $(VALUES) update_lock=true

# the report of a finished run of any config: results/runs/<run>/report.html
report: $(STAMP)
	$(BIN)/mte-report $(CONFIG_ARGS)

# one leaderboard across run folders (docs/leaderboard.md): RUNS names them (default: every run
# of this checkout), OUT where leaderboard.csv and leaderboard.html go
RUNS ?= $(wildcard results/runs/*)
OUT ?= results/leaderboard
leaderboard: $(STAMP)
	$(BIN)/mte-leaderboard $(RUNS) --out $(OUT)

# (--durations: each run's slowest tests in its log, where CI time is to be won back)
# unit and workflow tests on TEST_WORKERS pytest-xdist workers (most of the time is
# single-threaded Python); a file's tests stay on one worker (its module fixtures run once),
# and the shared family run runs once (tests/workflow/family_run.py)
TEST_WORKERS ?= 2
test: $(STAMP)
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadfile --durations=10

# end-to-end runs kept out of the default run for time: determinism, a hard kill, and every
# transfer setting with the pseudo test analysis, CoNLL and UD POS (their parts have unit tests),
# and the default and paper configs run one after another in one checkout (about 35 minutes).
# LONG picks files: CI runs the first two only (LONG_CI), the other two take 30 of the minutes
LONG ?= tests/long
LONG_CI := tests/long/test_determinism.py tests/long/test_interrupted.py
test-long: $(STAMP)
	$(BIN)/pytest -q --durations=0 $(LONG)

test-long-ci: $(STAMP)
	$(BIN)/pytest -q --durations=0 $(LONG_CI)

# every family end to end with the tiny models of XLM-R's and mBERT's shapes, the decoders of
# Llama's, Qwen2's and Gemma's (docs/decoders.md) and DeBERTa-v2's, RemBERT's, ELECTRA's,
# DistilBERT's and mT5's (docs/running.md#architectures), with the checks make test makes of the
# tiny BERT's run (about 45 minutes; out of CI for its time)
test-shapes: $(STAMP)
	MTE_TEST_SHAPES=tiny-xlmr,tiny-mbert,tiny-llama,tiny-qwen2,tiny-gemma,tiny-deberta-v2,tiny-rembert,tiny-electra,tiny-distilbert,tiny-mt5 $(BIN)/pytest -q -m families tests/workflow

# the newer encoders (tiny DeBERTa-v2, RemBERT, ELECTRA, DistilBERT, mT5, each with its own
# tokenizer class) through the families that once failed for them: the dual encoder, multiple
# choice, retrieval embeddings; one run for the five (in CI; make test-shapes runs every family)
test-architectures: $(STAMP)
	$(BIN)/pytest -q --durations=5 tests/architectures

# the workflow on a real single-node SLURM cluster the test starts (root; installs SLURM with apt)
test-slurm: $(STAMP)
	$(BIN)/pytest -q --durations=0 tests/cluster

# the leaderboard of three tiny runs in headless Chromium: a click on a header sorts the rows
# (installs Debian's chromium and chromium-driver with apt where they are missing, as root)
test-browser: $(STAMP)
	$(BIN)/pytest -q --durations=0 tests/browser

# CI-sized: the real model on small slices of the real files, one seed, held to floors measured
# on three (tests/smoke); it fails when the pipeline stops learning or scoring right
test-smoke: $(STAMP)
	$(BIN)/python tools/run_tier.py smoke
	$(BIN)/pytest -q tests/smoke

# the real model on the real files in ../shared/data, held to floors (tests/real)
test-real: $(STAMP)
	$(BIN)/python tools/run_tier.py
	$(BIN)/pytest -q tests/real

# docs/results.md's real-tier figures, from results-real/summary.json
real-readme: $(STAMP)
	$(BIN)/python tools/readme_section.py real

# one-off protocol comparisons docs/results.md reports (XTREME's QA windows, Tatoeba with the
# SQuAD encoder, LAReQA's dual encoder): tests/configs/protocols-*.yaml, about an hour, no floors
test-protocols: $(STAMP)
	$(BIN)/python tools/run_tier.py protocols

# docs/results.md's protocol sections, from results-protocols/summary.json
protocols-readme: $(STAMP)
	$(BIN)/python tools/readme_section.py protocols

# docs/results.md's smoke-tier floors table, from a run with TIER_SEEDS=1,2,3
smoke-readme: $(STAMP)
	$(BIN)/python tools/readme_section.py smoke

# make run's workflow on a fresh clone of HEAD, timed, with the machine and its load: writes
# docs/measured/make-run.json and the README's sentence about make run's time from it
measure-run: $(STAMP)
	$(BIN)/python tools/measure_run.py

# the project's features against XTREME's own feature code on transformers 2.4.1 (docs/parity.md):
# XTREME names a checkout of google-research/xtreme; DATA the files (default ../shared/data);
# PARITY_ARGS more of tools/parity/harness.py's options (--tokenization fast, --limit 100)
XTREME ?=
DATA ?= ../shared/data
# the parity environment, made again where it lacks the stand-ins of tools/parity/stand_ins.py
# (an environment of an earlier version read them from a folder that is gone)
PARITY_ENV = tools/parity/.venv/bin/python -c 'import botocore.config, tokenizers' 2>/dev/null || bash tools/parity/setup.sh
parity: $(STAMP)
	@test -n "$(XTREME)" || { echo "make parity XTREME=<a checkout of google-research/xtreme>"; exit 2; }
	$(PARITY_ENV)
	$(BIN)/python tools/parity/harness.py --xtreme $(XTREME) --data $(DATA) $(PARITY_ARGS)

# XTREME's evaluate.py, unmodified from the checkout XTREME names, in the parity environment, on
# its mock_test_data and on the export of the shared tiny run, against mte-evaluate and the
# project's score files (tests/parity; docs/submission.md)
parity-evaluate: $(STAMP)
	@test -n "$(XTREME)" || { echo "make parity-evaluate XTREME=<a checkout of google-research/xtreme>"; exit 2; }
	$(PARITY_ENV)
	XTREME=$(abspath $(XTREME)) $(BIN)/pytest -q -s -m parity tests/parity

# a run's XTREME and XTREME-R leaderboard submissions (docs/submission.md): per model, setting and
# seed the folder evaluate.py reads, and its zip where the run covers the leaderboard
submission: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) $(CONFIG_ARGS) submissions

# docs/running.md's jobs per rule of every shipped config and docs/clusters.md's SLURM
# submissions, from dry runs (tools/job_counts.py; tests/workflow/test_dag.py holds them)
job-counts: $(STAMP)
	$(BIN)/python tools/job_counts.py

# docs/data-sources.md, from the task specs (each hub source, release URL and checksum)
data-sources: $(STAMP)
	$(BIN)/python -m mte.steps.data_sources

# ruff, the architecture contract of .importlinter (layers, families apart, no cycles), snakefmt
# and Snakemake's own lint
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/snakefmt --check Snakefile workflow/rules
	$(BIN)/snakemake --lint

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .
	$(BIN)/snakefmt Snakefile workflow/rules

clean:
	rm -rf results resources .snakemake
