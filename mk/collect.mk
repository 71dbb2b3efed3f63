# mk/collect.mk — collecting AutoHeuristic data on our own GPUs
# (spec §2, §3; design.md
# "Parallel", "Resumable").  Included by the top-level Makefile, which
# defines BIN, BUILD, CC, WARN, CFLAGS, LDLIBS, LIBA, LIB_HDR, CUDA, GPU,
# GPUS, SAMPLES, SEED, REPS, FAST_REJECT, SCREEN, SCREEN_MS, LONG_MS,
# LONG_LAUNCHES, LOSER_RATIO, WARM_FROM_VERIFY, VERIFY_CUT, VERIFY_CUT_AUDIT.
#
#   make collect GPU=h200 GPUS=0,1 SAMPLES=N SEED=S [REPS=3] [FAST_REJECT=1.5] [SCREEN=1.3]
#                [SCREEN_MS=2] [SHAPES=FILE] [KERNEL_TEMPLATE=triton [LONG_MS=10]
#                [LONG_LAUNCHES=2] [LOSER_RATIO=0] [WARM_FROM_VERIFY=0] [VERIFY_CUT=0]
#                [VERIFY_CUT_AUDIT=10]]
#                [BACKEND=inductor] [-j]
#
# runs sample (4*N inputs; or, with SHAPES=FILE, takes the shape list FILE:
# stages/FORMATS.md "shape list", e.g. datasets/shapes/real.tsv, explicit
# and padded strides measured and logged as given), then one bench shard
# per GPU in GPUS (shard i of
# len(GPUS), device = the i-th id) in parallel under make -j, then merges
# the shards into $(COLLECT_MERGED) (default out/$(GPU)/merged.txt, the
# MAIN_LOG the training rules read for a non-official GPU) with
# build/bin/merge.
# Each shard is resumable: bench works in data_<dev>.txt.part (never
# deleted by make) and renames it to data_<dev>.txt when complete; rerun the
# same make command after a crash, a kill, or a COLLECT_TIME_LIMIT stop.
# Outputs depend on shapes.tsv, the parameters (stamp files that change only
# when the values change), the kernel templates and config lists
# (COLLECT_KERNELS); the stage
# binaries are order-only prerequisites, so rebuilding them (e.g. after a
# comment edit) does not re-run a collection.
#
# KERNEL_TEMPLATE=triton (Inductor's own candidates and ids, bench --template
# triton): before the shards, the variants the shapes need are listed
# (build/bin/triton_cands --variants) and the missing ones compiled with
# mmrank.bench.triton_aot (python/) in parallel (TRITON_JOBS, default all CPUs; no
# GPU needed) into $(CUBIN_CACHE)/triton-<hash>-<triton version>-sm<arch>/,
# a make step (the stamp triton_cubins.stamp, triton_aot's summary); bench
# then only loads.  LONG_MS, LONG_LAUNCHES (bench --long-ms, --long-launches:
# the long-kernel rule of this back end's Inductor timing, 0 = off) are passed
# and stamped for it only; so is LOSER_RATIO (bench --loser-ratio: the loser
# cut; checked by stages/sh/vars.sh), and only when not 0 (the default: the
# commands and stamps stay as before), and WARM_FROM_VERIFY (bench
# --warm-from-verify: the verification call as the warm-up) only when 1, and
# VERIFY_CUT, VERIFY_CUT_AUDIT (bench --verify-cut, --verify-cut-audit) only
# when VERIFY_CUT is not 0.  `make triton-cubins` does that step alone (on a CPU
# machine: carry $(CUBIN_CACHE) to the GPU host), for SHAPES=FILE or for the
# collection SAMPLES/SEED would draw.  TRITON_CUBINS=DIR names the folder
# instead (then no python3/triton is asked for it: a carried cache).
# Each finished shard has data_<dev>.txt.versions.tsv (bench: the back end,
# its tables' torch version, its cubins' Triton version, the device); the
# merge writes their distinct lines to $(COLLECT_MERGED).versions.tsv, the
# torch and triton columns of datasets/MANIFEST.<gpu>.tsv.
# BACKEND=inductor: Inductor's own collection (mk/inductor.mk,
# mmrank.bench.inductor_collect) measures each shard instead of bench,
# sharded, resumed and merged the same way.
#
# Variables: KERNEL_TEMPLATE (mm, mma, mma+wgmma or triton, bench --template;
# default mma+wgmma: kernels/wgmma.cu needs an sm_90 GPU, elsewhere it is not
# offered),
# COLLECT_DIR (default out/$(GPU)/collect), GPU_MEM_BYTES (for
# sample's memory rejection; default 150754820096 = 143771 MiB, an H200),
# SAMPLE_MAX_GFLOP (sample --max-gflop: reject problems above G GFLOP; not
# in the reference distribution, for small device budgets; default off),
# COLLECT_TIME_LIMIT (seconds per shard run; bench stops after the input in
# flight, or before one it predicts would end past it, and make fails with
# exit 2 — rerun to resume), CUBIN_CACHE
# (default $(BUILD)/cubin), CUBIN_ARCH (for `make cubins`, default sm_90),
# BENCH (the program in $(BIN) that measures: bench, or bench-fake for CPU
# tests), CUBLASLT (a cuBLASLt algorithm list, e.g. kernels/cublaslt_algos.tsv:
# bench --cublaslt, each algorithm a choice of its own; default none),
# BENCH_EXTRA (more bench options, e.g. --fake-delay-ms 100),
# LAUNCHER (local: the shards run here, one per GPU in GPUS, under make -j;
# slurm: one Slurm job per shard, see mk/slurm.mk).
#
# Binaries: $(BIN)/bench (the CUDA measurer: needs the CUDA toolkit to build,
# a GPU to run) and $(BIN)/bench-fake (the deterministic fake, for tests);
# sources in stages/gpu/bench/ (stages/gpu/bench/bench.c lists them).
# bench reaches the driver API through cudaGetDriverEntryPointByVersion and
# therefore does not link -lcuda: it starts on a machine without a driver
# and says so, instead of failing in the dynamic loader.

# BACKEND, PYTHON, INDUCTOR_*: Inductor's own collection (read before the
# shard rules below expand collect_bench)
include mk/inductor.mk

# ---- the prerequisites, checked when make starts --------------------------
# A collection measures on this machine's GPUs (LAUNCHER=local; bench or
# Inductor's own collection): without a CUDA device for each id in GPUS
# (stages/sh/gpu-check.sh: nvidia-smi -L) make stops here, before sample,
# the Triton compiles (KERNEL_TEMPLATE=triton: 9 065 cubins, about 50
# minutes on 2 cores) or a shard runs anything.  Not for BENCH=bench-fake
# (the CPU dry run), LAUNCHER=slurm (the jobs run elsewhere), make
# triton-cubins (no GPU needed) or a dry run (make -n).
COLLECT_GOALS := $(filter collect evaluate-online,$(MAKECMDGOALS))
ifneq ($(and $(COLLECT_GOALS),$(filter bench,$(BENCH)),$(if $(MAKE_DRY),,y),$(or \
  $(filter evaluate-online,$(COLLECT_GOALS)),$(filter local,$(LAUNCHER)))),)
ifneq ($(shell stages/sh/gpu-check.sh $(call sq,$(GPUS)) && echo y),y)
$(error make $(COLLECT_GOALS): needs a CUDA device for each of GPUS=$(GPUS) (above; nvidia-smi -L \
  lists them): run it on the GPU host, BENCH=bench-fake for a CPU dry run, or make triton-cubins to \
  compile Triton's cubins without a GPU; nothing was run)
endif
endif
# KERNEL_TEMPLATE=triton compiles with Triton (mmrank.bench.triton_aot) unless
# TRITON_CUBINS names a carried cubin folder: without triton importable by
# PYTHON make stops here, naming it, instead of a Python traceback later.
ifneq ($(and $(filter collect triton-cubins,$(MAKECMDGOALS)),$(filter triton,$(KERNEL_TEMPLATE)),$(filter \
  bench,$(BACKEND)),$(if $(TRITON_CUBINS),,y),$(if $(MAKE_DRY),,y)),)
ifneq ($(shell $(PYTHON) -c 'import triton' >/dev/null 2>&1 && echo y),y)
$(error KERNEL_TEMPLATE=triton: '$(PYTHON) -c "import triton"' fails: the Triton cubins are compiled \
  with Triton: pip install triton==3.6.0 (the committed collections' version) for $(PYTHON), or name \
  a carried cubin folder with TRITON_CUBINS=DIR; nothing was run)
endif
endif

# The variables above, their defaults and checks: mk/variables.tsv.  SHAPES=FILE
# is validated and written once per input by `shapes --from-list`;
# KERNEL_TEMPLATE's candidate families: docs/STAGES.md "bench", --template.
BENCH_LDLIBS        = -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -lcublas -lcublasLt -lnvrtc -lcudart

# The bench wing (stages/gpu/bench/): the driver, the plan and the back ends'
# plan halves (BENCH_COMMON) go into both binaries; the CUDA measurer and the
# back ends' GPU halves (BENCH_GPU) into bench only, with libmmcuda (the CUDA
# helpers of stages/gpu/cuda/, shared with the kernel harnesses of perf/kernels/);
# the fake measurer (fake.c) into bench-fake only.  backends.c is compiled
# with -DBENCH_CUDA for bench (its table then names the GPU halves).  A new
# back end adds its plan half to BENCH_COMMON, its GPU half to BENCH_GPU and
# a line to backends.c (stages/gpu/bench/backend.h).
BENCH_COMMON = $(addprefix stages/gpu/bench/,bench.c args.c collect.c online.c discover.c \
                 inputs.c fields.c configs.c plan.c block.c resume.c screen.c lt.c \
                 backends.c nvrtc.c triton.c)
BENCH_GPU    = $(addprefix stages/gpu/bench/,cuda.c cuda_measure.c cuda_screen.c cuda_time.c \
                 cuda_extern.c cuda_lt.c nvrtc_gpu.c triton_gpu.c triton_launch.c \
                 triton_timing.c triton_meta.c)
BENCH_DEPS   = $(BENCH_COMMON) $(wildcard stages/gpu/bench/*.h) $(POLICY_SRC) $(POLICY_HDR) $(LIBA) $(LIB_HDR)
CUDA_SRC     = $(wildcard stages/gpu/cuda/*.c)
CUDA_HDR     = $(wildcard stages/gpu/cuda/*.h)
CUDALIB      = $(BUILD)/libmmcuda.a

$(BUILD)/cuda/%.o: stages/gpu/cuda/%.c $(CUDA_HDR) $(LIB_HDR) | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(WARN) $(CFLAGS) $(INC) -isystem $(CUDA_INC) -c -o $(TMP_OUT) $< $(commit)

$(CUDALIB): $(patsubst stages/gpu/cuda/%.c,$(BUILD)/cuda/%.o,$(CUDA_SRC))
	$(if $(Q),@echo "  AR      $@")
	$(Q)ar rcs $(TMP_OUT) $^ $(commit)

# bench and the test-only bench-bug: one link, bench-bug with its defines
# (BENCH_DEFS below)
$(BIN)/bench $(BUILD)/test/bench-bug: $(BENCH_DEPS) $(BENCH_GPU) $(CUDALIB) $(CUDA_HDR)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CCLD    $@")
	$(Q)$(CC) $(WARN) $(CFLAGS) -DBENCH_CUDA $(BENCH_DEFS) $(INC) \
		-isystem $(CUDA_INC) -o $(TMP_OUT) $(BENCH_COMMON) $(BENCH_GPU) $(POLICY_SRC) $(CUDALIB) $(LIBA) \
		$(BENCH_LDLIBS) $(LDLIBS) $(commit)

# The test-only bench-bug: bench with every NVRTC candidate compiled with
# MMRANK_BUG (a deliberately wrong kernel, kernels/mm.cu; its own cubin
# names, *-bug.cubin), for check/gpu/test_bench_gpu.sh to prove that
# verification rejects a wrong kernel.  Not in $(BIN): no shipped program
# has a switch for it (`make test-bins` builds it; needs CUDA, like bench).
.PHONY: test-bins
test-bins: $(BUILD)/test/bench-bug
$(BUILD)/test/bench-bug: BENCH_DEFS = -DMMRANK_TEST_BAD_KERNEL -DBENCH_PROG='"bench-bug"'

# Inductor's candidates of a shape list, or the compile variants they need
# (stages/gpu/bench/triton_cands.c: a CPU tool of its own)
$(BIN)/triton_cands: stages/gpu/bench/triton_cands.c $(POLICY_SRC) $(POLICY_HDR) $(LIBA) $(LIB_HDR)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CCLD    $@")
	$(Q)$(CC) $(WARN) $(CFLAGS) $(INC) -o $(TMP_OUT) $< $(POLICY_SRC) $(LIBA) $(LDLIBS) $(commit)

$(BIN)/bench-fake: $(BENCH_DEPS) stages/gpu/bench/fake.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CCLD    $@")
	$(Q)$(CC) $(WARN) $(CFLAGS) $(INC) -DBENCH_PROG='"bench-fake"' -o $(TMP_OUT) \
		$(BENCH_COMMON) stages/gpu/bench/fake.c $(POLICY_SRC) $(LIBA) $(LDLIBS) $(commit)

# The kernel harnesses (perf/kernels/build.sh, perf/kernels/README.md): a
# small harness library of their own plus libmmcuda and libmmrank.
HARNESS_LIB = perf/kernels/harness.c perf/kernels/harness_gpu.c
HARNESS_BIN = $(BUILD)/mma/mma_harness $(BUILD)/mma/wgmma_harness
.PHONY: harnesses
harnesses: $(HARNESS_BIN)
$(HARNESS_BIN): $(BUILD)/mma/%: perf/kernels/%.c $(HARNESS_LIB) perf/kernels/harness.h perf/kernels/harness_gpu.h \
                $(CUDALIB) $(CUDA_HDR) $(LIBA) $(LIB_HDR)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CCLD    $@")
	$(Q)$(CC) $(WARN) $(CFLAGS) $(INC) -isystem $(CUDA_INC) \
		-o $(TMP_OUT) $< $(HARNESS_LIB) $(CUDALIB) $(LIBA) -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) \
		-lcublas -lnvrtc -lcudart -lm $(commit)

# Precompile every candidate cubin (all shrinks, all dtypes) for CUBIN_ARCH
# into CUBIN_CACHE on a machine without a GPU (then carry the cache).
.PHONY: cubins
cubins: $(BIN)/bench
	$(BIN)/bench --compile-only $(CUBIN_ARCH) --kernels kernels --template $(KERNEL_TEMPLATE) --cache $(call sq,$(CUBIN_CACHE))

# The bench settings that become parameter stamps (KERNEL_TEMPLATE, SHAPES,
# SCREEN, SCREEN_MS, LONG_MS up to bench --long-ms's 1e9, LONG_LAUNCHES, ...)
# are checked with every other variable before anything runs (stages/sh/vars.sh,
# mk/variables.tsv): a value bench would refuse must not change a stamp and so
# remove the finished shards it concerns before bench says so.
# The long-kernel rule's settings, for the triton back end only (the others
# have no such rule: their stamps and commands do not change).
collect_long = $(if $(filter triton,$(KERNEL_TEMPLATE)),$(1))
collect_pos = $(shell awk -v x=$(call sq,$(1)) 'BEGIN { exit !(x > 0) }' && echo y)
collect_loser = $(call collect_long,$(if $(call collect_pos,$(LOSER_RATIO)),$(1)))
collect_warm = $(call collect_long,$(if $(filter 1,$(WARM_FROM_VERIFY)),$(1)))
collect_vcut = $(call collect_long,$(if $(call collect_pos,$(VERIFY_CUT)),$(1)))

# The merged log's versions: the distinct key/value lines of the shards'
# sidecars (bench's LOG.versions.tsv; inductor_collect's LOG.inputs.tsv,
# whose first line names torch, triton, device), in shard order.
# $(call collect_versions,SHARD LOGS)
collect_versions = { echo 'key	value'; for f in $(1); do \
	if [ -f $$f.versions.tsv ]; then tail -n +2 $$f.versions.tsv; \
	elif [ -f $$f.inputs.tsv ]; then echo 'backend	inductor'; sed -n '1s/^\# inductor_collect //p' $$f.inputs.tsv | \
	  tr ' ' '\n' | grep -E '^(torch|triton|device)=' | sed 's/=/	/'; fi; done | awk '!seen[$$0]++'; } \
	> $(COLLECT_MERGED).versions.tsv

# ---- collection ---------------------------------------------------------
collect_comma := ,
COLLECT_GPUS  := $(subst $(collect_comma), ,$(GPUS))
COLLECT_N     := $(words $(COLLECT_GPUS))
# "dev:index" pairs, e.g. "0:0 1:1"
COLLECT_PAIRS := $(shell i=0; for d in $(COLLECT_GPUS); do echo $$d:$$i; i=$$((i+1)); done)
COLLECT_DATA  := $(foreach d,$(COLLECT_GPUS),$(COLLECT_DIR)/data_$(d).txt)

.PHONY: collect collect-force
collect: $(COLLECT_MERGED)

# Parameter stamps: rewritten only when the values change.
$(COLLECT_DIR)/sample.params: collect-force
	@mkdir -p $(@D)
	@echo "$(if $(SHAPES),shapes=$(abspath $(SHAPES)),seed=$(SEED) samples=$(SAMPLES) gpu_mem_bytes=$(GPU_MEM_BYTES) max_gflop=$(SAMPLE_MAX_GFLOP))" > $@.new; \
	if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

$(COLLECT_DIR)/bench.params: collect-force
	@mkdir -p $(@D)
	@echo "backend=$(BACKEND) $(if $(filter inductor,$(BACKEND)),inductor_reps=$(INDUCTOR_REPS) extra=$(INDUCTOR_EXTRA),reps=$(REPS) fast_reject=$(FAST_REJECT) screen=$(SCREEN)/$(SCREEN_MS) template=$(KERNEL_TEMPLATE) cublaslt=$(CUBLASLT)$(call collect_long, long=$(LONG_MS)/$(LONG_LAUNCHES))$(call collect_loser, loser=$(LOSER_RATIO))$(call collect_warm, warm_from_verify=1)$(call collect_vcut, verify_cut=$(VERIFY_CUT)/$(VERIFY_CUT_AUDIT))) gpus=$(GPUS)" > $@.new; \
	if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

# sample.params also names SHAPES: switching between a list and sampling
# remakes shapes.tsv
ifeq ($(SHAPES),)
$(COLLECT_DIR)/shapes.tsv: $(COLLECT_DIR)/sample.params | $(BIN)/sample
	$(BIN)/sample --seed $(SEED) --samples $(SAMPLES) --gpu-mem-bytes $(GPU_MEM_BYTES) \
		$(if $(SAMPLE_MAX_GFLOP),--max-gflop $(SAMPLE_MAX_GFLOP)) -o $@
else
$(COLLECT_DIR)/shapes.tsv: $(COLLECT_DIR)/sample.params $(SHAPES) | $(BIN)/shapes
	$(BIN)/shapes --from-list $(SHAPES) -o $@
endif

# ---- KERNEL_TEMPLATE=triton: the cubins, compiled before the shards ------
# The entry folder for this kernel source, Triton version and arch
# (mmrank.bench.triton_aot --entry-dir; asked only when the triton template is used).
TRITON_ENTRY = $(or $(TRITON_CUBINS),$(shell $(PYPKG_ENV) $(PYTHON) -m mmrank.bench.triton_aot --cache $(call sq,$(CUBIN_CACHE)) \
		--arch $(call sq,$(TRITON_ARCH)) --entry-dir 2>/dev/null),$(error KERNEL_TEMPLATE=triton: \
		'$(PYTHON) -m mmrank.bench.triton_aot --entry-dir' failed: install triton (pip install \
		triton==3.6.0), or name a carried cubin folder with TRITON_CUBINS=DIR))
TRITON_SRC := kernels/triton_mm.py kernels/inductor_mm_configs.tsv kernels/inductor_mm_params.tsv
$(COLLECT_DIR)/triton_variants.tsv: $(COLLECT_DIR)/shapes.tsv $(TRITON_SRC) | $(BIN)/triton_cands
	$(BIN)/triton_cands --variants $< $@
# the stamp holds triton_aot's summary (variants, compiled, cached, failed)
$(COLLECT_DIR)/triton_cubins.stamp: $(COLLECT_DIR)/triton_variants.tsv python/mmrank/bench/triton_aot.py
	$(if $(TRITON_CUBINS),@echo "TRITON_CUBINS=$(TRITON_CUBINS): compiling nothing" > $@,$(PYTHON) \
		-m mmrank.bench.triton_aot --cache $(call sq,$(CUBIN_CACHE)) --arch $(TRITON_ARCH) --jobs $(TRITON_JOBS) \
		$< > $@.part && mv $@.part $@ && cat $@ || { rm -f $@.part; exit 1; })
.PHONY: triton-cubins
triton-cubins: $(COLLECT_DIR)/triton_cubins.stamp

# What a shard's output depends on besides shapes.tsv and its parameter
# stamp, and the command that measures it -- the same for every LAUNCHER:
# $(call collect_bench,DEVICE,I/N,STATS,LOG).
ifeq ($(BACKEND),inductor)
COLLECT_KERNELS := $(INDUCTOR_COLLECT_SRC)
COLLECT_PROG    :=
else ifeq ($(KERNEL_TEMPLATE),triton)
COLLECT_KERNELS := $(TRITON_SRC) $(COLLECT_DIR)/triton_cubins.stamp
COLLECT_PROG    := $(BIN)/$(BENCH)
else
COLLECT_KERNELS := kernels/mm.cu kernels/configs.tsv kernels/mma.cu kernels/mma_configs.tsv \
                   kernels/wgmma.cu kernels/wgmma_configs.tsv
COLLECT_PROG    := $(BIN)/$(BENCH)
endif
collect_bench = $(if $(filter inductor,$(BACKEND)),$(call inductor_collect_bench,$(1),$(2),$(3),$(4)),\
		$(BIN)/$(BENCH) --device $(1) --shard $(2) --reps $(REPS) \
		--fast-reject $(FAST_REJECT) --screen $(SCREEN) --screen-ms $(SCREEN_MS) \
		--kernels kernels --template $(KERNEL_TEMPLATE) --cache $(call sq,$(CUBIN_CACHE)) \
		$(if $(filter triton,$(KERNEL_TEMPLATE)),--triton-cubins $(TRITON_ENTRY) \
		  --long-ms $(LONG_MS) --long-launches $(LONG_LAUNCHES)) \
		$(call collect_loser,--loser-ratio $(LOSER_RATIO)) \
		$(call collect_warm,--warm-from-verify) \
		$(call collect_vcut,--verify-cut $(VERIFY_CUT) --verify-cut-audit $(VERIFY_CUT_AUDIT)) \
		$(if $(COLLECT_TIME_LIMIT),--time-limit $(COLLECT_TIME_LIMIT)) \
		$(if $(CUBLASLT),--cublaslt $(CUBLASLT)) \
		--stats $(3) $(BENCH_EXTRA) $(COLLECT_DIR)/shapes.tsv $(4))

ifeq ($(LAUNCHER),local)
# One shard per GPU: $(1) device id, $(2) shard index.  collect_bench is
# expanded when the recipe runs ($$), not here: the triton probe
# (TRITON_ENTRY) must not stop make before the settings check.
define collect_shard
$(COLLECT_DIR)/data_$(1).txt: $(COLLECT_DIR)/shapes.tsv $(COLLECT_DIR)/bench.params $(COLLECT_KERNELS) | $(COLLECT_PROG)
	rm -f $$@
	$$(call collect_bench,$(1),$(2)/$(COLLECT_N),$(COLLECT_DIR)/stats_$(1).tsv,$$@)
endef
$(foreach p,$(COLLECT_PAIRS),$(eval $(call collect_shard,$(word 1,$(subst :, ,$(p))),$(word 2,$(subst :, ,$(p))))))

# Only `make collect` (re)makes the merged log: training on it (make
# heuristic) must never re-collect because a parameter stamp changed.
ifneq ($(filter collect,$(MAKECMDGOALS)),)
$(COLLECT_MERGED): $(COLLECT_DATA) | $(BIN)/merge
	@mkdir -p $(@D)
	$(BIN)/merge -o $@ $(COLLECT_DATA)
	$(if $(Q),@echo "  VERSION $@.versions.tsv")
	$(Q)$(call collect_versions,$(COLLECT_DATA))
endif
endif

# ---- make evaluate-online GPU=h200 SAMPLES=N ----
# Fresh inputs (ONLINE_SEED, which no collection in datasets/ used) through
# bench --use-heuristic with this GPU's pruned tree: per input the top-RANKING
# choices + extern_mm are benchmarked, then every candidate; prints the
# geometric-mean regret, the share within 1 % of the oracle and the
# benchmarking time saved.  Output: $(O)/online/online.tsv.
ONLINE_DIR  := $(O)/online
# the candidate family the tree was trained on (its choice ids say which)
ONLINE_TEMPLATE = $(shell grep -q 'nvrtc_mma_' $(call sq,$(O)/pruned.tsv) 2>/dev/null && echo mma || echo mm)
.PHONY: evaluate-online
evaluate-online: $(ONLINE_DIR)/online.tsv
$(ONLINE_DIR)/sample.params: collect-force
	@mkdir -p $(@D)
	@echo "seed=$(ONLINE_SEED) samples=$(SAMPLES) gpu_mem_bytes=$(GPU_MEM_BYTES) max_gflop=$(SAMPLE_MAX_GFLOP)" > $@.new; \
	if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi
$(ONLINE_DIR)/shapes.tsv: $(ONLINE_DIR)/sample.params | $(BIN)/sample
	@mkdir -p $(@D)
	$(BIN)/sample --seed $(ONLINE_SEED) --samples $(SAMPLES) --gpu-mem-bytes $(GPU_MEM_BYTES) \
	  $(if $(SAMPLE_MAX_GFLOP),--max-gflop $(SAMPLE_MAX_GFLOP)) -o $@
$(ONLINE_DIR)/online.params: collect-force
	@mkdir -p $(@D)
	@echo "reps=$(REPS) ranking=$(RANKING) gpus=$(GPUS)" > $@.new; \
	if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi
$(ONLINE_DIR)/online.tsv: $(ONLINE_DIR)/shapes.tsv $(O)/pruned.tsv $(ONLINE_DIR)/online.params | $(BIN)/bench
	$(BIN)/bench --device $(firstword $(subst $(collect_comma), ,$(GPUS))) --reps $(REPS) \
	  --template $(ONLINE_TEMPLATE) \
	  --cache $(call sq,$(CUBIN_CACHE)) --use-heuristic $(O)/pruned.tsv --ranking $(RANKING) $< $@
