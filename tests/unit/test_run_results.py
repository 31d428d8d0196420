"""results.json (mte.steps.run_results): a record per score, as the score file holds it."""

from __future__ import annotations

import hashlib
import json

from mte.steps.run_results import FORMAT, provenance_digest, run_results


def _score(language: str, seed: int, accuracy: float) -> dict:
    return {
        "task": "xnli", "language": language, "model": "m", "setting": "zero-shot",
        "seed": seed, "split": "test", "n": 54, "metrics": {"accuracy": accuracy},
        "interval": {"metric": "accuracy", "confidence": 0.95, "resamples": 1000,
                     "low": accuracy - 0.1, "high": accuracy + 0.1, "replicates": [accuracy]},
        "provenance": {"model": {"name": "m", "revision": "abc"}, "code": {"digest": "c0de"}},
    }  # fmt: skip


def test_every_score_is_one_record_with_value_interval_metric_n_and_digest() -> None:
    scores = [_score("de", 2, 0.5), _score("en", 1, 0.75)]
    paths = ["results/m/xnli/v/zero-shot/seed2/scores/de.json", "results/.../en.json"]
    found = run_results("demo", scores, paths)
    assert found["format"] == FORMAT and found["run"] == "demo"
    assert found["models"] == {"m": {"name": "m", "revision": "abc"}}
    # sorted by task, model, setting, seed, language
    first, second = found["results"]
    assert (first["seed"], second["seed"]) == (1, 2)
    assert second == {
        "task": "xnli", "language": "de", "model": "m", "setting": "zero-shot", "seed": 2,
        "split": "test", "metric": "accuracy", "value": 0.5,
        "interval": {"low": 0.4, "high": 0.6, "confidence": 0.95, "resamples": 1000},
        "n": 54, "metrics": {"accuracy": 0.5},
        "provenance_digest": provenance_digest(scores[0]["provenance"]),
        "code_digest": "c0de", "score_file": paths[0],
    }  # fmt: skip
    # the digest is SHA-256 of the provenance as canonical JSON: its keys sorted, no spaces
    canonical = '{"code":{"digest":"c0de"},"model":{"name":"m","revision":"abc"}}'
    assert second["provenance_digest"] == hashlib.sha256(canonical.encode()).hexdigest()
    json.dumps(found)  # all of it is JSON
