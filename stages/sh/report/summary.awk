# summary.awk — data summary of feat TSVs as HTML tables, plus the winner
# histogram as a gnuplot data file.
#
# usage: awk -v top=15 -v windat=WINNERS.dat -f summary.awk SET.feat.tsv... > SUMMARY.html
# A set is named by its file name without folder and ".feat.tsv".
# Output: an HTML fragment (two tables: per-set counts and mixes; the top
# winners of the first set with their counts in every set).  WINNERS.dat:
# one row per top winner of the first set: short choice name, then its share
# of wins (%) in each set, columns in argument order; line 1 is a header.
# Exits 1 naming file:line on a malformed header.
BEGIN { FS = "\t"; if (top == "") top = 15; ns = 0 }
function die(msg) { printf "summary.awk: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; err = 1; exit 1 }
function setname(p) { sub(/.*\//, "", p); sub(/\.feat\.tsv$/, "", p); return p }
function h(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
function shorten(c,    s) {
	if (c !~ /^type=triton_/) return c
	s = c; sub(/^type=triton_/, "", s); gsub(/BLOCK-/, "", s)
	gsub(/numstages=/, "s", s); gsub(/numwarps=/, "w", s); gsub(/=/, "", s); gsub(/_/, " ", s)
	return s
}
function lay(v) { return v == "True" ? "N" : (v == "False" ? "T" : v) }
# "a: 12 (40%), b: 3 (10%)" of the keys of one set in a map, largest first
function mix(arr, key, s, total,    out, k, b, bn, seen, n, parts) {
	out = ""; n = 0
	for (k in arr) { split(k, parts, SUBSEP); if (parts[1] == s) { n++; seen[parts[2]] = arr[k] } }
	while (n-- > 0) {
		b = ""; for (k in seen) if (b == "" || seen[k] > seen[b] || (seen[k] == seen[b] && k < b)) b = k
		out = out (out == "" ? "" : "<br>") sprintf("%s: %d (%.1f%%)", h(b), seen[b], 100 * seen[b] / total)
		delete seen[b]
	}
	return out
}

FNR == 1 { S = setname(FILENAME); sets[++ns] = S; next }
FNR == 2 {
	for (i = 1; i <= NF; i++) col[$i] = i
	split("input m k n mat1_dtype mat2_dtype mat1_iscontig mat2_iscontig choice median_ms winner", need, " ")
	for (i in need) if (!(need[i] in col)) die("header lacks column " need[i])
	ci = col["input"]; cm = col["m"]; ck = col["k"]; cn = col["n"]; cd1 = col["mat1_dtype"]
	cd2 = col["mat2_dtype"]; cl1 = col["mat1_iscontig"]; cl2 = col["mat2_iscontig"]
	cc = col["choice"]; cw = col["winner"]; ct = ("using_tf32" in col) ? col["using_tf32"] : 0
	prev = ""
	next
}
{
	rows[S]++
	if (!((S, $cc) in chs)) { chs[S, $cc] = 1; nch[S]++ }
	if ($ci != prev) {
		prev = $ci; nin[S]++; nrow_in = 0
		d1 = $cd1; d2 = $cd2; sub(/^torch\./, "", d1); sub(/^torch\./, "", d2)
		dt[S, d1 (d1 == d2 ? "" : " × " d2)]++
		lo[S, lay($cl1) lay($cl2)]++
		if (ct) tf[S, $ct]++
		if (nin[S] == 1 || $cm + 0 < mmin[S]) mmin[S] = $cm + 0; if ($cm + 0 > mmax[S]) mmax[S] = $cm + 0
		if (nin[S] == 1 || $ck + 0 < kmin[S]) kmin[S] = $ck + 0; if ($ck + 0 > kmax[S]) kmax[S] = $ck + 0
		if (nin[S] == 1 || $cn + 0 < nmin[S]) nmin[S] = $cn + 0; if ($cn + 0 > nmax[S]) nmax[S] = $cn + 0
	}
	if ($cw == 1) { win[S, $cc]++; if (!((S, $cc) in wseen)) { wseen[S, $cc] = 1; nwin[S]++ } }
}
END {
	if (err) exit 1
	print "<table class=\"data\"><thead><tr><th></th>"
	for (j = 1; j <= ns; j++) printf "<th>%s</th>", h(sets[j]); print "</tr></thead><tbody>"
	printf "<tr><th>inputs</th>"; for (j = 1; j <= ns; j++) printf "<td>%d</td>", nin[sets[j]]; print "</tr>"
	printf "<tr><th>rows (input, choice)</th>"; for (j = 1; j <= ns; j++) printf "<td>%d</td>", rows[sets[j]]; print "</tr>"
	printf "<tr><th>distinct choices</th>"; for (j = 1; j <= ns; j++) printf "<td>%d</td>", nch[sets[j]]; print "</tr>"
	printf "<tr><th>choices per input (mean)</th>"; for (j = 1; j <= ns; j++) printf "<td>%.1f</td>", nin[sets[j]] ? rows[sets[j]] / nin[sets[j]] : 0; print "</tr>"
	printf "<tr><th>distinct winners</th>"; for (j = 1; j <= ns; j++) printf "<td>%d</td>", nwin[sets[j]]; print "</tr>"
	printf "<tr><th>m range</th>"; for (j = 1; j <= ns; j++) printf "<td>%d – %d</td>", mmin[sets[j]], mmax[sets[j]]; print "</tr>"
	printf "<tr><th>k range</th>"; for (j = 1; j <= ns; j++) printf "<td>%d – %d</td>", kmin[sets[j]], kmax[sets[j]]; print "</tr>"
	printf "<tr><th>n range</th>"; for (j = 1; j <= ns; j++) printf "<td>%d – %d</td>", nmin[sets[j]], nmax[sets[j]]; print "</tr>"
	printf "<tr><th>dtype (mat1 × mat2)</th>"; for (j = 1; j <= ns; j++) printf "<td>%s</td>", mix(dt, "", sets[j], nin[sets[j]]); print "</tr>"
	printf "<tr><th>layout (mat1 mat2; T = transposed)</th>"; for (j = 1; j <= ns; j++) printf "<td>%s</td>", mix(lo, "", sets[j], nin[sets[j]]); print "</tr>"
	if (ct) { printf "<tr><th>using_tf32</th>"; for (j = 1; j <= ns; j++) printf "<td>%s</td>", mix(tf, "", sets[j], nin[sets[j]]); print "</tr>" }
	print "</tbody></table>"

	# top winners of the first set, with their counts in every set
	S = sets[1]; n = 0
	for (k in win) { split(k, parts, SUBSEP); if (parts[1] == S) cand[parts[2]] = win[k] }
	printf "<table class=\"data\" id=\"winners\"><thead><tr><th>#</th><th>winning choice</th>"
	for (j = 1; j <= ns; j++) printf "<th>%s wins</th>", h(sets[j]); print "</tr></thead><tbody>"
	hdr = "choice"; for (j = 1; j <= ns; j++) hdr = hdr "\t" sets[j]
	if (windat != "") print hdr > windat
	for (r = 1; r <= top; r++) {
		b = ""; for (c in cand) if (b == "" || cand[c] > cand[b] || (cand[c] == cand[b] && c < b)) b = c
		if (b == "") break
		printf "<tr><td>%d</td><td title=\"%s\"><code>%s</code></td>", r, h(b), h(shorten(b))
		line = "\"" shorten(b) "\""
		for (j = 1; j <= ns; j++) {
			w = (sets[j], b) in win ? win[sets[j], b] : 0
			printf "<td>%d (%.1f%%)</td>", w, nin[sets[j]] ? 100 * w / nin[sets[j]] : 0
			line = line sprintf("\t%.3f", nin[sets[j]] ? 100 * w / nin[sets[j]] : 0)
		}
		print "</tr>"
		if (windat != "") print line > windat
		delete cand[b]
	}
	print "</tbody></table>"
	if (windat != "") close(windat)
}
