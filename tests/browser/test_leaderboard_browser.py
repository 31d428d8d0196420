"""The leaderboard across three real run folders (tiny models: two seeds of one, one of another),
opened in headless Chromium (Debian's chromium and chromium-driver, driven by Selenium): a click
on a header sorts the rows by that column, a second click reverses them, and the page's cells
equal the CSV's. `make test-browser` (CI) installs Chromium with apt where it is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
import yaml

from mte.leaderboard.cli import main as leaderboard
from tests.unit.test_leaderboard import check_html_against_csv
from tests.workflow.snakemake_runner import REPO, run_snakemake
from tests.workflow.tiny_data import write_pawsx

pytestmark = pytest.mark.browser

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
# as root on a machine without a network: no sandbox, none of Chromium's background connections
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1600,1000",
)  # fmt: skip
SMALL = {"epochs": 1, "batch_size": 8, "max_length": 32}
RUNS = {  # run name: model name, tiny shape, seeds
    "tiny-seed1": ("tiny", None, [1]),
    "tiny-seed2": ("tiny", None, [2]),
    "xlmr-seed1": ("tiny-xlmr", "xlmr", [1]),
}


def chromium_missing() -> str | None:
    """Why Chromium cannot be driven here (None when it can; installs Debian's packages with
    apt as root where they are missing)."""
    if Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists():
        return None
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return f"{CHROMIUM} or {CHROMEDRIVER} is missing: apt-get install chromium chromium-driver"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "chromium", "chromium-driver"],
    ):
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
        if done.returncode != 0:
            return f"{' '.join(command)} failed: {done.stderr[-500:]}"
    return None


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three runs in one checkout's working directory, and their leaderboard."""
    from mte.hub.tiny_models import build_tiny_model, demo_texts

    workdir = tmp_path_factory.mktemp("leaderboard")
    write_pawsx(workdir / "pawsx")
    tasks = {
        "xnli": {"source": "demo", "languages": ["en", "de", "es"], "hyperparameters": SMALL},
        "pawsx": {
            "source": "files",
            "path": str(workdir / "pawsx"),
            "languages": ["en", "de"],
            "hyperparameters": SMALL,
        },
    }
    for run, (model, shape, seeds) in RUNS.items():
        folder = workdir / f"model-{model}"
        if not folder.exists():
            build_tiny_model(folder, demo_texts(), seed=0, **({"shape": shape} if shape else {}))
        config = {
            "run": run,
            "models": [{"name": model, "source": "local", "path": str(folder)}],
            "tasks": tasks,
            "settings": ["zero-shot"],
            "seeds": seeds,
        }
        path = workdir / f"{run}.yaml"
        path.write_text(yaml.safe_dump(config), encoding="utf-8")
        done = run_snakemake(workdir, path)
        assert done.returncode == 0, done.stderr[-3000:]
    folders = [str(workdir / "results" / "runs" / run) for run in RUNS]
    out = workdir / "leaderboard"
    references = str(REPO / "config" / "references")
    assert leaderboard([*folders, "--out", str(out), "--references", references]) == 0
    return out


def test_the_page_equals_the_csv_and_links_each_run(board: Path) -> None:
    table = pd.read_csv(board / "leaderboard.csv")
    ours = table[table["row"] == "ours"]
    assert list(ours["run"]) == list(RUNS)
    assert list(ours["model"]) == ["tiny", "tiny", "tiny-xlmr"]
    assert ours["xnli"].notna().all() and ours["pawsx"].notna().all()
    assert (table["row"] == "published").sum() > 0
    # the runs scored the same demo items: every row but the best is tested against it
    assert ours["xnli_p"].notna().sum() == 2
    assert check_html_against_csv(board / "leaderboard.csv", board / "leaderboard.html") > 20
    for provenance in ours["provenance"]:
        assert Path(provenance).is_file()


def test_a_click_on_a_header_sorts_the_rows(board: Path) -> None:
    reason = chromium_missing()
    if reason:
        pytest.fail(f"no headless Chromium: {reason}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={board / 'chromium-profile'}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.get((board / "leaderboard.html").as_uri())

        def column(name: str) -> list[str]:
            cells = driver.find_elements(By.CSS_SELECTOR, f'tbody td[data-column="{name}"]')
            return [cell.get_attribute("data-value") for cell in cells]

        def numbers(values: list[str]) -> list[float]:
            return [float(v) for v in values if v != ""]

        before = column("xnli")
        table = pd.read_csv(board / "leaderboard.csv")
        assert len(before) == len(table)
        driver.find_element(By.CSS_SELECTOR, 'th[data-column="xnli"]').click()
        first = column("xnli")
        # high to low, the rows without a value last: the published XNLI rows above ours
        assert first != before
        assert numbers(first) == sorted(numbers(first), reverse=True)
        assert first[: len(numbers(first))] == [v for v in first if v != ""]
        assert numbers(first)[0] == table["xnli"].max()
        driver.find_element(By.CSS_SELECTOR, 'th[data-column="xnli"]').click()
        second = column("xnli")
        assert numbers(second) == sorted(numbers(second))
        assert second[len(numbers(second)) :] == [""] * (len(second) - len(numbers(second)))
        # the rows move whole: each of our rows keeps its run beside its number
        runs = column("run")
        by_run = table.set_index("run")["xnli"].dropna()
        kept = [(run, float(value)) for run, value in zip(runs, second, strict=True) if run]
        assert [run for run, _ in kept] != [] and len(kept) == len(RUNS)
        for run, value in kept:
            assert value == pytest.approx(by_run[run], abs=1e-4)
        # a text column sorts A to Z
        driver.find_element(By.CSS_SELECTOR, 'th[data-column="setting"]').click()
        settings = column("setting")
        assert settings == sorted(settings)
        screenshot = board / "leaderboard.png"
        driver.find_element(By.CSS_SELECTOR, 'th[data-column="xnli"]').click()
        driver.save_screenshot(str(screenshot))
        print(f"screenshot (sorted by XNLI, high to low): {screenshot}")
    finally:
        driver.quit()
