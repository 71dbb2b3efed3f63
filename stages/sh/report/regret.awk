# regret.awk — per-input regret of a ranking tree, from `eval --ranks` output.
#
# usage: awk -v ks=1,10 -f regret.awk TREE.tsv SET.feat.tsv... RANKS.tsv > REGRET.tsv
#   TREE.tsv     the tree the ranks were made with (for its class names)
#   SET.feat.tsv the sets eval ranked; a set is named by its file name
#                without the folder and ".feat.tsv", as eval names it
#   RANKS.tsv    eval --ranks output: tree set input leaf winner ranking
#                [pick] (the pick is not read)
# Output (stdout), one row per (set, input, k) with a finite regret:
#   set  input  k  regret
# regret = (best median time among the top-k list) / (the input's best time),
# the list being, as in stages/learn/metrics.c (spec §5.9), the first k ranked
# choices measured for the input (an `inf` time is measured) plus extern_mm
# when it is not among them.  Inputs whose best time is not finite are
# skipped (eval skips them too); a list without a finite time gives no row.
# Exits 1 naming file:line on a malformed row.
BEGIN { FS = "\t"; OFS = "\t"; nk = split(ks, K, ","); if (nk == 0) { print "regret.awk: -v ks=LIST missing" > "/dev/stderr"; exit 1 } }
function die(msg) { printf "regret.awk: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; err = 1; exit 1 }
function setname(p) { sub(/.*\//, "", p); sub(/\.feat\.tsv$/, "", p); return p }
function finite(v) { return v != "inf" && v != "nan" && v != "" }

FNR == 1 { file++; kind = (file == 1 ? "tree" : (FILENAME ~ /\.feat\.tsv$/ ? "feat" : "ranks")) }
kind == "tree" { if ($1 == "class") cls[$2] = $3; next }
kind == "feat" && FNR == 1 { next }
kind == "feat" && FNR == 2 {
	S = setname(FILENAME); ci = cc = cm = 0
	for (i = 1; i <= NF; i++) {
		if ($i == "input") ci = i; else if ($i == "choice") cc = i; else if ($i == "median_ms") cm = i
	}
	if (!ci || !cc || !cm) die("header lacks input, choice or median_ms")
	next
}
kind == "feat" {
	v = $cm; if (v == "+inf" || v == "Inf" || v == "INF") v = "inf"
	t[S, $ci, $cc] = v
	if (finite(v) && (!((S, $ci) in best) || v + 0 < best[S, $ci] + 0)) best[S, $ci] = v
	next
}
kind == "ranks" && FNR == 1 { if ($1 != "tree" || $6 != "ranking") die("not an eval --ranks file"); nh = NF; next }
kind == "ranks" {
	if (NF != nh) die("expected " nh " fields, got " NF)
	S = $2; in_ = $3
	if (!((S, in_) in best)) next
	bt = best[S, in_] + 0
	if (!(bt > 0)) next
	nr = split($6, R, ",")
	for (q = 1; q <= nk; q++) {
		k = K[q] + 0; listed = 0; bl = ""; hasdef = 0
		for (i = 1; i <= nr && listed < k; i++) {
			if (!(R[i] in cls)) die("class index " R[i] " not in the tree")
			c = cls[R[i]]
			if (!((S, in_, c) in t)) continue
			listed++
			if (c == "extern_mm") hasdef = 1
			v = t[S, in_, c]
			if (finite(v) && (bl == "" || v + 0 < bl + 0)) bl = v
		}
		if (!hasdef && ((S, in_, "extern_mm") in t)) {
			v = t[S, in_, "extern_mm"]
			if (finite(v) && (bl == "" || v + 0 < bl + 0)) bl = v
		}
		if (bl != "") printf "%s\t%s\t%d\t%.17g\n", S, in_, k, (bl + 0) / bt
	}
}
END { if (err) exit 1 }
