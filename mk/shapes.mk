# mk/shapes.mk — the committed real-model shape list
# (datasets/shapes/README.md).  Included by the top-level Makefile.
#
#   make shapes-list     regenerate datasets/shapes/real.tsv from the layer
#                        table datasets/shapes/models.tsv (shapes --from-models)
#                        and datasets/shapes/lora.tsv, lora32.tsv from real.tsv
#
# real.tsv is committed; check/t1140-shapes.sh checks that it equals the
# regeneration.  Measure it with `make collect SHAPES=datasets/shapes/real.tsv`.
# shapes writes the GEMMs in table order, each once (the first row that
# gives it keeps it), so rows appended to the table only append GEMMs.  The
# first SHAPES_H200_DONE GEMMs of real.tsv are the list the first H200
# real-model log was measured on; lora.tsv holds GEMMs SHAPES_H200_DONE+1 ..
# SHAPES_LORA_DONE (the LoRA adapters and MoE routers appended since,
# datasets/shapes/README.md), measured on their own and merged after that
# log into the committed one (datasets/h200/h200_inductor_real.txt.xz;
# docs/COLLECTING.md); lora32.tsv holds GEMMs SHAPES_LORA_DONE+1 ..
# SHAPES_LORA32_DONE (the rank-32 adapters appended since), collected and
# merged after those the same way.  When a list is collected and merged, its
# upper bound becomes the next list's lower one: GEMMs appended after
# SHAPES_LORA32_DONE go to a new list, none grows silently.
SHAPES_TABLE       := datasets/shapes/models.tsv
SHAPES_LIST        := datasets/shapes/real.tsv
SHAPES_LORA        := datasets/shapes/lora.tsv
SHAPES_LORA32      := datasets/shapes/lora32.tsv
SHAPES_H200_DONE   := 453
SHAPES_LORA_DONE   := 594
SHAPES_LORA32_DONE := 609

.PHONY: shapes-list
shapes-list: $(SHAPES_LIST) $(SHAPES_LORA) $(SHAPES_LORA32)

$(SHAPES_LIST): $(SHAPES_TABLE) $(BIN)/shapes
	$(if $(Q),@echo "  SHAPES  $@")
	$(Q)$(BIN)/shapes --from-models $(SHAPES_TABLE) -o $@

# $(call shapes_slice,FROM,TO): the header and the GEMMs FROM+1 .. TO of
# real.tsv (TO empty: to the end), written atomically
shapes_slice = awk 'NR == 1 || NR > $(1) + 1$(if $(2), && NR <= $(2) + 1)' $< > $@.tmp && mv $@.tmp $@

$(SHAPES_LORA): $(SHAPES_LIST)
	$(if $(Q),@echo "  SHAPES  $@")
	$(Q)$(call shapes_slice,$(SHAPES_H200_DONE),$(SHAPES_LORA_DONE))

$(SHAPES_LORA32): $(SHAPES_LIST)
	$(if $(Q),@echo "  SHAPES  $@")
	$(Q)$(call shapes_slice,$(SHAPES_LORA_DONE),$(SHAPES_LORA32_DONE))
