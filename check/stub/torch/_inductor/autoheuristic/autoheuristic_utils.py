"""Stand-in for torch/_inductor/autoheuristic/autoheuristic_utils.py (torch
2.11): the context, metadata and mm operations mmrank.inductor and a
generated artifact use, with the same names, order and arithmetic."""
from typing import Any

import torch

Choice = str
Value = Any


class AHOperation:
    def __init__(self, name, func, is_categorical=False):
        self.name, self.func, self.is_categorical = name, func, is_categorical

    def apply_operation(self, data):
        data[self.name] = self.func(data)


class AHContext:
    def __init__(self):
        self.features = []
        self.context_dict = {}

    def add_feature(self, name, value, is_categorical=False):
        self.features.append((name, value, is_categorical))
        self.context_dict[name] = value

    def get_value(self, name):
        return self.context_dict[name]

    def apply_operations(self, operations):
        for op in operations:
            op.apply_operation(self.context_dict)


class AHMetadata:
    def __init__(self, shared_memory, device_capa, choices, name):
        self.shared_memory = shared_memory
        self.device_capa = device_capa
        self.choices = choices
        self.name = name


def _arith_intensity(d):
    m, k, n = d["m"], d["k"], d["n"]
    if m == 0 or k == 0 or n == 0:
        return 0.0
    return m * k * n / (m * k + k * n + m * n)


def mm_operations():
    return [AHOperation("m*k", lambda d: d["m"] * d["k"]),
            AHOperation("m*n", lambda d: d["m"] * d["n"]),
            AHOperation("k*n", lambda d: d["k"] * d["n"]),
            AHOperation("arith_intensity", _arith_intensity)]


def context_add_strides(context, name, stride):
    for i, s in enumerate(stride):
        context.add_feature(f"{name}_stride_{i}", s)


def context_add_using_tf32(context, dtype):
    using_tf32 = "not_float_32"
    if dtype == torch.float32:
        using_tf32 = torch.backends.cuda.matmul.fp32_precision == "tf32"
    context.add_feature("using_tf32", using_tf32, is_categorical=True)
