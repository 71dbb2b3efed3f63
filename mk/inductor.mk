# mk/inductor.mk — `make collect BACKEND=inductor`: Inductor's own
# AutoHeuristic collection (python3 -m mmrank.bench.inductor_collect: labels
# from the path the official data took) as the command of each collection
# shard.  Needs python3 with torch and a CUDA GPU on the collecting host.
#
#   make collect BACKEND=inductor GPU=h200 GPUS=0,1 SAMPLES=N [INDUCTOR_REPS=1]
#        [INDUCTOR_EXTRA="--triton-cache DIR"] [COLLECT_TIME_LIMIT=s]
#
# Same shard conventions as bench: shard i of len(GPUS) on the i-th device,
# inputs whose row index % N == i, the log built in data_<dev>.txt.part and
# renamed to data_<dev>.txt when complete (resumable: rerun the same make
# command), exit 2 on COLLECT_TIME_LIMIT; merge combines the shards.  The
# sidecar data_<dev>.txt.inputs.tsv keeps per-input seconds and the torch and
# Triton versions; stats_<dev>.tsv the totals and inputs/hour.
#
# Variables: INDUCTOR_REPS (fresh autotunings per input, each one row per
# candidate; default 1, gen_data_mm.py uses 3; bench's REPS counts timed
# repetitions instead and is not used here), INDUCTOR_EXTRA (more
# inductor_collect options: --triton-cache DIR to share compiled Triton
# kernels across inputs, --process-per-input), PYTHON (default python3).
#
# Hook needed in mk/collect.mk (not ours to edit; for the lead):
#   1. the shard command: collect_bench = $(if $(filter inductor,$(BACKEND)),
#      $(call inductor_collect_bench,$(1),$(2),$(3),$(4)),<bench's command>)
#   2. the shard rule's prerequisites: $(COLLECT_KERNELS) -> $(if $(filter
#      inductor,$(BACKEND)),$(INDUCTOR_COLLECT_SRC),$(COLLECT_KERNELS)), and the
#      order-only | $(BIN)/$(BENCH) dropped for BACKEND=inductor
#   3. BACKEND and INDUCTOR_REPS in the bench.params stamp line
#   4. `include mk/inductor.mk` before collect.mk is read (its
#      $(eval)s expand collect_bench at parse time)

# (BACKEND, INDUCTOR_REPS, INDUCTOR_EXTRA, PYTHON: mk/variables.tsv)
INDUCTOR_COLLECT_SRC := $(addprefix python/mmrank/bench/inductor_,collect.py shapes.py log.py torch.py)

# $(call inductor_collect_bench,DEVICE,I/N,STATS,LOG), like collect_bench
inductor_collect_bench = $(PYTHON) -m mmrank.bench.inductor_collect --device $(1) --shard $(2) \
		--reps $(INDUCTOR_REPS) $(if $(COLLECT_TIME_LIMIT),--time-limit $(COLLECT_TIME_LIMIT)) \
		--stats $(3) $(INDUCTOR_EXTRA) $(COLLECT_DIR)/shapes.tsv $(4)
