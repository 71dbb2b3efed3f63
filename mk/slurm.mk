# mk/slurm.mk — collect on a Slurm cluster (bench
# shards as Slurm jobs).  Included by the Makefile after
# mk/collect.mk, whose variables and rules (COLLECT_DIR, shapes.tsv,
# BENCH, BENCH_EXTRA, REPS, CUBIN_CACHE, COLLECT_TIME_LIMIT, ...) it uses.
#
#   make collect GPU=h200 LAUNCHER=slurm SHARDS=16 SAMPLES=N SEED=S \
#        [SLURM_OPTS="--partition=gpu --time=02:00:00"]
#
# runs sample here, then submits one batch job per shard (sbatch --wait, via
# stages/sh/slurm_shard.sh), each running the same command as a local shard
# (collect.mk's collect_bench),
#   $(BIN)/$(BENCH) --device 0 --shard I/SHARDS ... shapes.tsv shard_IofSHARDS.txt
# on the GPU Slurm gives it (SLURM_GPU_OPT, default --gpus=1; Slurm sets
# CUDA_VISIBLE_DEVICES, so it is device 0), and waits; then merges the
# shards in index order into $(COLLECT_MERGED).  Shard I holds the inputs
# whose row index in shapes.tsv % SHARDS == I, so SHARDS is independent of
# the number of GPUs or hosts; the merged log of SHARDS=N equals the local
# one of N GPUs (GPUS=0,...,N-1) byte for byte.  A job that ends with its
# shard incomplete (failed, scancel'ed, preempted, time limit) is resubmitted
# and resumes the shard's .part file (SLURM_RETRIES resubmissions in a row
# without progress, default 3; then make fails: rerun it to resume).
#
# The checkout (build/bin, kernels/, the cubin cache) and COLLECT_DIR must be
# on storage the compute nodes share: the jobs run in this directory.
# Every shard is submitted at once: make's job count is set to SLURM_JOBS
# (default SHARDS) in this mode, whatever -j says.
#
# Variables: SHARDS (default 8), SLURM_OPTS (more sbatch options, e.g.
# --partition, --time, --account, --constraint; they come last and win),
# SLURM_GPU_OPT (default --gpus=1; empty for a CPU-only test cluster),
# SLURM_RETRIES (default 3), SLURM_JOBS (default SHARDS), SLURM_LOGS (job
# logs, locks and bench --stats files; default $(COLLECT_DIR)/slurm).

ifeq ($(LAUNCHER),slurm)
# (SHARDS, SLURM_*: mk/variables.tsv, checked there)
MAKEFLAGS += -j$(SLURM_JOBS)

SLURM_DATA := $(foreach i,$(shell seq 0 $$(($(SHARDS) - 1))),$(COLLECT_DIR)/shard_$(i)of$(SHARDS).txt)

$(COLLECT_DIR)/slurm.params: collect-force
	@mkdir -p $(@D)
	@echo "reps=$(REPS) fast_reject=$(FAST_REJECT) screen=$(SCREEN)/$(SCREEN_MS) template=$(KERNEL_TEMPLATE) cublaslt=$(CUBLASLT)$(call collect_long, long=$(LONG_MS)/$(LONG_LAUNCHES))$(call collect_loser, loser=$(LOSER_RATIO))$(call collect_warm, warm_from_verify=1)$(call collect_vcut, verify_cut=$(VERIFY_CUT)/$(VERIFY_CUT_AUDIT))" > $@.new; \
	if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

# The shard file appears only when bench renames its complete .part file.
# The job runs collect.mk's shard command (collect_bench) on device 0.
$(SLURM_DATA): $(COLLECT_DIR)/shard_%of$(SHARDS).txt: $(COLLECT_DIR)/shapes.tsv $(COLLECT_DIR)/slurm.params \
  $(COLLECT_KERNELS) | $(BIN)/$(BENCH)
	rm -f $@
	stages/sh/slurm_shard.sh --retries $(SLURM_RETRIES) --logs $(SLURM_LOGS) $@ \
		--job-name=mmrank-$(GPU)-$*of$(SHARDS) $(SLURM_GPU_OPT) $(SLURM_OPTS) -- \
		$(call collect_bench,0,$*/$(SHARDS),$(SLURM_LOGS)/stats_$*of$(SHARDS).tsv,$@)

ifneq ($(filter collect,$(MAKECMDGOALS)),)
$(COLLECT_MERGED): $(SLURM_DATA) | $(BIN)/merge
	@mkdir -p $(@D)
	$(BIN)/merge -o $@ $(SLURM_DATA)
endif
endif
