# Stand-in for torch._inductor.autoheuristic (mmrank tests, no torch needed).
