"""mmrank.bench — the Python back ends of the C stage bench (no torch at import):

  triton_aot        compile the Triton mm variants ahead of time into the cubin
                    cache bench loads (make collect KERNEL_TEMPLATE=triton)
  triton_configs    Inductor's mm candidate tables, read from a torch
  inductor_collect  Inductor's own AutoHeuristic collection (BACKEND=inductor),
                    with inductor_shapes, inductor_log, inductor_text and
                    inductor_torch (the one module that needs torch)

Run as `python3 -m mmrank.bench.<module> --help`.
"""
