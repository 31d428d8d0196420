# Two commands for a fresh machine: `make run` (install, then the default workflow) and
# `make test` (install, then the tests). Everything installs into .venv inside the checkout.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CORES ?= all

.PHONY: install run test test-long test-slurm test-real real-readme lint format clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/snakemake --cores $(CORES)
	$(BIN)/snakemake --report results/report.html

test: $(STAMP)
	$(BIN)/pytest -q

# end-to-end reliability runs kept out of the default run for time: determinism, a hard kill
test-long: $(STAMP)
	$(BIN)/pytest -q tests/long

# the workflow on a real single-node SLURM cluster the test starts (root; installs SLURM with apt)
test-slurm: $(STAMP)
	$(BIN)/pytest -q tests/cluster

# the real model on the real files in ../shared/data, held to floors (tests/real)
test-real: $(STAMP)
	$(BIN)/python tests/real/run_tier.py
	$(BIN)/pytest -q tests/real

# the README's real-tier figures, from results-real/summary.json
real-readme: $(STAMP)
	$(BIN)/python tests/real/readme_section.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/snakefmt --check Snakefile workflow/rules

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .
	$(BIN)/snakefmt Snakefile workflow/rules

clean:
	rm -rf results resources .snakemake
