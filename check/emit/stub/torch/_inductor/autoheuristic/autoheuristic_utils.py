"""Minimal stand-in for torch._inductor.autoheuristic.autoheuristic_utils
(mmrank check/emit): just what a generated heuristic module imports and
calls (spec §6.1, §7.3).  Not PyTorch code."""
from typing import Any, Callable

Choice = str
Value = Any


class AHContext:
    """Feature name -> value, like Inductor's context (spec §1.1)."""

    def __init__(self) -> None:
        self.context_dict: dict[str, Value] = {}

    def add_feature(self, name: str, value: Value, is_categorical: bool = False) -> None:
        self.context_dict[name] = value

    def get_value(self, name: str) -> Value:
        return self.context_dict[name]

    def apply_operations(self, operations: list[tuple[str, Callable[[dict[str, Value]], Value]]]) -> None:
        for name, fn in operations:
            self.context_dict[name] = fn(self.context_dict)


class AHMetadata:
    def __init__(self, shared_memory: Any, device_capa: tuple[int, int],
                 choices: list[Choice], name: str) -> None:
        self.shared_memory = shared_memory
        self.device_capa = device_capa
        self.choices = choices
        self.name = name


def mm_operations() -> list[tuple[str, Callable[[dict[str, Value]], Value]]]:
    """The derived features of spec §4.1, in order: exact integer products
    and a correctly rounded true division."""
    def ai(d: dict[str, Value]) -> float:
        m, k, n = d["m"], d["k"], d["n"]
        if m == 0 or k == 0 or n == 0:
            return 0.0
        return m * k * n / (m * k + k * n + m * n)
    return [
        ("m*k", lambda d: d["m"] * d["k"]),
        ("m*n", lambda d: d["m"] * d["n"]),
        ("k*n", lambda d: d["k"] * d["n"]),
        ("arith_intensity", ai),
    ]
