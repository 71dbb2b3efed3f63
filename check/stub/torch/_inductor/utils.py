"""Stand-in: get_gpu_shared_memory (per-block opt-in shared memory)."""
import os


def get_gpu_shared_memory():
    return int(os.environ.get("MMRANK_STUB_SMEM", "232448"))
