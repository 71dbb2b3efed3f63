# mk/gpus.mk -- the GPU facts as data: datasets/GPUS.tsv (GPU_FACTS), one
# row per GPU (arch, memory, shared memory, capability, device-name
# pattern, nvMatmulHeuristics' descriptor, the GPU profile), read by
# mk/gpus.awk, the table's one reader.  The Makefile includes this right
# after mk/vars.mk, before the values are checked: the defaults below are
# registry defaults (mk/variables.tsv).  Nothing here names a GPU: a new
# GPU is a row of the table.
#  - GPU_ROW: GPU when the table has its row, else empty (a GPU of your own
#    collection: the '*' row's facts, an H200's, stand in for it, and its
#    artifact carries no GPU data).
#  - GPU_FACT_ARCH, GPU_FACT_MEM_BYTES: the defaults of CUBIN_ARCH (and so
#    TRITON_ARCH) and GPU_MEM_BYTES.
#  - MMR_GPU_SELECT, MMR_GPU_LEAF_RANK, MMR_GPU_TRUTH: PROFILE=ours' SELECT,
#    LEAF_RANK and TRUTH (empty: none),
#    from $(PROFILES)' row the GPU's profile column names (a GPU without a
#    row: its own name), else PROFILES' '*' row.
#  - $(GPUS_H): the same facts for C, generated ($(BUILD)/gen/gpus.h,
#    included as "gen/gpus.h" through -iquote $(BUILD)).
# One awk, run when a value is first used (stages/sh/vars.sh uses them all
# at parse time); a bad row stops make naming FILE:LINE and the field.
$(call mmr_once,MMR_GPU_WORDS,$$(or $$(shell awk -v mode=make -v gpu=$$(call sq,$$(GPU)) -f mk/gpus.awk \
  $$(call sq,$$(GPU_FACTS)) $$(call sq,$$(PROFILES))),$$(error GPU_FACTS=$$(GPU_FACTS), PROFILES=$$(PROFILES): \
  cannot read the GPU facts (above); nothing was run)))
GPU_ROW            = $(filter-out -,$(word 1,$(MMR_GPU_WORDS)))
GPU_FACT_ARCH      = $(word 2,$(MMR_GPU_WORDS))
GPU_FACT_MEM_BYTES = $(word 3,$(MMR_GPU_WORDS))
MMR_GPU_SELECT     = $(word 4,$(MMR_GPU_WORDS))
MMR_GPU_LEAF_RANK  = $(word 5,$(MMR_GPU_WORDS))
MMR_GPU_TRUTH      = $(filter-out -,$(word 6,$(MMR_GPU_WORDS)))

# emit's GPU data: the GPU's row, where it has one (stages/emit.c --gpu-facts)
EMIT_GPU = $(if $(GPU_ROW),--gpu-facts $(call sq,$(GPU_FACTS)) --gpu $(GPU_ROW))

# The C header: rewritten when the table, its reader or the table's path
# changes (GPU_FACTS=another.tsv).
GPUS_H := $(BUILD)/gen/gpus.h
$(GPUS_H): $(GPU_FACTS) mk/gpus.awk $(call stamp_stale,$(BUILD)/gen/gpus.params,$(abspath $(GPU_FACTS)))
	@mkdir -p $(@D)
	$(if $(Q),@echo "  GEN     $@")
	$(Q)awk -v mode=header -f mk/gpus.awk $(call sq,$(GPU_FACTS)) >$(TMP_OUT) $(commit)
	@$(call stamp_write,$(BUILD)/gen/gpus.params,$(abspath $(GPU_FACTS)))
