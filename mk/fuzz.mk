# mk/fuzz.mk — `make fuzz`: AFL++ on the input readers and emit (no crafted
# file may crash a stage; harnesses, seeds and dictionaries in check/fuzz/).
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_HARNESS="featurize featset prune emit import"]
# builds build/fuzz/bin/ with afl-clang-fast + ASan/UBSan
# (check/fuzz/build.sh; needs `apt-get install afl++`), then runs each
# harness for FUZZ_SECONDS, one after the other, seeded from check/fixtures
# and check/corpus.  Findings: build/fuzz/findings/<harness>/; exit status
# non-zero if any crash or hang was found.  Results: check/fuzz/RESULTS.md.
# (FUZZ_SECONDS, FUZZ_HARNESS: mk/variables.tsv)
.PHONY: fuzz fuzz-build
fuzz-build:
	$(Q)check/fuzz/build.sh
fuzz: fuzz-build
	$(Q)check/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_HARNESS)
