# perf/experiments/rule_ab.sh — sourced by the A/B scripts of a timing rule of
# bench --template triton (long_ms_ab.sh: --long-ms; loser_ab.sh:
# --loser-ratio): the same inputs timed with the rule off and on, twice
# each, interleaved (0a, Xa, 0b, Xb), then perf/experiments/inductor_agree.py:
# run 0b against 0a (the noise floor of the method without the rule) and
# the rule's runs against 0a, and a table of each run's throughput and
# counters with those figures.
#
#   rule_ab DIR SHAPES X "OFF OPTIONS" "ON OPTIONS"
#
# runs $BENCH (default build/bin/bench) --template triton --reps 1 --kernels
# kernels --triton-cubins $ENTRY with OFF OPTIONS (runs 0a, 0b) or ON OPTIONS
# (runs Xa, Xb) on SHAPES, writing DIR/{log,st,err}_<run>.*,
# DIR/agree_<run>.{txt,tsv,json} and DIR/table.md; prints the runs and the
# reports.  Returns 1 when a run fails (its stderr's last line said).
BENCH=${BENCH:-build/bin/bench}
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"   # the mmrank package (inductor_agree.py)

# one line of bench --stats keys, for the console
rule_ab_keys='inputs_measured|inputs_per_hour|timing_nvrtc_s|timing_extern_s|verify_s|timed_launches|long_choices|long_fallbacks|loser_choices|loser_fallbacks|warm_from_verify|verify_failures'

rule_ab() {
	local dir=$1 shapes=$2 x=$3 off=$4 on=$5 run opts t0 r
	mkdir -p "$dir" || return 1
	for run in 0a "${x}a" 0b "${x}b"; do
		opts=$off
		[ "${run%?}" = "$x" ] && opts=$on
		t0=$(date +%s.%N)
		# shellcheck disable=SC2086 # the options are words
		"$BENCH" --template triton --reps 1 --kernels kernels --triton-cubins "$ENTRY" $opts \
			--stats "$dir/st_$run.tsv" -o "$dir/log_$run.txt" "$shapes" 2> "$dir/err_$run.txt" ||
			{ echo "$run: bench failed: $(tail -1 "$dir/err_$run.txt")"; return 1; }
		echo "$run ($opts): $(awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.1f s", t1 - t0 }') $(awk -F'\t' \
			-v k="^($rule_ab_keys)\$" '$1 ~ k { printf "%s=%s ", $1, $2 }' "$dir/st_$run.tsv")"
	done
	for r in 0b "${x}a" "${x}b"; do
		python3 perf/experiments/inductor_agree.py "$dir/log_0a.txt" "$dir/log_$r.txt" --name-x "$r" \
			--a-stats "$dir/st_0a.tsv" --x-stats "$dir/st_$r.tsv" --per-input "$dir/agree_$r.tsv" \
			--json "$dir/agree_$r.json" > "$dir/agree_$r.txt" || return 1
		echo "== $r vs 0a"
		cat "$dir/agree_$r.txt"
	done
	rule_ab_table "$dir" "$x" "$off" "$on" | tee "$dir/table.md"
}

# The runs of DIR as a Markdown table: options, inputs/hour, timed launches,
# the rules' counters, and against run 0a (0b: the noise floor) winner
# within 2 %, median Spearman rho (min), the per-choice time ratio p10-p90.
rule_ab_table() {
	python3 - "$@" <<'EOF'
import json, os, sys
d, x, off, on = sys.argv[1:5]
print("| run | options | inputs/hour | timed launches | long | loser (fallbacks) "
      "| winner within 2 % | median rho (min) | ratio p10-p90 |")
print("|---|---|---|---|---|---|---|---|---|")
for run in ("0a", x + "a", "0b", x + "b"):
    st = {}
    for line in open(os.path.join(d, f"st_{run}.tsv")):
        k, _, v = line.rstrip("\n").partition("\t")
        st[k] = v
    agree = "| - (the reference) | - | - |"
    p = os.path.join(d, f"agree_{run}.json")
    if run != "0a" and os.path.exists(p):
        s = json.load(open(p))
        f = lambda v, n=4: "-" if v is None else f"{v:.{n}g}"
        w = "-" if s["winner_within_2pct"] is None else f"{100 * s['winner_within_2pct']:.1f} %"
        agree = (f"| {w} | {f(s['spearman_median'])} ({f(s['spearman_min'])}) "
                 f"| {f(s['ratio_p10'])}-{f(s['ratio_p90'])} |")
    print(f"| {run} | `{off if run[0] == '0' else on}` | {st.get('inputs_per_hour', '-')} "
          f"| {st.get('timed_launches', '-')} | {st.get('long_choices', '-')} "
          f"| {st.get('loser_choices', '-')} ({st.get('loser_fallbacks', '-')}) {agree}")
EOF
}
