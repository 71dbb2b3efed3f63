#!/usr/bin/env bash
# fake_python.sh — a stand-in interpreter for perf/models/run.sh's driver
# tests (check/t6160-models.sh): "-c CODE" succeeds (the import checks);
# "perf/models/run.py ARGS... OUT" appends a record naming its arguments
# (model, phase, mode, rep, the cache state run.sh passed) after sleeping
# FAKE_SLEEP_<model> seconds (dashes and dots as underscores; default 0), or
# dies by SIGKILL with FAKE_KILL_<model> set.
if [ "${1:-}" = -c ]; then sleep "${FAKE_CHECK_SLEEP:-0}"; echo "fake torch, transformers"; exit 0; fi
shift
m= ph= mo= rep=
while [ $# -gt 1 ]; do
	case $1 in
	--model) m=$2; shift ;; --phase) ph=$2; shift ;; --mode) mo=$2; shift ;; --rep) rep=$2; shift ;;
	--models|--artifact|--layers|--steps|--device|--batch|--seq|--collect-log|--autotune) shift ;;
	esac
	shift
done
v=FAKE_SLEEP_${m//[-.]/_}
sleep "${!v:-0}"
v=FAKE_KILL_${m//[-.]/_}   # set: die by SIGKILL, as the OOM killer kills
[ -z "${!v:-}" ] || kill -9 $$
# appended as run.py appends (records.append: after a torn last line, on a
# line of its own)
PYTHONPATH=perf/models python3 -c 'import sys
import records
m, ph, mo, rep, cache, out = sys.argv[1:]
records.append(out, {"model": m, "phase": ph, "mode": mo, "rep": int(rep), "status": "ok",
                     "cache": cache, "compile_s": 1.0, "step_ms": 1.0})' "$m" "$ph" "$mo" "$rep" "$MMRANK_CACHE_STATE" "$1"
