# mk/report.mk — `make report GPU=...` -> $(O)/report.html, a single
# self-contained page: the pruned tree (graphviz), metrics tables, regret
# CDFs and a data summary (gnuplot).  Included by the Makefile *after* the
# pipeline rules (it uses O, BIN, HEURISTIC_NAME, EXTRA_FEATS, Q).
# stages/sh/report.sh writes REPORT.tmp.PID and renames it only on success;
# it checks (as root: installs) graphviz and gnuplot-nox.
REPORT_HELPERS := stages/sh/report.sh $(wildcard stages/sh/report/*.awk stages/sh/report/*.gp) \
                  stages/FORMATS.md

$(O)/report.html: $(O)/pruned.tsv $(O)/metrics.tsv $(O)/main.feat.tsv $(EXTRA_FEATS) \
                  $(BIN)/eval $(REPORT_HELPERS)
	$(if $(Q),@echo "  REPORT  $@")
	$(Q)stages/sh/report.sh --eval $(BIN)/eval --title '$(HEURISTIC_NAME)' -o $@ \
	  $(O)/pruned.tsv $(O)/metrics.tsv $(O)/main.feat.tsv $(EXTRA_FEATS)

.PHONY: report
report: $(O)/report.html
	$(call up_to_date,$^)
