# metrics.awk — HTML tables from fit's metrics TSV or eval's -o TSV
# (columns: stages/FORMATS.md "metrics TSV"; eval --help).
#
# usage: awk -v mode=metrics [-v legend=LEGEND.tsv] -f metrics.awk METRICS.tsv > FRAGMENT.html
#        awk -v mode=eval    -f metrics.awk EVAL.tsv    > FRAGMENT.html
# mode=metrics: the selected model's rows transposed (one column per set,
#   one row per metric, and a last column with the metric's meaning from
#   LEGEND.tsv, legend.awk's output: every metric must have one), then,
#   when the grid had more than one model, a compact table of every
#   (model, set) row.
# mode=eval: one row per (set, k): inputs, hit rate, regret gmean/p95/max,
#   speedup over extern_mm gmean/max, no_ranked, unsafe.
# Exits 1 naming the file when a needed column is missing or it is empty.
BEGIN {
	FS = "\t"
	if (legend != "") {
		while ((rc = getline line < legend) > 0) { split(line, lf, "\t"); what[lf[1]] = lf[2] }
		if (rc < 0) { printf "metrics.awk: cannot read %s\n", legend > "/dev/stderr"; err = 1; exit 1 }
	}
}
function die(msg) { printf "metrics.awk: %s: %s\n", FILENAME, msg > "/dev/stderr"; err = 1; exit 1 }
function h(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
# integers verbatim, other numbers with 5 significant digits
function num(v) { if (v ~ /^-?[0-9]+$/) return v; if (v ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) return sprintf("%.5g", v); return h(v) }
NR == 1 { for (i = 1; i <= NF; i++) { col[$i] = i; name[i] = $i }; nf = NF; next }
{ n++; for (i = 1; i <= NF; i++) v[n, i] = $i }
END {
	if (err) exit 1
	if (n == 0) die("no data rows")
	if (mode == "metrics") {
		split("set criterion max_depth min_samples_leaf selected total", need, " ")
		for (i in need) if (!(need[i] in col)) die("no column " need[i])
		cs = col["set"]; csel = col["selected"]; ns = 0
		for (r = 1; r <= n; r++) if (v[r, csel] == 1) sel[++ns] = r
		if (ns == 0) for (r = 1; r <= n; r++) sel[++ns] = r
		r = sel[1]
		printf "<p>Selected model: <b>%s</b>, max_depth %s, min_samples_leaf %s (%d model%s in the grid).</p>\n", \
			h(v[r, col["criterion"]]), h(v[r, col["max_depth"]]), h(v[r, col["min_samples_leaf"]]), n / ns, n / ns == 1 ? "" : "s"
		printf "<table class=\"data metrics\"><thead><tr><th>metric</th>"
		for (j = 1; j <= ns; j++) printf "<th>%s</th>", h(v[sel[j], cs])
		print (legend != "" ? "<th>meaning</th>" : "") "</tr></thead><tbody>"
		for (i = 1; i <= nf; i++) {
			if (name[i] ~ /^(set|criterion|max_depth|min_samples_leaf|selected)$/) continue
			if (legend != "" && !(name[i] in what)) die("no meaning for column " name[i] " in " legend)
			printf "<tr><th>%s</th>", h(name[i])
			for (j = 1; j <= ns; j++) printf "<td>%s</td>", num(v[sel[j], i])
			if (legend != "") printf "<td class=\"what\">%s</td>", h(what[name[i]])
			print "</tr>"
		}
		print "</tbody></table>"
		if (n > ns) {
			print "<details><summary>every model of the grid</summary><table class=\"data\"><thead><tr>"
			split("set criterion max_depth min_samples_leaf selected total top_k_correct regret_gmean regret_max", show, " ")
			for (i = 1; i in show; i++) if (show[i] in col) printf "<th>%s</th>", show[i]
			print "</tr></thead><tbody>"
			for (r = 1; r <= n; r++) {
				printf "<tr%s>", v[r, csel] == 1 ? " class=\"sel\"" : ""
				for (i = 1; i in show; i++) if (show[i] in col) printf "<td>%s</td>", num(v[r, col[show[i]]])
				print "</tr>"
			}
			print "</tbody></table></details>"
		}
	} else if (mode == "eval") {
		split("set k inputs hit_rate regret_gmean regret_p95 regret_max speedup_gmean speedup_max no_ranked unsafe", need, " ")
		for (i in need) if (!(need[i] in col)) die("no column " need[i])
		print "<table class=\"data\"><thead><tr><th>set</th><th>top-k</th><th>inputs</th><th>hit rate</th><th>regret gmean</th><th>regret p95</th><th>regret max</th><th>speedup over extern_mm (gmean)</th><th>speedup max</th><th>no ranked</th><th>unsafe</th></tr></thead><tbody>"
		for (r = 1; r <= n; r++) {
			printf "<tr><td>%s</td><td>%s</td><td>%s</td><td>%.2f%%</td>", h(v[r, col["set"]]), v[r, col["k"]], v[r, col["inputs"]], 100 * v[r, col["hit_rate"]]
			printf "<td>%.5f</td><td>%.5f</td><td>%.4f</td><td>%.4f</td><td>%.4f</td><td>%s</td><td>%s</td></tr>\n", \
				v[r, col["regret_gmean"]], v[r, col["regret_p95"]], v[r, col["regret_max"]], v[r, col["speedup_gmean"]], \
				v[r, col["speedup_max"]], v[r, col["no_ranked"]], v[r, col["unsafe"]]
		}
		print "</tbody></table>"
	} else if (mode == "curve") {
		# eval --curve: per set, the pick alone, k = 1..10, auto and
		# the list head alone
		split("set k inputs hit_rate regret_gmean regret_max regret_none", need, " ")
		for (i in need) if (!(need[i] in col)) die("no column " need[i])
		print "<table class=\"data\"><thead><tr><th>set</th><th>list</th><th>inputs</th><th>hit rate</th><th>regret gmean</th><th>regret max</th><th>no finite time</th></tr></thead><tbody>"
		for (r = 1; r <= n; r++) {
			k = v[r, col["k"]]
			printf "<tr><td>%s</td><td>%s</td><td>%s</td><td>%.2f%%</td><td>%.5f</td><td>%.4f</td><td>%s</td></tr>\n", \
				h(v[r, col["set"]]), k == "first" ? "the pick alone" : k == "head" ? "the list head alone" : \
				k == "auto" ? "top-k (the leaf's k) + extern_mm" : "top-" k " + extern_mm", v[r, col["inputs"]], \
				100 * v[r, col["hit_rate"]], v[r, col["regret_gmean"]], v[r, col["regret_max"]], v[r, col["regret_none"]]
		}
		print "</tbody></table>"
	} else die("mode must be metrics, eval or curve")
}
