"""The tests' one stand-in for torch (PYTHONPATH=check/stub): the few torch
objects that mmrank.inductor, mmrank.install_artifact and a generated
_MMRanking*.py touch, with torch 2.11's names, order and arithmetic.  Not
PyTorch code.  The fake GPU comes from the environment: MMRANK_STUB_GPU
(device name; empty: no CUDA device), MMRANK_STUB_CAPA ("9.0"),
MMRANK_STUB_SMEM (232448), MMRANK_STUB_FP32 ("ieee")."""
import os
import types

__version__ = "2.11.0+stub"


class dtype:
    def __init__(self, name, itemsize):
        self.name, self.itemsize = name, itemsize

    def __repr__(self):
        return f"torch.{self.name}"

    __str__ = __repr__


float16 = dtype("float16", 2)
bfloat16 = dtype("bfloat16", 2)
float32 = dtype("float32", 4)


def _gpu():
    return os.environ.get("MMRANK_STUB_GPU", "NVIDIA H200")


cuda = types.SimpleNamespace(
    is_available=lambda: bool(_gpu()),
    get_device_name=lambda *a: _gpu(),
    get_device_capability=lambda *a: tuple(int(x) for x in
                                           os.environ.get("MMRANK_STUB_CAPA", "9.0").split(".")),
)
backends = types.SimpleNamespace(cuda=types.SimpleNamespace(
    matmul=types.SimpleNamespace(fp32_precision=os.environ.get("MMRANK_STUB_FP32", "ieee"))))
