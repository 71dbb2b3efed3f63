# mmrank — AutoHeuristic mm ranking pipeline in C.  `make help` lists targets.
#
# Data flow (see ../shared/design.md and stages/FORMATS.md):
#   datasets/<gpu>_mm.zip -> out/<gpu>/*.txt -> featurize -> fit -> prune -> emit (m4)
#   sample -> shapes.tsv -> bench -> data_<dev>.txt -> merge -> out/<gpu>/merged.txt

SHELL := /bin/bash
.DELETE_ON_ERROR:
.SUFFIXES:
MAKEFLAGS += --no-builtin-rules

# ---- user variables --------------------------------------------------------
GPU            ?= a100
RANKING        ?= 10
SEED           ?= 42
SAMPLES        ?= 1000
REPS           ?= 3
GPUS           ?= 0
DATASET_MIRROR ?= $(if $(wildcard ../shared/datasets),../shared/datasets,)
V              ?= 0

# ---- toolchain -------------------------------------------------------------
CC      ?= cc
CUDA    ?= /usr/local/cuda
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE
LDLIBS   = -ljansson -lm
SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
Q       := $(if $(filter 1,$(V)),,@)

# BUILD=build (optimised) or build/san (ASan+UBSan, used by `make check`)
BUILD   ?= build
ifeq ($(BUILD),build/san)
CFLAGS  := $(SANFLAGS)
endif
BIN      = $(BUILD)/bin

LIB_SRC  = $(sort $(wildcard stages/lib/*.c))
LIB_OBJ  = $(patsubst stages/lib/%.c,$(BUILD)/lib/%.o,$(LIB_SRC))
LIB_HDR  = $(wildcard stages/lib/*.h)
LIBA     = $(BUILD)/libmmrank.a

# CPU stages: one C file each in stages/.
CPU_STAGES = merge featurize fit prune emit sample
STAGE_BINS = $(addprefix $(BIN)/,$(CPU_STAGES))

.PHONY: all
all: $(STAGE_BINS)

$(BUILD)/lib/%.o: stages/lib/%.c $(LIB_HDR)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(WARN) $(CFLAGS) -c -o $@ $<

$(LIBA): $(LIB_OBJ)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN)/%: stages/%.c $(LIBA) $(LIB_HDR)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CCLD    $@")
	$(Q)$(CC) $(WARN) $(CFLAGS) -iquote stages/lib -o $@ $< $(LIBA) $(LDLIBS)
