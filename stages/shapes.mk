# stages/shapes.mk — the committed real-model shape list (issue #18 item 1;
# datasets/shapes/README.md).  Included by the top-level Makefile.
#
#   make shapes-list     regenerate datasets/shapes/real.tsv from the layer
#                        table datasets/shapes/models.tsv (shapes --from-models)
#                        and datasets/shapes/lora.tsv from real.tsv
#
# real.tsv is committed; check/test_shapes.sh checks that it equals the
# regeneration.  Measure it with `make collect SHAPES=datasets/shapes/real.tsv`.
# shapes writes the GEMMs in table order, each once (the first row that
# gives it keeps it), so rows appended to the table only append GEMMs.  The
# first SHAPES_H200_DONE GEMMs of real.tsv are the list the first H200
# real-model log was measured on; lora.tsv holds the rest (the LoRA adapters
# and MoE routers appended since, datasets/shapes/README.md), measured on its
# own and merged after that log into the committed one
# (datasets/h200/h200_inductor_real.txt.xz; docs/COLLECTING.md).
SHAPES_TABLE     := datasets/shapes/models.tsv
SHAPES_LIST      := datasets/shapes/real.tsv
SHAPES_NEW       := datasets/shapes/lora.tsv
SHAPES_H200_DONE := 453

.PHONY: shapes-list
shapes-list: $(SHAPES_LIST) $(SHAPES_NEW)

$(SHAPES_LIST): $(SHAPES_TABLE) $(BIN)/shapes
	$(if $(Q),@echo "  SHAPES  $@")
	$(Q)$(BIN)/shapes --from-models $(SHAPES_TABLE) -o $@

# the header and the GEMMs after the first SHAPES_H200_DONE (written atomically)
$(SHAPES_NEW): $(SHAPES_LIST)
	$(if $(Q),@echo "  SHAPES  $@")
	$(Q)awk 'NR == 1 || NR > $(SHAPES_H200_DONE) + 1' $< > $@.tmp && mv $@.tmp $@
