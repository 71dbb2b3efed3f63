# mk/nvmmh.mk — the optional stage nvmmh: NVIDIA's analytic
# nvMatmulHeuristics ranks each input's Triton choices, a peer of the trees
# in eval and compare.  It links the library's C API, so it is not part of
# `make all`; $(BIN)/nvmmh builds only where stages/sh/nvmmh-dir.sh finds the
# library (NVMMH_DIR, or the Python package nvidia-matmul-heuristics) and
# otherwise fails with the reason, which callers turn into a skip.
# (NVMMH_DIR: mk/variables.tsv)
$(BIN)/nvmmh: stages/nvmmh.c $(LIBA) $(LIB_HDR) stages/sh/nvmmh-dir.sh
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CCLD    $@")
	$(Q)d=$$(stages/sh/nvmmh-dir.sh $(call sq,$(NVMMH_DIR))) && \
	  $(CC) $(WARN) $(CFLAGS) $(INC) -isystem "$$d/include" -o $(TMP_OUT) $< $(LIBA) \
	    "$$d/lib/libnvMatmulHeuristics.so.0" -Wl,-rpath,"$$d/lib" $(LDLIBS) $(commit)

.PHONY: nvmmh
nvmmh: $(BIN)/nvmmh
