# tree2dot.awk — tree TSV (stages/FORMATS.md) -> graphviz DOT with readable
# leaves: each leaf shows its id, training samples and its TOP most probable
# choices, shortened (`M128 K64 N128 s3 w4`), with probabilities.
#
# usage: awk -v top=5 -v title=NAME -f tree2dot.awk TREE.tsv > TREE.dot
# Exits 1 (message names file:line) on a record it cannot read.
BEGIN { FS = "\t"; if (top == "") top = 5; nnode = 0 }

function die(msg) {
	printf "tree2dot: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
	err = 1; exit 1
}
# extern_mm stays; type=triton_BLOCK-M=128_BLOCK-K=64_BLOCK-N=128_numstages=3_numwarps=4
# becomes "M128 K64 N128 s3 w4"; anything else is kept verbatim.
function shorten(c,    s) {
	if (c !~ /^type=triton_/) return c
	s = c
	sub(/^type=triton_/, "", s)
	gsub(/BLOCK-/, "", s)
	gsub(/numstages=/, "s", s)
	gsub(/numwarps=/, "w", s)
	gsub(/=/, "", s)
	gsub(/_/, " ", s)
	return s
}
function esc(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return s }

FNR == 1 { next }                       # metadata JSON line
$1 == "param"   { param[$2] = $3; next }
$1 == "feature" { feat[$2] = $3; next }
$1 == "class"   { cls[$2] = $3; next }
$1 == "node" {
	if (NF < 9) die("node record with " NF " fields, expected 10")
	id = $2; nodes[nnode++] = id
	f[id] = $3; thr[id] = $4; left[id] = $5; right[id] = $6; ns[id] = $7
	probs[id] = (NF >= 10 ? $10 : "")
	if ($3 != -1 && !($3 in feat)) die("node " id ": unknown feature index " $3)
	next
}
$1 != "" { die("unknown record kind '" $1 "'") }

END {
	if (err) exit 1
	if (nnode == 0) { print "tree2dot: " FILENAME ": no node records" > "/dev/stderr"; exit 1 }
	print "digraph tree {"
	printf "  graph [rankdir=LR, nodesep=0.08, ranksep=0.35, fontname=\"DejaVu Sans\", label=\"%s\", labelloc=t, fontsize=16];\n", esc(title)
	print "  node [fontname=\"DejaVu Sans Mono\", fontsize=10, margin=\"0.08,0.03\"];"
	print "  edge [fontname=\"DejaVu Sans\", fontsize=9, arrowsize=0.6];"
	for (j = 0; j < nnode; j++) {
		id = nodes[j]
		if (f[id] == -1) {
			# leaf: top choices by rank weight (ties: lower class index)
			np = split(probs[id], pp, ",")
			n = 0
			for (q = 1; q <= np; q++) {
				if (pp[q] == "") continue
				split(pp[q], kv, ":")
				n++; pc[n] = kv[1] + 0; pv[n] = kv[2] + 0; used[n] = 0
			}
			lab = sprintf("leaf %s   n=%s   %d choices\\l", id, ns[id], n)
			for (r = 1; r <= top && r <= n; r++) {
				b = 0
				for (q = 1; q <= n; q++)
					if (!used[q] && (b == 0 || pv[q] > pv[b] || (pv[q] == pv[b] && pc[q] < pc[b]))) b = q
				used[b] = 1
				lab = lab sprintf("%-20s %5.1f%%\\l", esc(shorten(cls[pc[b]])), 100 * pv[b])
			}
			if (n == 0) lab = lab "(no probabilities: returns None)\\l"
			printf "  n%s [shape=box, style=\"rounded,filled\", fillcolor=\"#e8f1fb\", color=\"#4a78a8\", label=\"%s\"];\n", id, lab
		} else {
			printf "  n%s [shape=box, style=filled, fillcolor=\"#f6f6f6\", color=\"#888888\", fontname=\"DejaVu Sans\", label=\"%s <= %.6g\\nn=%s\"];\n", id, esc(feat[f[id]]), thr[id], ns[id]
			printf "  n%s -> n%s [label=\"yes\"];\n", id, left[id]
			printf "  n%s -> n%s [label=\"no\"];\n", id, right[id]
		}
	}
	print "}"
}
