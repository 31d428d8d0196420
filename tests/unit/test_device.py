"""Device and inference precision: what each config value resolves to, with and without a
GPU (torch's CUDA queries stubbed), and that autocast really applies."""

from __future__ import annotations

import pytest
import torch

from mte.errors import MteError
from mte.modelling.device import (
    describe,
    inference,
    inference_dtype,
    model_device,
    placement,
    to_device,
)


@pytest.fixture
def no_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)


@pytest.fixture
def gpu(monkeypatch: pytest.MonkeyPatch):
    """A visible GPU; the fixture's value sets whether it has bf16."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    has_bf16 = {"value": True}
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: has_bf16["value"])
    return has_bf16


def test_without_a_gpu_auto_is_the_cpu_in_fp32(no_gpu) -> None:
    assert placement("auto", "auto") == (torch.device("cpu"), None)
    assert placement("cpu", "auto") == (torch.device("cpu"), None)


def test_asking_for_cuda_without_a_gpu_names_the_config_key(no_gpu) -> None:
    with pytest.raises(MteError, match="config key 'device'.*no CUDA GPU"):
        placement("cuda", "auto")


def test_with_a_gpu_auto_is_the_gpu_in_bf16_or_fp16(gpu) -> None:
    assert placement("auto", "auto") == (torch.device("cuda"), torch.bfloat16)
    gpu["value"] = False  # an older GPU: fp16
    assert placement("auto", "auto") == (torch.device("cuda"), torch.float16)
    assert placement("cuda", "fp32") == (torch.device("cuda"), None)
    assert placement("cpu", "auto") == (torch.device("cpu"), None)


def test_explicit_precisions(no_gpu) -> None:
    cpu = torch.device("cpu")
    assert inference_dtype(cpu, "fp32") is None
    assert inference_dtype(cpu, "bf16") is torch.bfloat16
    assert inference_dtype(cpu, "fp16") is torch.float16


@pytest.mark.parametrize(
    ("device", "precision", "key"),
    [("gpu", "auto", "device"), ("auto", "int8", "inference_precision")],
)
def test_unknown_values_name_their_config_key(no_gpu, device, precision, key) -> None:
    with pytest.raises(MteError, match=f"config key '{key}'"):
        placement(device, precision)


def test_inference_autocasts_matrix_products_and_turns_off_autograd() -> None:
    weight = torch.randn(8, 8, requires_grad=True)
    with inference(torch.device("cpu"), torch.bfloat16):
        product = torch.randn(4, 8) @ weight
        assert product.dtype is torch.bfloat16
        assert not product.requires_grad
    with inference(torch.device("cpu"), None):
        product = torch.randn(4, 8) @ weight
        assert product.dtype is torch.float32
        assert torch.is_inference_mode_enabled()


def test_batches_follow_the_model() -> None:
    model = torch.nn.Linear(2, 2)
    assert model_device(model) == torch.device("cpu")
    assert model_device(object()) == torch.device("cpu")  # no parameters at all
    batch = to_device({"input_ids": torch.ones(2, 3, dtype=torch.long)}, model_device(model))
    assert batch["input_ids"].device == torch.device("cpu")
    assert describe(torch.device("cpu"), None) == "cpu (fp32)"
    assert describe(torch.device("cpu"), torch.bfloat16) == "cpu (bf16)"


def test_predictions_in_reduced_precision_come_back_as_fp32_on_the_cpu() -> None:
    """Every head reads fp32 CPU logits, whatever the autocast type of the forward pass."""
    import transformers

    from mte.families.qa.heads import QuestionAnsweringHead
    from mte.registry import TASKS

    torch.manual_seed(0)
    config = transformers.BertConfig(
        vocab_size=50,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
    )
    model = transformers.BertForQuestionAnswering(config)
    features = {"input_ids": [[2, 7, 9, 3], [2, 5, 3], [2, 8, 8, 8, 3]]}
    head = QuestionAnsweringHead(TASKS["xquad"])
    fields = head.output_fields
    assert fields == ("start_logits", "end_logits")
    seen = []
    for indices, outputs in head.outputs(model, features, 2, 0, False, torch.bfloat16):
        seen.extend(indices)
        for name in fields:
            assert outputs[name].dtype is torch.float32
            assert outputs[name].device == torch.device("cpu")
            assert outputs[name].shape[0] == len(indices)
    assert sorted(seen) == [0, 1, 2]


def test_every_step_records_the_cpu_model_and_its_bf16_units() -> None:
    from mte.steps.provenance import hardware, prediction_machine

    # this machine's, as /proc/cpuinfo reads (the provenance of every score and fine-tune)
    flags = set()
    model = None
    with open("/proc/cpuinfo", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("flags"):
                flags.update(line.split(":", 1)[1].split())
            elif line.startswith("model name") and model is None:
                model = line.split(":", 1)[1].strip()
    record = hardware()
    assert record["cpu_model"] == model
    assert record["cpu_bf16_units"] == [f for f in ("avx512_bf16", "amx_bf16") if f in flags]
    # torch is loaded here, as in a fine-tune or a prediction: its view of the machine too
    assert record["torch_threads"] == torch.get_num_threads()
    assert record["cuda"] is torch.cuda.is_available()
    # a prediction's machine adds the precision inference_precision resolved to there
    assert prediction_machine("cpu", "bf16") == {**record, "device": "cpu", "precision": "bf16"}
    assert prediction_machine("cpu", "auto")["precision"] == "fp32"  # auto: fp32 on a CPU
