# mmrank — AutoHeuristic mm ranking pipeline in C.  `make help` lists targets.
#
# Data flow (see docs/DESIGN.md and stages/FORMATS.md):
#   datasets/<gpu>_mm.zip -> out/<gpu>/*.txt -> featurize -> fit -> prune -> emit (m4)
#   sample -> shapes.tsv -> bench -> data_<dev>.txt -> merge -> out/<gpu>/merged.txt

# make -e (or MAKEFLAGS=e) lets the environment override every variable a
# makefile sets, the internal ones too (O, the stage commands): refused before
# anything reads one.  MAKEFLAGS' first word holds the one-letter flags.
ifneq ($(findstring e,$(filter-out -% %=%,$(firstword $(MAKEFLAGS)))),)
$(error make -e (--environment-overrides, or e in MAKEFLAGS) is not supported: it lets the environment \
  override the makefiles' own variables; give settings on the command line instead (make help); nothing was run)
endif
SHELL := /bin/bash
.DELETE_ON_ERROR:
.SUFFIXES:
MAKEFLAGS += --no-builtin-rules
# The Python tools are modules of the mmrank package (python/), run as
# `python3 -m mmrank.X` with this checkout's package first on PYTHONPATH, in
# recipes (export) and in $(shell) ($(PYPKG_ENV): make 4.3 exports nothing to it).
# The caller's PYTHONPATH follows, unexpanded ($(value)).
export PYTHONPATH := $(CURDIR)/python$(if $(value PYTHONPATH),:$(value PYTHONPATH))
PYPKG_ENV = PYTHONPATH=$(call sq,$(PYTHONPATH))

# ---- user variables: mk/variables.tsv ----------------------------------------
# Every variable a user sets is one row of mk/variables.tsv (its kind, range,
# default, the stage option it feeds, its help).  mk/vars.mk reads it first:
# it checks the characters of every value given on the command line or in the
# environment in pure make (nothing expands a value before), refuses a
# command-line variable it does not know ("did you mean GPU?") and defines the
# defaults.  The values are checked once more against their ranges by
# stages/sh/vars.sh below, before anything runs.
include mk/vars.mk

# Names the makefiles use but set only in some branches (PARTS_BIN,
# zip_fetch, zip_check) or for some targets (UNIT_SRC, BENCH_DEFS): empty
# here, because make takes a name it does not define from the environment,
# and expands it (PARTS_BIN='$$(shell ...)' would run).  check/t7190-settings.sh
# runs the main goals with --warn-undefined-variables: none may be left.
PARTS_BIN  :=
zip_fetch  :=
zip_check  :=
UNIT_SRC   :=
BENCH_DEFS :=

# What the defaults use: the folder of one GPU, its upper-case name, the
# reference trainer's learning options (one model, spec §5.10 rule,
# frequency-ordered leaves: PROFILE=reference and make compare's (a), (d)),
# the GPU's facts and profile (mk/gpus.mk) and the number of CPUs (each
# asked once, when first used).
O               := $(OUT)/$(GPU)
GPU_UC          := $(call mmr_map,$(GPU),$(mmr_lower),$(mmr_upper))
REF_GRID        := mm
REF_SELECT      := top1
REF_LEAF_RANK   := freq
REF_LEARN        = --grid $(REF_GRID) --select $(REF_SELECT) --leaf-rank $(REF_LEAF_RANK) --folds 0
# A parameter stamp changes (and so triggers a rebuild) only when its text
# does; sq quotes any text for the shell.
sq = '$(subst ','\'',$(1))'
# A stamp written by the recipe that succeeded with it, so that a failing
# setting changes nothing: $(call stamp_stale,FILE,TEXT) is FORCE (asked when
# the rule is read) unless FILE holds TEXT; $(call stamp_write,FILE,TEXT)
# ends that recipe.
stamp_stale = $(shell echo $(call sq,$(2)) | cmp -s - $(call sq,$(1)) 2>/dev/null || echo FORCE)
stamp_write = echo $(call sq,$(2)) > $(1)
.PHONY: FORCE
FORCE:
# $(call mmr_once,NAME,TEXT): NAME's value is TEXT, expanded when first used
mmr_once = $(eval $(1) = $$(eval $(1) := $(2))$$($(1)))
# The GPU facts (datasets/GPUS.tsv): the defaults of GPU_MEM_BYTES,
# CUBIN_ARCH and the GPU profile's SELECT and LEAF_RANK, emit's GPU data,
# the C header (the rows of GPU_FACTS, for PROFILE=ours the rows of
# PROFILES: docs/RESULTS.md section 2.7 for the official GPUs and h200,
# section 2.6 for the '*' row).
include mk/gpus.mk
$(call mmr_once,MMR_NPROC,$$(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1))

# ---- the values, checked before anything runs (stages/sh/vars.sh) -------------
# Every variable's value against its kind and range (mk/variables.tsv) and the
# rules across variables: a bad value stops make here, at parse time, so no
# parameter stamp is rewritten and no good output is deleted.
VARS_BAD := $(shell stages/sh/vars.sh --goals $(call sq,$(MAKECMDGOALS)) --given $(call sq,$(MMR_USER)) \
  $(foreach n,$(MMR_NAMES),$(call sq,$(n)=$($(n)))))
ifneq ($(VARS_BAD),)
$(error bad settings (above); nothing was run)
endif

# make install-artifact: what it needs (below, "our artifact inside Inductor")
inductor_install  = $(PYPKG_ENV) python3 -m mmrank.install_artifact $(1) $(if $(TORCH_ARTIFACTS),--artifacts-dir $(call sq,$(TORCH_ARTIFACTS)))
ifneq ($(filter install-artifact,$(MAKECMDGOALS)),)
ifneq ($(shell $(call inductor_install,check) >/dev/null && echo y),y)
$(error make install-artifact: nothing was built or installed (above))
endif
endif

# ---- one make at a time in one output folder ----------------------------------
# Two makes with different settings in one $(O) (the default and SEED=7, say)
# would interleave their stages and leave a .c of one tree beside a .py of the
# other, which every later make calls up to date.  So a goal that writes in
# $(O) first takes $(O)/.lock (stages/sh/lock.sh, flock), before anything here
# reads a stamp there, and holds it until this make exits: a second make waits,
# saying so, then sees the first's stamps and rebuilds what its settings
# change.  (Waiting rather than refusing: both runs end as if run one after the
# other, which is what a user who started both expects.  Stamping each
# artifact set instead would detect a mix only after it was written.)  A dry
# run (make -n, -q) writes nothing and takes no lock; a make under a make that
# holds the lock ($(MAKE) in a recipe) does not take it again.
# A make killed alone (kill -9) leaves its running recipe behind (emit, say),
# which would publish after the next make has finished.  So every recipe of
# a make holding the lock runs under stages/sh/lock-shell.sh, its SHELL: a
# shared lock of $(O)/.lock.run, held by the recipe's every process (an
# inherited descriptor) until the last one exits; the next make's lock.sh
# waits for it before it reads anything (docs/VARIABLES.md).
MAKE_DRY := $(findstring n,$(filter-out -% %=%,$(firstword $(MAKEFLAGS))))$(findstring \
  q,$(filter-out -% %=%,$(firstword $(MAKEFLAGS))))
MMR_LOCK_GOALS := heuristic fetch featurize fit prune emit promote compare eval report unpack collect \
  evaluate-online install-artifact triton-cubins
ifneq ($(filter $(MMR_LOCK_GOALS),$(MAKECMDGOALS)),)
ifeq ($(MAKE_DRY),)
# (the environment's value, unexpanded: a parent make's, or anyone's)
ifneq ($(value MMR_LOCK_HELD),$(abspath $(O)))
# lock.sh prints the process id it locked for, or - where it needs no lock
MMR_LOCK_PID := $(shell stages/sh/lock.sh $(call sq,$(abspath $(O))) $$PPID)
ifeq ($(MMR_LOCK_PID),)
$(error cannot lock $(O)/.lock (above); nothing was run)
endif
export MMR_LOCK_HELD := $(abspath $(O))
ifneq ($(MMR_LOCK_PID),-)
export MMR_LOCK_PID
export MMR_LOCK_RUN := $(abspath $(O))/.lock.run
SHELL := stages/sh/lock-shell.sh
endif
endif
endif
endif

# ---- toolchain (CC, CFLAGS, CUDA, BUILD: mk/variables.tsv) -------------------
WARN     = -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE
# the include path: stages/ (an include across folders names its folder,
# docs/LAYOUT.md) and $(BUILD) for the generated "gen/gpus.h" (mk/gpus.mk)
INC      = -iquote stages -iquote $(BUILD)
LDLIBS   = -ljansson -lzip -lisal -lm -pthread
SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
Q       := $(if $(filter 1,$(V)),,@)

# BUILD=build (optimised) or build/san (ASan+UBSan, used by `make check`)
ifneq ($(filter %build/san,$(BUILD)),)
CFLAGS  := $(SANFLAGS)
endif
BIN      = $(BUILD)/bin
# Every build output (object, archive, program) is written under a name of
# its own, $(TMP_OUT), and renamed onto $@ by $(commit): two makes at once in
# one tree (another GPU, make check) never run, link or archive a half-written
# file ("Text file busy", "Permission denied"), and a failed build leaves none.
TMP_OUT  = $@.tmp$$$$
commit   = && mv -f $(TMP_OUT) $@ || { rm -f $(TMP_OUT); exit 1; }

# libmmrank.a: the core (no knowledge of mm), the file formats and the
# learner, one archive of the three folders (docs/LAYOUT.md)
LIB_DIRS = stages/core stages/formats stages/learn
LIB_SRC  = $(sort $(wildcard $(addsuffix /*.c,$(LIB_DIRS))))
LIB_OBJ  = $(patsubst stages/%.c,$(BUILD)/lib/%.o,$(LIB_SRC))
LIB_HDR  = $(wildcard $(addsuffix /*.h,$(LIB_DIRS))) $(GPUS_H)
LIBA     = $(BUILD)/libmmrank.a
# the bench-only GPU policy (stages/gpu/policy/): not in libmmrank.a; bench,
# bench-fake, triton_cands and the unit drivers that test it compile it in
POLICY_SRC = $(sort $(wildcard stages/gpu/policy/*.c))
POLICY_HDR = $(wildcard stages/gpu/policy/*.h)

# CPU stages: one C file each in stages/ (bench needs CUDA: mk/collect.mk;
# nvmmh needs NVIDIA's nvMatmulHeuristics: mk/nvmmh.mk).
CPU_STAGES = $(filter-out bench% nvmmh,$(basename $(notdir $(wildcard stages/*.c))))
STAGE_BINS = $(addprefix $(BIN)/,$(CPU_STAGES))

.PHONY: all
all: $(STAGE_BINS)

# `make help`: one printf of one text (exported to its recipe only), so that
# `make help | head` ends quietly instead of "Broken pipe".
define MMRANK_HELP
mmrank — learn and emit PyTorch AutoHeuristic mm ranking heuristics

Main targets:
  make deps                 check gcc, make, m4, jansson, libzip, ISA-L, unzip, python3
                            (as root: apt-get install the missing ones; else print the command)
  make heuristic GPU=a100   A100 data -> out/a100/_MMRankingA100.{py,c,h}, .dot, metrics.tsv
  make heuristic GPU=h100   the same for H100 (GPU=h200: the committed H200 collection)
  make check                all tests (ASan+UBSan build, no GPU needed)
  make collect GPU=h200 GPUS=0,1 SAMPLES=N   collect data on your GPUs (needs CUDA)
       [SEED=S COLLECT_TIME_LIMIT=s]  (-j: shards in parallel; the timing's knobs: make help-all)
  make collect GPU=h200 GPUS=0,1 SHAPES=FILE   measure a shape list instead of sampling
                            (e.g. datasets/shapes/real.tsv)
  make collect ... KERNEL_TEMPLATE=triton   Inductor's own candidates and ids
                            (cubins compiled first: make triton-cubins)
  make collect ... BACKEND=inductor   Inductor's own collection (python3 + torch on the GPU host)
  make collect GPU=h200 LAUNCHER=slurm SHARDS=16 SAMPLES=N [SLURM_OPTS="..."]
                            one Slurm job per shard, resubmitted until complete, then merged
                            (e.g. SLURM_OPTS="--partition=gpu --time=02:00:00")
  make cubins               precompile every NVRTC candidate for CUBIN_ARCH (no GPU needed)
  make nvmmh                build the optional nvMatmulHeuristics ranker
                            (NVMMH_DIR=dir, or pip install nvidia-matmul-heuristics)
  make triton-cubins GPU=h200 SHAPES=FILE|SAMPLES=N
                            compile the Triton variants a collection needs (no GPU)
  make shapes-list          regenerate datasets/shapes/real.tsv (real-model GEMMs) from
                            datasets/shapes/models.tsv, lora.tsv (its GEMMs 454..594) and
                            lora32.tsv (595..609), both collected

Single stages (each redoes only what is stale, then says
"<target> GPU=...: made|up to date: <files>"):
  make fetch | featurize | fit | prune | emit  GPU=...
  make promote GPU=...      copy the artifacts to gen/ (committed, like torch artifacts/)
  make install-artifact GPU=...   make Inductor use ours over the shipped one
       (uninstall-artifact undoes it)  [INSTALL_ARTIFACT=file.py (default out/<gpu>/_<name>.py)
       TORCH_ARTIFACTS=dir (torch/_inductor/autoheuristic/artifacts; default: python3's torch)]
  make eval GPU=... [LOG=log.txt] [CROSS_DEVICE=1]   top-k hit rate, regret, speedup over extern_mm
  make report GPU=...       out/<gpu>/report.html: tree, metrics, regret plots, data summary
  make evaluate-online GPU=... SAMPLES=N [ONLINE_SEED=S]   bench --use-heuristic on fresh
                            inputs (GPU)
  make unpack GPU=...       extract the official logs to out/<gpu>/raw/ (featurize reads the zip)
  make fuzz [FUZZ_SECONDS=60]   AFL++ harnesses of the log, feat TSV, tree and artifact readers
                            and of emit
  make compare GPU=... [HELDOUT=logs]  PyTorch shipped artifact (and the reference learner) vs ours
  make fit-args [PROFILE=...]  print the fit options the profile uses
  make all                  build the stage programs into build/bin/
  make clean | distclean    remove build/ | build/ and out/

endef
# the part after the variables
define MMRANK_HELP_TAIL
The variables' checks, ranges and defaults: mk/variables.tsv (docs/VARIABLES.md).
  make -n shows the exact stage commands
endef

# docs/VARIABLES.md's table of every variable, from the registry (between its
# BEGIN and END lines; check/t3110-vars.sh says when it is stale)
.PHONY: variables-doc
variables-doc:
	@awk -v mode=doc -f mk/variables.awk $(MMR_REGISTRY) >docs/VARIABLES.md.table.tmp && \
	  sed -e '/^<!-- BEGIN variables/,/^<!-- END variables/{//!d;}' \
	    -e '/^<!-- BEGIN variables/r docs/VARIABLES.md.table.tmp' docs/VARIABLES.md >docs/VARIABLES.md.tmp && \
	  mv docs/VARIABLES.md.tmp docs/VARIABLES.md; rm -f docs/VARIABLES.md.table.tmp docs/VARIABLES.md.tmp

.PHONY: help help-all
# (the variables, grouped, from mk/variables.tsv: make help the main ones,
# help-all every one; their values reach awk through the environment)
help help-all: export HELP_TEXT = $(MMRANK_HELP)
help help-all: export HELP_TAIL = $(MMRANK_HELP_TAIL)
help help-all: export MMR_HELP_VALUES = $(mmr_values)
help help-all:
	@trap '' PIPE; { printf '%s\n' "$$HELP_TEXT" "Variables you set (NAME=current value (range; what); each is checked before \
	anything runs):" && awk -v mode=help -v tier=$@ -f mk/variables.awk $(MMR_REGISTRY) && printf '\n%s\n' \
	$(if $(filter help,$@),"make help-all: every variable$(mmr_comma) the learner's and the collection's fine knobs") "$$HELP_TAIL"; \
	} 2>/dev/null || true

# Dependencies are checked (and, as root, installed) once per build folder.
$(BUILD)/.deps-ok: stages/sh/deps.sh
	@mkdir -p $(@D)
	@stages/sh/deps.sh >/dev/null
	@touch $@

$(BUILD)/lib/%.o: stages/%.c $(LIB_HDR) | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(WARN) $(CFLAGS) $(INC) -c -o $(TMP_OUT) $< $(commit)

$(LIBA): $(LIB_OBJ)
	$(if $(Q),@echo "  AR      $@")
	$(Q)ar rcs $(TMP_OUT) $^ $(commit)

$(BIN)/%: stages/%.c $(LIBA) $(LIB_HDR)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CCLD    $@")
	$(Q)$(CC) $(WARN) $(CFLAGS) $(INC) -o $(TMP_OUT) $< $(LIBA) $(LDLIBS) $(commit)

# Drivers of library units for the tests (check/unit/*.c -> $(BUILD)/unit/),
# built by make check.
# The drivers of GPU policy units (UNIT_POLICY) compile stages/gpu/policy/ in.
UNIT_BINS = $(patsubst check/unit/%.c,$(BUILD)/unit/%,$(wildcard check/unit/*.c))
UNIT_POLICY = $(addprefix $(BUILD)/unit/,ttsched_print vcut_print tlimit_print)
.PHONY: units
units: $(UNIT_BINS)
$(UNIT_POLICY): UNIT_SRC = $(POLICY_SRC)
$(UNIT_POLICY): $(POLICY_SRC) $(POLICY_HDR)
$(BUILD)/unit/%: check/unit/%.c $(LIBA) $(LIB_HDR)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CCLD    $@")
	$(Q)$(CC) $(WARN) $(CFLAGS) $(INC) -o $(TMP_OUT) $< $(UNIT_SRC) $(LIBA) $(LDLIBS) $(commit)

# ---- pipeline: official datasets -> heuristic --------------------------------
# Everything of one GPU lives in $(O) = $(OUT)/$(GPU)/ (default out/,
# disposable, git-ignored).
#
# fit settings (mk/variables.tsv).  Default (ours): leakage-free grouped
# split, a 56-model grid chosen by 5-fold cross-validated top-k hit rate
# (ties: regret) of lists ordered greedily for the top-k hit rate, written
# with each leaf's best first entry in front (fit --leaf-rank joint) or
# trained for the head (head-*), per GPU from the GPU profile; leaf lists padded with up to k ancestors' classes (fit --leaf-pad)
# and filled with every other measured class (fit --leaf-fill all, docs/RESULTS.md
# section 4.3); each node's k sized by confidence (fit --topk-eps: the smallest
# k whose out-of-fold regret is <= 1 + TOPK_EPS).  PROFILE=reference trains
# exactly what PyTorch's train_decision_mm.py trains (one model, row split,
# spec §5.10 rule): the like-for-like setting for speed comparisons.
OFFICIAL_GPUS   := $(shell awk -F'\t' 'NR>1{print $$2}' datasets/MANIFEST.tsv)

ifneq ($(filter $(GPU),$(OFFICIAL_GPUS)),)
# Official data: the zip holds <gpu>_mm.txt plus the TIMM and HF training
# sets.  featurize reads them straight out of the zip (featurize --zip:
# libzip for the archive, ISA-L inflate in-process, CRC checked; timings:
# docs/RESULTS.md section 1), so their text is never written to disk;
# `make unpack` puts them under $(O)/raw/ for inspection.
ZIP        := $(O)/$(GPU)_mm.zip
EXTRA_SETS := train_timm train_hf
LOG_main       := $(GPU)/$(GPU)_mm.txt
LOG_train_timm := $(GPU)/$(GPU)_timm_train_mm.txt
LOG_train_hf   := $(GPU)/$(GPU)_hf_train_mm.txt
LOG_SRC    := $(ZIP)
# $(call featurize,SET,EXTRA ARGS,OUT)
# A missing or damaged zip or member is named by featurize ("cannot read
# 'MEMBER' from ZIP (missing or damaged zip: ...)"): remove it to refetch.
featurize = $(BIN)/featurize $(2) --zip $(ZIP) --label '$(notdir $(ZIP)):$(LOG_$(1))' \
  -o $(3) '$(LOG_$(1))'

$(ZIP): datasets/MANIFEST.tsv
	$(if $(Q),@echo "  FETCH   $@")
	$(Q)$(zip_fetch)
# Every recipe that reads the zip runs fetch.sh first: it rechecks the
# sha256 of a zip already there (fetched again if it changed; a good one is
# left untouched, so nothing is redone)
zip_fetch = DATASET_MIRROR='$(DATASET_MIRROR)' stages/sh/fetch.sh $(GPU)_mm.zip $(ZIP)
zip_check = $(zip_fetch) &&

.PHONY: unpack
unpack: $(ZIP)
	$(zip_check) rm -rf $(O)/raw.part && mkdir -p $(O)/raw.part && { unzip -q -o -j $< -d $(O)/raw.part || \
	  { rm -rf $(O)/raw.part; false; }; } && rm -rf $(O)/raw && mv $(O)/raw.part $(O)/raw
else ifneq ($(wildcard datasets/MANIFEST.$(GPU).tsv),)
# A dataset we collected and committed (datasets/MANIFEST.<gpu>.tsv, first
# row = the main log, xz-compressed) -- unless `make collect` made a fresh
# $(O)/merged.txt, which then wins.
ifneq ($(wildcard $(O)/merged.txt),)
EXTRA_SETS :=
LOG_main   := $(O)/merged.txt
LOG_SRC    := $(O)/merged.txt
featurize = $(BIN)/featurize $(2) -o $(3) $(LOG_$(1))
else
# Row 2 is the main log; a later row whose `set` column names a set (not
# "-") is an extra training set (fit --data NAME), as train_timm/train_hf
# are for the official data: the H200 model-shape list, say.  A set named
# on several rows is their logs merged in manifest order (a sample
# collected in parts: the H200 main set is its sample parts, in manifest order).
MANIFEST_G := datasets/MANIFEST.$(GPU).tsv
# The manifest's shape, checked before anything runs: LF line ends (a CR
# would hide the set column, and every part after row 2 with it) and row 2
# main whatever its set column says, so any other word there is refused (a
# train_models there would be trained on as main, its set dropped).
MANIFEST_BAD := $(shell awk -F'\t' '/\r/ { print "line " NR ": a carriage return (write the file with LF line ends)"; exit } \
  NR == 1 { for (i = 1; i <= NF; i++) if ($$i == "set") c = i; next } \
  NR == 2 { if (c && $$c != "main") { v = $$c; gsub(/[^A-Za-z0-9_.-]/, "?", v); \
    print "line 2, field set: '"'"'" v "'"'"': the first row is the main log, so its set is main (a later row with set main is a part of it)" } }' \
  $(call sq,$(MANIFEST_G)))
$(if $(MANIFEST_BAD),$(error $(MANIFEST_G) $(MANIFEST_BAD); nothing was run))
# one word per row: NAME|FILE|SHA256 (row 2 is main; a row without a set
# column, or with "-" in it, is no training set)
MANIFEST_SETS := $(shell awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($$i == "set") c = i; next } \
  { s = NR == 2 ? "main" : (c ? $$c : "-") } s != "-" && s != "" { print s "|" $$1 "|" $$3 }' $(call sq,$(MANIFEST_G)))
# $(call manifest_field,SET,N): field N of each of SET's rows, in order
manifest_field = $(foreach r,$(filter $(1)|%,$(MANIFEST_SETS)),$(word $(2),$(subst |, ,$(r))))
# (each set once, in the order of its first row)
uniq = $(if $(1),$(firstword $(1)) $(call uniq,$(filter-out $(firstword $(1)),$(1))))
EXTRA_SETS := $(filter-out main,$(call uniq,$(foreach r,$(MANIFEST_SETS),$(firstword $(subst |, ,$(r))))))
$(foreach s,main $(EXTRA_SETS),$(eval LOG_$(s) := $(addprefix datasets/,$(call manifest_field,$(s),2)))$(eval SHA_$(s) := $(call manifest_field,$(s),3)))
LOG_SRC    := $(foreach s,main $(EXTRA_SETS),$(LOG_$(s)))
# every log of the set checked against its sha256; one log is read as it
# is, several are merged first into $(O)/SET.parts.txt (featurize's
# messages then name that file's lines)
sha_ok = { echo '$(1)  $(2)' | sha256sum --quiet -c - >/dev/null 2>&1 || \
  { echo 'make: $(2) does not match its sha256 in $(MANIFEST_G) (changed or damaged: git checkout $(2))' >&2; false; }; } &&
featurize = set -o pipefail; $(foreach w,$(join $(SHA_$(1)),$(addprefix |,$(LOG_$(1)))),$(call sha_ok,$(firstword $(subst |, ,$(w))),$(lastword $(subst |, ,$(w))))) \
  $(if $(word 2,$(LOG_$(1))),$(BIN)/merge -o $(O)/$(1).parts.txt $(foreach f,$(LOG_$(1)),<(xz -dc $(f))) && \
  $(BIN)/featurize $(2) -o $(3) $(O)/$(1).parts.txt,xz -dc $(LOG_$(1)) | $(BIN)/featurize $(2) --label $(LOG_$(1)) -o $(3) -)
PARTS_BIN  := $(if $(foreach s,main $(EXTRA_SETS),$(word 2,$(LOG_$(s)))),$(BIN)/merge)
endif
else
# our own collection (make collect GPU=...): the merged shards
EXTRA_SETS :=
LOG_main   := $(O)/merged.txt
LOG_SRC    := $(O)/merged.txt
featurize = $(BIN)/featurize $(2) -o $(3) $(LOG_$(1))
ifeq ($(filter collect,$(MAKECMDGOALS)),)
# Training never collects: without a merged log, say what exists instead.
$(O)/merged.txt:
	@echo "make: no data for GPU '$(GPU)': no official dataset ($(OFFICIAL_GPUS)), no" >&2
	@echo "  committed collection (datasets/MANIFEST.$(GPU).tsv), no $(O)/merged.txt;" >&2
	@echo "  collect one first: make collect GPU=$(GPU) GPUS=0 SAMPLES=N" >&2
	@exit 1
endif
endif

EXTRA_FEATS := $(foreach s,$(EXTRA_SETS),$(O)/$(s).feat.tsv)

ifeq ($(filter $(GPU),$(OFFICIAL_GPUS)),)
# only the official zips need unpacking
.PHONY: unpack
unpack:
	@echo "make unpack: only for the official datasets ($(OFFICIAL_GPUS)); GPU=$(GPU)'s log is $(LOG_main)$(if $(filter %.xz,$(LOG_main)), (read it with xz -dc))" >&2
	@exit 1
endif

# A parameter stamp changes (and so triggers a rebuild) only when its text does.
define stamp
	@mkdir -p $(@D)
	@echo $(call sq,$(1)) | cmp -s - $@ || echo $(call sq,$(1)) > $@
endef
# What the feat TSVs were made from: the logs' paths and, for a log make
# neither fetches nor checks (a collection's merged.txt), its size and mtime,
# so that adding, deleting or replacing one (cp -p keeps an older mtime)
# featurizes anew; $(O)/data.params holds it.
DATA_ID = $(LOG_SRC)$(if $(filter $(O)/merged.txt,$(LOG_SRC)), $(shell stat -c '%s %Y' $(call sq,$(O)/merged.txt) 2>/dev/null))
$(O)/main.feat.tsv: $(LOG_SRC) $(BIN)/featurize $(PARTS_BIN) $(call stamp_stale,$(O)/data.params,$(DATA_ID))
	@mkdir -p $(@D)
	$(if $(Q),@echo "  FEAT    $@")
	$(Q)$(zip_check) $(call featurize,main,,$@)
	@$(call stamp_write,$(O)/data.params,$(DATA_ID))

# The extra sets need only main's categories: they are featurized at the
# same time (THREADS at once, stages/sh/par.sh), their messages shown in set
# order, whichever finishes first.
ifneq ($(EXTRA_SETS),)
$(EXTRA_FEATS) &: $(LOG_SRC) $(O)/main.feat.tsv $(BIN)/featurize $(PARTS_BIN) stages/sh/par.sh
	$(if $(Q),@printf '  FEAT    %s\n' $(EXTRA_FEATS))
	$(Q)$(zip_check) stages/sh/par.sh $(THREADS) $(foreach x,$(EXTRA_SETS),\
	  "$(call featurize,$(x),--categories $(O)/main.feat.tsv,$(O)/$(x).feat.tsv)")
endif

# the profile's learning options: every row of mk/variables.tsv whose flag
# is fit's, in file order (--leaf-fill only when on, --topk-eps only when not
# 0: the other settings' stamps and commands stay as they were); also printed
# by `make fit-args`, which perf/pipeline/run.sh uses, so its timings are of
# exactly these options
PROFILE_FIT_ARGS = $(call mmr_fit_args,)
FIT_ARGS = $(PROFILE_FIT_ARGS) \
  --write-split $(O)/split.tsv $(foreach s,$(EXTRA_SETS),--data $(s) $(O)/$(s).feat.tsv) $(FIT_EXTRA)

# fit's outputs: fit writes each atomically (stages/core/util.h aout) and
# commits all of them or none, so a failing fit (FIT_EXTRA=--bogus, no model
# qualifies) leaves the previous good ones; make must not delete them either
# (.DELETE_ON_ERROR removes every target of a failed grouped rule).
# $(O)/fit.params holds the options of the last fit that succeeded: other
# options refit, the same ones do not, a failing one changes nothing.
# GRID may name a file of models: then it is a prerequisite too.
FIT_OUTS := $(O)/tree.tsv $(O)/metrics.tsv $(O)/split.tsv
.PRECIOUS: $(FIT_OUTS)
$(FIT_OUTS) &: $(O)/main.feat.tsv $(EXTRA_FEATS) $(BIN)/fit \
  $(call stamp_stale,$(O)/fit.params,$(FIT_ARGS)) $(filter-out mm reference search,$(GRID))
	$(if $(Q),@echo "  FIT     $(O)/tree.tsv")
	$(Q)$(BIN)/fit $(O)/main.feat.tsv $(FIT_ARGS) --heuristic-name $(HEURISTIC_NAME) \
	  --threads $(THREADS) -o $(O)/tree.tsv --metrics $(O)/metrics.tsv && \
	  $(call stamp_write,$(O)/fit.params,$(FIT_ARGS))

# The in-graph truth (TRUTH, per GPU from the profile: an mm log of in-graph
# ms, perf/models/truth_log.py's) sets each leaf's head and pick after the
# pruning (prune --truth; docs/STAGES.md "prune").
TRUTH_FEAT  = $(if $(TRUTH),$(O)/truth.feat.tsv)
# a TRUTH that names no file stops make before anything runs
$(if $(TRUTH),$(if $(wildcard $(TRUTH)),,$(error TRUTH=$(TRUTH): no such file (an mm log of in-graph ms, .xz or plain; empty: none); nothing was run)))
PRUNE_ARGS  = --ranking $(RANKING)$(if $(TRUTH), --truth $(TRUTH_FEAT))
$(O)/truth.feat.tsv: $(TRUTH) $(BIN)/featurize $(call stamp_stale,$(O)/truth.params,$(abspath $(TRUTH)))
	@mkdir -p $(@D)
	$(if $(Q),@echo "  FEAT    $@")
	$(Q)set -o pipefail; $(if $(filter %.xz,$(TRUTH)),xz -dc $(call sq,$(TRUTH)) | $(BIN)/featurize \
	  --label $(call sq,$(TRUTH)) -o $@ -,$(BIN)/featurize -o $@ $(call sq,$(TRUTH)))
	@$(call stamp_write,$(O)/truth.params,$(abspath $(TRUTH)))

# (asked only when its text changes: make -n then lists nothing stale)
$(O)/prune.params: $(call stamp_stale,$(O)/prune.params,$(PRUNE_ARGS))
	$(call stamp,$(PRUNE_ARGS))

$(O)/pruned.tsv: $(O)/tree.tsv $(BIN)/prune $(O)/prune.params $(TRUTH_FEAT)
	$(if $(Q),@echo "  PRUNE   $@")
	$(Q)$(BIN)/prune $(PRUNE_ARGS) -o $@ $<

ARTIFACTS := $(O)/_$(HEURISTIC_NAME).py $(O)/_$(HEURISTIC_NAME).c $(O)/_$(HEURISTIC_NAME).h \
             $(O)/$(HEURISTIC_NAME).dot

# One emit writes all four, all or none; one python and one cc check them,
# at once.  That python is PYTHON from the environment or the command line,
# else python3 resolved once per build folder into $(BUILD)/python3.path: a
# version manager's shim (pyenv's) costs 80-100 ms a call, more than the
# check itself (a path that no longer runs falls back to python3).
# The artifacts carry the GPU's row of GPU_FACTS (EMIT_GPU, mk/gpus.mk),
# where it has one.
$(ARTIFACTS) &: $(O)/pruned.tsv $(BIN)/emit templates/heuristic.py.m4 templates/heuristic.c.m4 \
  templates/heuristic.h.m4 $(if $(GPU_ROW),$(GPU_FACTS)) $(call stamp_stale,$(O)/emit.params,$(EMIT_GPU)) \
  | $(BUILD)/python3.path
	$(if $(Q),@printf '  EMIT    %s\n' $(ARTIFACTS))
	$(Q)py=$$(cat $(BUILD)/python3.path 2>/dev/null); [ -x "$$py" ] || py=python3; \
	  $(BIN)/emit --heuristic-name $(HEURISTIC_NAME) $(EMIT_GPU) --python "$${PYTHON:-$$py}" --out-dir $(O) $< && \
	  $(call stamp_write,$(O)/emit.params,$(EMIT_GPU))

$(BUILD)/python3.path:
	@mkdir -p $(@D) && python3 -I -S -c 'import sys; print(sys.executable)' >$@.$$$$ && mv $@.$$$$ $@

# ---- evaluation: shipped heuristic vs ours ----------------------------------
# (REFERENCE_DIR, HOLDOUT, HELDOUT, LOG, CROSS_DEVICE, EVAL_TREE: mk/variables.tsv)
REFERENCE_ART  = $(REFERENCE_DIR)/_MMRanking$(GPU_UC).py
# CROSS_DEVICE=1: evaluate a LOG of another device (metadata shared_memory,
# device_capa) on purpose: featurize and eval --cross-device, said in eval's output
CROSS_FLAG     = $(if $(filter 1,$(CROSS_DEVICE)),--cross-device)
CMP           := $(O)/compare
DATA_ARGS      = $(foreach s,$(EXTRA_SETS),--data $(s) $(O)/$(s).feat.tsv)
EXTRA_SET_ARGS = $(foreach s,$(EXTRA_SETS),$(s)=$(O)/$(s).feat.tsv)

# Extra logs (HELDOUT=a.txt b.txt, LOG=x.txt) featurized with main's
# categories, cached under the log's absolute path ($(O)/logs/ABSPATH.feat.tsv):
# two logs of one name in two folders, or one log spelt two ways (relative,
# absolute), never take each other's cache.  Their set is named after the file.
log_feat = $(O)/logs$(abspath $(1)).feat.tsv
define extra_log_rule
$(call log_feat,$(1)): $(1) $(O)/main.feat.tsv $(BIN)/featurize
	@mkdir -p $$(@D)
	$(Q)$(BIN)/featurize --categories $(O)/main.feat.tsv $$(CROSS_FLAG) -o $$@ $(1)
endef
$(foreach h,$(sort $(abspath $(HELDOUT) $(LOG))),$(eval $(call extra_log_rule,$(h))))
HELDOUT_ARGS = $(foreach h,$(HELDOUT),$(basename $(notdir $(h)))=$(call log_feat,$(h)))
# Each such set is named after its file (x.txt: x), and eval takes NAME=PATH
# only for a plain name (letters, digits, '_.-'): a name given twice, a
# name of one of compare's own sets, or not plain would stop make compare
# only after featurizing, so it is refused here.  (A HELDOUT word cannot
# hold its own NAME=: copy or link the log under another name.)
# $(call log_sets_bad,LOGS,TAKEN): the set names of LOGS that are twice, TAKEN or not plain
log_set = $(basename $(notdir $(1)))
log_sets_bad = $(strip $(foreach n,$(sort $(foreach l,$(1),$(call log_set,$(l)))),$(if $(or $(word \
  2,$(filter $(n),$(foreach l,$(1),$(call log_set,$(l))))),$(filter $(n),$(2)),$(call \
  mmr_strip,$(n),$(mmr_ident) . -)),$(n))))
ifneq ($(filter compare,$(MAKECMDGOALS)),)
HELDOUT_BAD := $(firstword $(call log_sets_bad,$(HELDOUT),main heldout test $(EXTRA_SETS)))
ifneq ($(HELDOUT_BAD),)
HELDOUT_BAD_LOGS := $(foreach h,$(HELDOUT),$(if $(filter $(HELDOUT_BAD),$(call log_set,$(h))),$(h)))
$(error HELDOUT: a log is scored as a set named after its file, which must be its own (not main, \
  $(subst $(mmr_sp),$(mmr_comma)$(mmr_sp),heldout test $(EXTRA_SETS)) or another log's) and of letters, digits and '_.-': \
  '$(HELDOUT_BAD)' ($(HELDOUT_BAD_LOGS)): copy or link the log under another name, e.g. ln -s \
  $(abspath $(lastword $(HELDOUT_BAD_LOGS))) $(dir $(abspath $(lastword $(HELDOUT_BAD_LOGS))))$(if $(call \
  mmr_strip,$(HELDOUT_BAD),$(mmr_ident) . -),log,$(HELDOUT_BAD))_2$(suffix $(lastword $(HELDOUT_BAD_LOGS))); \
  nothing was run)
endif
endif

# the comparison's stamps, asked only when their text changes (make -n
# compare then lists nothing stale, like $(O)/prune.params)
CMP_PARAMS  = $(HOLDOUT) $(call mmr_fit_args,SPLIT) $(EXTRA_SETS)
$(CMP)/params: $(call stamp_stale,$(CMP)/params,$(CMP_PARAMS))
	$(call stamp,$(CMP_PARAMS))
# what the comparison shows: the reference artifact and the extra logs
CMP_SHOW    = $(abspath $(REFERENCE_ART)) $(HELDOUT)
$(CMP)/show.params: $(call stamp_stale,$(CMP)/show.params,$(CMP_SHOW))
	$(call stamp,$(CMP_SHOW))

# $(call cmp_fit,NAME,split and learning options): the comparison's tree
# $(CMP)/NAME/tree.tsv, its split and metrics, seeded like make heuristic
define cmp_fit
$(CMP)/$(1)/tree.tsv $(CMP)/$(1)/split.tsv &: $(O)/main.feat.tsv $(EXTRA_FEATS) $(BIN)/fit $(CMP)/params
	@mkdir -p $$(@D)
	$$(if $$(Q),@echo "  FIT     $$@")
	$$(Q)$$(BIN)/fit $$(O)/main.feat.tsv $$(DATA_ARGS) --ranking $$(RANKING) --seed $$(SEED) $(2) --threads $$(THREADS) \
	  --write-split $$(CMP)/$(1)/split.tsv -o $$(CMP)/$(1)/tree.tsv --metrics $$(CMP)/$(1)/metrics.tsv >/dev/null
endef
# HOLDOUT of the main inputs held out whole (grouped split): (b) and (d)
CMP_GROUP = --split group --test-fraction $(HOLDOUT)
# (a) the reference's setting: one model, rows split, 1 % test
$(eval $(call cmp_fit,rows,--split rows $(REF_LEARN)))
# (b) ours (the profile's options) on the grouped split
$(eval $(call cmp_fit,group,$(CMP_GROUP) $(call mmr_fit_args,RANKING SEED SPLIT)))
# (d) the reference learner on the same grouped split (its val set, 19 %, is
# held out of its training for the §5.10 check, as in the reference)
$(eval $(call cmp_fit,refgroup,$(CMP_GROUP) $(REF_LEARN)))
# (fit's outputs survive a failing fit: see FIT_OUTS)
.PRECIOUS: $(foreach c,rows group refgroup,$(CMP)/$(c)/tree.tsv $(CMP)/$(c)/split.tsv $(CMP)/$(c)/metrics.tsv)
$(CMP)/%/pruned.tsv: $(CMP)/%/tree.tsv $(BIN)/prune
	$(Q)$(BIN)/prune --ranking $(RANKING) -o $@ $< 2>/dev/null
$(CMP)/%/test.feat.tsv: $(CMP)/%/split.tsv $(O)/main.feat.tsv stages/sh/subset.sh
	$(Q)stages/sh/subset.sh $< test $(O)/main.feat.tsv $@

# NVIDIA's nvMatmulHeuristics, the trees' analytic peer (mk/nvmmh.mk), where
# it is installed; looked up only when compare runs.  (Its build, a $(MAKE)
# line, is a line of its own: make -n runs every line that names $(MAKE).)
NVMMH_ARG = $(if $(shell stages/sh/nvmmh-dir.sh $(call sq,$(NVMMH_DIR)) 2>/dev/null),--nvmmh $(BIN)/nvmmh)
COMPARE = stages/sh/compare.sh --bin $(BIN) --ranking $(RANKING) --reference $(REFERENCE_ART) $(NVMMH_ARG)
$(O)/compare.txt: $(CMP)/rows/pruned.tsv $(CMP)/rows/test.feat.tsv $(CMP)/group/pruned.tsv \
  $(CMP)/group/test.feat.tsv $(CMP)/refgroup/pruned.tsv $(O)/pruned.tsv $(EXTRA_FEATS) $(foreach h,$(HELDOUT),$(call log_feat,$(h))) \
  $(BIN)/import $(BIN)/eval stages/sh/compare.sh $(CMP)/show.params $(wildcard $(REFERENCE_ART))
	$(if $(Q),@echo "  COMPARE $@")
	$(if $(NVMMH_ARG),$(Q)$(MAKE) --no-print-directory -s $(BIN)/nvmmh)
	$(Q){ echo "== (a) reference split: rows, 1 % test; ours trained like the reference (one model, §5.10)" && \
	  $(COMPARE) --ours $(CMP)/rows/pruned.tsv -o $(CMP)/rows.tsv test=$(CMP)/rows/test.feat.tsv && echo && \
	  echo "== (b) grouped split: $(HOLDOUT) of the main inputs held out whole from our training" && \
	  echo "   heldout: those inputs (ours never saw them, shipped did)$(if $(EXTRA_SETS),; $(EXTRA_SETS): training data of both trees)$(if $(HELDOUT),; $(foreach h,$(HELDOUT),$(basename $(notdir $(h)))): HELDOUT logs (not in our training))" && \
	  $(COMPARE) --ours $(CMP)/group/pruned.tsv -o $(CMP)/group.tsv heldout=$(CMP)/group/test.feat.tsv \
	    $(EXTRA_SET_ARGS) $(HELDOUT_ARGS) && echo && \
	  echo "== (c) the shipped artifact vs ours from make heuristic (both trained on main$(if $(EXTRA_SETS), and $(EXTRA_SETS))$(if $(HELDOUT),; neither on the HELDOUT logs))" && \
	  $(COMPARE) --ours $(O)/pruned.tsv -o $(CMP)/full.tsv main=$(O)/main.feat.tsv $(EXTRA_SET_ARGS) \
	    $(HELDOUT_ARGS) && echo && \
	  echo "== (d) learner vs learner, leakage-free: (b)'s split, both trained without heldout" && \
	  echo "   ref: the reference learner (PROFILE=reference: $(REF_LEARN)) on (b)'s grouped split; ours as in (b); shipped for reference (it saw heldout)" && \
	  { awk -F'\t' '$$2 == "test" { t[FILENAME] = t[FILENAME] " " $$1 } END { exit t[ARGV[1]] != t[ARGV[2]] }' \
	    $(CMP)/group/split.tsv $(CMP)/refgroup/split.tsv || \
	    { echo "make compare: (b) and (d) hold out different inputs ($(CMP)/group/split.tsv, $(CMP)/refgroup/split.tsv)" >&2; false; }; } && \
	  $(COMPARE) --ref-learner $(CMP)/refgroup/pruned.tsv --ours $(CMP)/group/pruned.tsv -o $(CMP)/fair.tsv \
	    heldout=$(CMP)/group/test.feat.tsv $(EXTRA_SET_ARGS) $(HELDOUT_ARGS) && \
	  true; } > $@.part && mv $@.part $@ || { rm -f $@.part; exit 1; }

.PHONY: compare eval
compare: $(O)/compare.txt
	@cat $<

# make eval GPU=... [LOG=any AutoHeuristic log] [EVAL_TREE=tree.tsv]
# LOG's set is named after its file; a name of a built-in set is refused.
ifneq ($(filter eval,$(MAKECMDGOALS)),)
ifneq ($(filter $(basename $(notdir $(LOG))),main $(EXTRA_SETS)),)
$(error LOG=$(LOG) would be a second set named '$(basename $(notdir $(LOG)))' (eval's sets: main $(EXTRA_SETS)): copy or link the log under another name)
endif
endif
eval: $(EVAL_TREE) $(O)/main.feat.tsv $(EXTRA_FEATS) $(if $(LOG),$(call log_feat,$(LOG))) $(BIN)/eval
	$(Q)$(BIN)/eval --ranking $(RANKING) $(CROSS_FLAG) -o $(O)/eval.tsv $(EVAL_TREE) main=$(O)/main.feat.tsv \
	  $(EXTRA_SET_ARGS) $(if $(LOG),$(basename $(notdir $(LOG)))=$(call log_feat,$(LOG)))

# ---- user-facing targets -------------------------------------------------------
.PHONY: deps fetch featurize fit prune emit heuristic promote help clean distclean fit-args \
  ref-learn-args extra-sets
# print the profile's fit options (PROFILE, SPLIT, GRID, ...), nothing else
fit-args:
	@echo '$(PROFILE_FIT_ARGS)'
# the reference learner's options (make compare (a), (d); fixed, not the
# profile's) and the extra training sets: for perf/compare/oof.sh
ref-learn-args:
	@echo '$(REF_LEARN)'
extra-sets:
	@echo '$(EXTRA_SETS)'
deps:
	@stages/sh/deps.sh

# Every user-facing target ends with the same line: "made" when this make
# wrote one of its files (the stage lines above it, "  FIT ...", say which),
# else "up to date".  Under make -n the line is left out (a dry run would only
# print this shell test; make then says "Nothing to be done" when nothing is stale).
MAKE_START := $(shell date +@%s.%N)
up_to_date = $(if $(MAKE_DRY),,@if [ -n "$$(find $(1) -maxdepth 0 -newermt '$(MAKE_START)' 2>/dev/null | head -1)" ]; \
	then echo "$@ GPU=$(GPU): made: $(1)"; else echo "$@ GPU=$(GPU): up to date: $(1)"; fi)

# The main job: everything from the dataset to the artifacts.
heuristic: $(ARTIFACTS) $(O)/metrics.tsv
	$(call up_to_date,$^)

emit: $(ARTIFACTS)
	$(call up_to_date,$^)

# Ship: copy the artifacts to gen/ (committed, like torch's artifacts/).
promote: $(ARTIFACTS) $(O)/metrics.tsv
	@mkdir -p gen
	cp $(ARTIFACTS) gen/
	cp $(O)/metrics.tsv gen/$(HEURISTIC_NAME).metrics.tsv
	$(call up_to_date,$(addprefix gen/,$(notdir $(ARTIFACTS))) gen/$(HEURISTIC_NAME).metrics.tsv)

fetch: $(LOG_SRC)
	$(if $(zip_fetch),@$(zip_fetch))
	$(call up_to_date,$^)
featurize: $(O)/main.feat.tsv $(EXTRA_FEATS)
	$(call up_to_date,$^)
fit: $(O)/tree.tsv $(O)/metrics.tsv $(O)/split.tsv
	$(call up_to_date,$^)
prune: $(O)/pruned.tsv
	$(call up_to_date,$^)

# ---- tests -------------------------------------------------------------------
# `make check`: build every stage with ASan+UBSan (build/san) and run
# check/t[0-9]*.sh; the runner's last line is "N passed, N failed, N skipped".
.PHONY: check check-build check-bins
check-build:
	@stages/sh/deps.sh
	$(Q)$(MAKE) --no-print-directory BUILD=build/san check-bins
# (one target with a recipe: make says nothing of its parts being up to date;
# nvmmh's probe runs only for this goal, not on every make: docs/RESULTS.md
# section 1)
check-bins: all units $(BIN)/bench-fake $(BIN)/triton_cands \
  $(if $(wildcard $(CUDA)/include/cuda_runtime.h),$(BIN)/bench) \
  $(if $(filter check-bins,$(MAKECMDGOALS)),$(if $(shell stages/sh/nvmmh-dir.sh $(call sq,$(NVMMH_DIR)) 2>/dev/null),$(BIN)/nvmmh))
	@:
check: check-build
	@BIN=build/san/bin DATASET_MIRROR=$(call sq,$(DATASET_MIRROR)) MMR_CHECK_OUT=$(call sq,$(abspath $(OUT))) \
	  check/run.sh $(TESTS)

clean:
	rm -rf build
distclean: clean
	rm -rf out

# ---- our artifact inside Inductor -------------------------------------------
# make install-artifact GPU=h200 copies $(O)/_$(HEURISTIC_NAME).py (or
# INSTALL_ARTIFACT=file) into the local torch's autoheuristic artifacts folder
# under a name Inductor's discovery takes before the shipped _MMRanking*.py,
# then prints the discovery order; uninstall-artifact removes what it made
# (python3 -m mmrank.install_artifact --help).  TORCH_ARTIFACTS=dir: another
# torch's artifacts folder (default: that of the torch python3 imports; the
# order is then shown only where python3 imports that torch).  What install
# needs is checked when make starts (mmrank.install_artifact check, with the
# values, before $(O) is locked), so that without it nothing is built or
# installed.
.PHONY: install-artifact uninstall-artifact
install-artifact: $(INSTALL_ARTIFACT)
	$(call inductor_install,install) $<
	$(call inductor_install,order --if-importable)
uninstall-artifact:
	$(call inductor_install,uninstall --all)

# ---- fragments: collection (CUDA), fuzzing, report ---------------------------
# (mk/inductor.mk is read by mk/collect.mk, before its shard rules)
# (mk/vars.mk and mk/gpus.mk are read first, above)
include $(sort $(filter-out mk/inductor.mk mk/vars.mk mk/gpus.mk,$(wildcard mk/*.mk)))
