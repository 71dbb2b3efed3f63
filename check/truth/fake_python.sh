#!/usr/bin/env bash
# fake_python.sh — a stand-in interpreter for perf/models/truth.sh's driver
# tests (check/t6170-truth.sh): "-c CODE" succeeds (the import checks);
# "perf/models/truth.py OUT ARGS..." appends "MODEL PHASE TIME_LIMIT
# PYTHONPATH's first folder" to OUT.calls, sleeps FAKE_SLEEP_<model> seconds, then exits with the next of
# the codes FAKE_RCS_<model> lists (space-separated, one per call of that
# model; dashes as underscores; default 0) and on 0 appends a record.
if [ "${1:-}" = -c ]; then echo "fake torch, transformers"; exit 0; fi
shift
out=$1; shift
m= ph= tl=
while [ $# -gt 0 ]; do
	case $1 in
	--model) m=$2; shift ;; --phase) ph=$2; shift ;; --time-limit) tl=$2; shift ;;
	esac
	shift
done
echo "$m $ph $tl ${PYTHONPATH%%:*}" >>"$out.calls"
v=FAKE_SLEEP_${m//-/_}
sleep "${!v:-0}"
v=FAKE_RCS_${m//-/_}
n=$(grep -c "^$m " "$out.calls")
rc=$(echo "${!v:-0}" | awk -v n="$n" '{ print (n <= NF) ? $n : 0 }')
[ "$rc" = 0 ] && printf '{"model": "%s", "phase": "%s", "variant": "rank:0", "status": "ok"}\n' "$m" "$ph" >>"$out"
exit "$rc"
