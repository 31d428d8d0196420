"""The leaderboard across three real run folders (tiny models: two seeds of one, one of another),
opened in headless Chromium (Debian's chromium and chromium-driver, driven by Selenium): a click
on a header sorts the rows by that column, a second click reverses them, and the page's cells
equal the CSV's; at a laptop's 1,400 x 1,000 pixels the leaderboard, a run's report (its first
screen, through mte-report) and its analyses page show every number of our rows, none cut off.
`make test-browser` (CI) installs Chromium with apt where it is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml

from mte.leaderboard.cli import main as leaderboard
from tests.unit.test_leaderboard import check_html_against_csv
from tests.workflow.snakemake_runner import REPO, run_report, run_snakemake
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


def chromium(profile: Path):
    """A headless Chromium driven by Selenium (installed where missing, as root)."""
    reason = chromium_missing()
    if reason:
        pytest.fail(f"no headless Chromium: {reason}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def test_a_click_on_a_header_sorts_the_rows(board: Path) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium(board / "chromium-profile")
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


# Where a cell cannot be seen: an element is cut off where a box that clips or scrolls (an
# ancestor whose overflow is not visible) cannot show it - left of its scrolled content (the
# report's menu once covered the first letters of every line so), past what it scrolls to, or
# outside a box that only clips. Scrolling inside a table's own box is fine; clipping is not.
UNSEEN = r"""
function name(box) {
  var classes = typeof box.className === "string" ? box.className.trim() : "";
  return box.tagName.toLowerCase() + (classes ? "." + classes.split(/\s+/).join(".") : "");
}
function unseen(cell) {
  var rect = cell.getBoundingClientRect();
  for (var box = cell.parentElement; box && box !== document.documentElement;
       box = box.parentElement) {
    var overflow = getComputedStyle(box).overflowX;
    if (overflow === "visible") { continue; }
    var outer = box.getBoundingClientRect();
    var left = rect.left - outer.left + box.scrollLeft;
    if (left < -0.5) { return "cut off at the left by " + name(box); }
    if (overflow === "hidden" || overflow === "clip") {
      if (rect.left < outer.left - 0.5 || rect.right > outer.right + 0.5) {
        return "clipped by " + name(box);
      }
    } else if (left + rect.width > box.scrollWidth + 0.5) {
      return "past the scroll of " + name(box);
    }
  }
  return rect.left + window.scrollX < -0.5 ? "left of the page" : "";
}
var cells = Array.prototype.slice.call(document.querySelectorAll(arguments[0]));
return cells.map(function (cell) {
  var rect = cell.getBoundingClientRect();
  return [cell.textContent.trim(), unseen(cell), rect.right];
});
"""
SCREEN = (1400, 1000)


def screen_size(driver, width: int, height: int) -> None:
    """The page's viewport (not the window) at width x height pixels."""
    driver.set_window_rect(0, 0, width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_rect(0, 0, 2 * width - inner[0], 2 * height - inner[1])
    assert driver.execute_script("return [window.innerWidth, window.innerHeight]") == [
        width,
        height,
    ]


def cells_seen(driver, selector: str) -> list[tuple[str, float]]:
    """Every cell ``selector`` finds, each seen (or the test fails naming it and why): its
    text and its right edge on the screen."""
    found = driver.execute_script(UNSEEN, selector)
    assert found, f"no cell matches {selector}"
    cut = [f"{text!r}: {why}" for text, why, _ in found if why]
    assert not cut, f"cells cut off at {SCREEN[0]} pixels: {cut[:5]}"
    return [(text, right) for text, _, right in found]


def test_at_1400_pixels_every_number_of_our_rows_is_seen(board: Path) -> None:
    """The leaderboard, the first screen of a run's report (mte-report, as make report writes
    it) and its analyses page at 1,400 x 1,000: our rows' numbers are all there to be seen,
    the leaderboard's on the first screen; an average over fewer languages than the paper's
    says how many. Screenshots beside the leaderboard."""
    workdir = board.parent
    run = workdir / "results" / "runs" / "tiny-seed1"
    done = run_report(workdir, [workdir / "tiny-seed1.yaml"])
    assert done.returncode == 0, done.stderr[-3000:]
    driver = chromium(board / "chromium-profile-screens")
    try:
        screen_size(driver, *SCREEN)
        driver.get((board / "leaderboard.html").as_uri())
        ours = [(text, right) for text, right in cells_seen(driver, "tr.ours td.number") if text]
        # our columns come first: every number of ours on the first screen, not scrolled to
        assert len(ours) >= 3 * 2 and all(right <= SCREEN[0] for _, right in ours), ours
        xnli = [text for text, _ in cells_seen(driver, 'tr.ours td[data-column="xnli"]')]
        # three of XNLI's fifteen languages (the published averages are over fifteen)
        assert xnli and all("]3 of 15 languages" in text for text in xnli), xnli
        assert driver.execute_script("return document.documentElement.scrollWidth") <= SCREEN[0]
        driver.save_screenshot(str(board / "leaderboard-1400.png"))
        driver.get((run / "report.html").as_uri())
        time.sleep(2)  # the report draws itself with JavaScript
        numbers = cells_seen(driver, "td.number")
        assert any("[" in text for text, _ in numbers)  # the tables' intervals
        cells_seen(driver, "p")  # the first screen's text: no first letters under the menu
        driver.save_screenshot(str(board / "report-1400.png"))
        driver.get((run / "analyses.html").as_uri())
        cells_seen(driver, "td")
        driver.save_screenshot(str(board / "analyses-1400.png"))
    finally:
        driver.quit()
    names = "{leaderboard,report,analyses}-1400.png"
    print(f"screenshots at {SCREEN[0]} x {SCREEN[1]}: {board}/{names}")
