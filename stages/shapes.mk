# stages/shapes.mk — the committed real-model shape list (issue #18 item 1;
# datasets/shapes/README.md).  Included by the top-level Makefile.
#
#   make shapes-list     regenerate datasets/shapes/real.tsv from the layer
#                        table datasets/shapes/models.tsv (shapes --from-models)
#
# real.tsv is committed; check/test_shapes.sh checks that it equals the
# regeneration.  Measure it with `make collect SHAPES=datasets/shapes/real.tsv`.
SHAPES_TABLE := datasets/shapes/models.tsv
SHAPES_LIST  := datasets/shapes/real.tsv

.PHONY: shapes-list
shapes-list: $(SHAPES_LIST)

$(SHAPES_LIST): $(SHAPES_TABLE) $(BIN)/shapes
	$(if $(Q),@echo "  SHAPES  $@")
	$(Q)$(BIN)/shapes --from-models $(SHAPES_TABLE) -o $@
