#!/usr/bin/env bash
# check/test_inductor_proxy.sh — perf/inductor/proxy.py, the GPU-free replay
# of Inductor's use of a ranking artifact, on the committed In-Inductor run
# (perf/results/gpu/inductor_unseen: 32 shapes x 3 modes x 3 rounds, H200).
#   1. the replay of the artifact that run measured reproduces, for all 96
#      records of mode ours, exactly the ids Inductor benchmarked;
#   2. its figures: 8 shapes with fewer than min(10, offered) candidates,
#      299 candidates benchmarked, min 1, 86 of full autotune's 96 round
#      winners in the set (read off the records: rows 20, 28, 29 benchmarked
#      extern_mm alone, row 10 missed one round's winner);
#   3. the replay of another artifact (our H100 tree) differs from the
#      records: exit 1 naming the row;
#   4. bad input: a record without a field (file:line), a missing artifact.
cd "$(dirname "$0")/.." || exit 1
. check/lib.sh
R=perf/results/gpu/inductor_unseen
P=(python3 perf/inductor/proxy.py --triton-cands "$BIN/triton_cands")
xz -dc "$R/inductor.jsonl.xz" >"$TMP/u.jsonl"
if "${P[@]}" "$TMP/u.jsonl" ours="$R/_MMRankingH200.measured.py" --check-mode ours=ours \
	>"$TMP/out" 2>"$TMP/err"; then ok proxy_runs; else fail proxy_runs "$(head -c 300 "$TMP/err")"; fi
if grep -qx "check: every ours record (96) benchmarked exactly ours's replayed set" "$TMP/out"; then
	ok proxy_reproduces_inductor
else fail proxy_reproduces_inductor "$(head -c 300 "$TMP/out")"; fi
want="ours: 32 shapes; fewer than min(10, offered) candidates on 8; candidates benchmarked 299 (min 1); full autotune's winners in the set 86/96"
if grep -qxF "$want" "$TMP/out"; then ok proxy_figures; else fail proxy_figures "$(tail -1 "$TMP/out")"; fi
"${P[@]}" "$TMP/u.jsonl" ours="$R/_MMRankingH200.measured.py" --per-shape >"$TMP/ps" 2>&1
if grep -qP '^  28\t55424x16x16\ttorch.bfloat16\toffered 19\tbenchmarked 1\tfull winners in set 0/3$' "$TMP/ps"; then
	ok proxy_per_shape
else fail proxy_per_shape "$(grep '^  28' "$TMP/ps")"; fi
"${P[@]}" "$TMP/u.jsonl" ours=gen/_MMRankingH100.py --check-mode ours=ours >/dev/null 2>"$TMP/err2"
rc=$?
if [ $rc -eq 1 ] && grep -q "row 0 .*mode ours benchmarked" "$TMP/err2"; then ok proxy_check_fails
else fail proxy_check_fails "rc $rc: $(head -c 200 "$TMP/err2")"; fi
head -3 "$TMP/u.jsonl" >"$TMP/bad.jsonl"
python3 -c 'import json; r=json.loads(open("'"$TMP/u.jsonl"'").readline()); del r["strides"]; print(json.dumps(r))' >>"$TMP/bad.jsonl"
expect_error proxy_missing_field "bad.jsonl:4: record without field 'strides'" "$TMP/none" \
	"${P[@]}" "$TMP/bad.jsonl" ours="$R/_MMRankingH200.measured.py"
expect_error proxy_missing_artifact "no-such.py: no such artifact" "$TMP/none" \
	"${P[@]}" "$TMP/u.jsonl" ours="$TMP/no-such.py"
finish
