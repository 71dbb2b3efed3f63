# mk/variables.awk -- what make makes of mk/variables.tsv (the registry of the
# user variables; its header says what each column means).
#   awk -v mode=defs -f mk/variables.awk mk/variables.tsv
#       make text for mk/vars.mk, its lines joined by "~NL~" ($(shell) would
#       turn newlines into spaces): NAME ?= DEFAULT per row, and the fit
#       options (MMR_FLAGS_fit, MMR_FLAG_<NAME>)
#   awk -v mode=help -v tier=help|help-all -f mk/variables.awk mk/variables.tsv
#       the variables part of make help / help-all: NAME=VALUE (RANGE; HELP),
#       grouped, at most 100 columns; the values come from the environment
#       variable MMR_HELP_VALUES (NAME=VALUE lines)
#   awk -v mode=doc -f mk/variables.awk mk/variables.tsv
#       the Markdown table of docs/VARIABLES.md
#   awk -v mode=suggest -v names="N1 N2" -f mk/variables.awk mk/variables.tsv
#       "N1 (did you mean X?), N2" for names make does not know: the row of
#       the same name in another case, else one within 2 edits, else one
#       whose help has the name as a word
BEGIN { FS = "\t"; n = 0; ng = 0 }
/^## / { ng++; gtitle[ng] = substr($0, 4); next }
/^#/ || /^name\t/ || NF == 0 { next }
{
	n++; name[n] = $1; kind[n] = $2; range[n] = $3; dflt[n] = $4; flag[n] = $5
	tier_[n] = $6; help[n] = $7; grp[n] = ng; row[$1] = n
}
function shown_range(i,    r) {
	if (range[i] == "" || range[i] == "rule" || range[i] ~ /^@/) return ""
	# 'empty' among the alternatives: an empty value is allowed (said so:
	# "NAME=value (empty; ...)" would read as the value being empty)
	if (range[i] == "empty") return "may be empty"
	r = range[i]
	if (sub(/(^empty\||\|empty$)/, "", r) || sub(/\|empty\|/, "|", r)) return r ", or empty"
	return r
}
# the make text that passes row i's option (empty when the value is one of
# the flag column's !VALUE words)
function flag_text(i,    w, k, opt, off) {
	k = split(flag[i], w, " ")
	opt = w[2]; off = ""
	for (j = 3; j <= k; j++) if (w[j] ~ /^!/) off = off (off == "" ? "" : " ") substr(w[j], 2)
	if (off == "") return opt " $(" name[i] ")"
	return "$(if $(filter-out " off ",$(" name[i] ")),"  opt " $(" name[i] "))"
}
function wrap(text, width, indent,    out, line, k, w, i) {
	k = split(text, w, " ")
	out = ""; line = ""
	# (the leading spaces of text are kept: split drops them)
	match(text, /^ */); line = substr(text, 1, RLENGTH) w[1]
	for (i = 2; i <= k; i++) {
		if (length(line) + 1 + length(w[i]) > width) { out = out line "\n"; line = indent w[i] }
		else line = line " " w[i]
	}
	return out line
}
# Damerau-Levenshtein distance (optimal string alignment)
function dist(a, b,    la, lb, i, j, d, c, x) {
	la = length(a); lb = length(b)
	for (i = 0; i <= la; i++) d[i, 0] = i
	for (j = 0; j <= lb; j++) d[0, j] = j
	for (i = 1; i <= la; i++) for (j = 1; j <= lb; j++) {
		c = substr(a, i, 1) == substr(b, j, 1) ? 0 : 1
		x = d[i - 1, j] + 1
		if (d[i, j - 1] + 1 < x) x = d[i, j - 1] + 1
		if (d[i - 1, j - 1] + c < x) x = d[i - 1, j - 1] + c
		if (i > 1 && j > 1 && substr(a, i, 1) == substr(b, j - 1, 1) && substr(a, i - 1, 1) == substr(b, j, 1) &&
			d[i - 2, j - 2] + 1 < x) x = d[i - 2, j - 2] + 1
		d[i, j] = x
	}
	return d[la, lb]
}
END {
	if (mode == "defs") {
		out = "MMR_NAMES :="
		for (i = 1; i <= n; i++) out = out " " name[i]
		fit = "MMR_FLAGS_fit :="
		for (i = 1; i <= n; i++) {
			out = out "~NL~" name[i] " ?=" (dflt[i] == "" ? "" : " " dflt[i])
			if (flag[i] ~ /^fit[ ,]/) {
				fit = fit " " name[i]
				out = out "~NL~MMR_FLAG_" name[i] " = " flag_text(i)
			}
		}
		print out "~NL~" fit
	} else if (mode == "help") {
		split(ENVIRON["MMR_HELP_VALUES"], lines, "\n")
		for (k in lines) {
			l = lines[k]; sub(/^ /, "", l)
			e = index(l, "="); if (e) val[substr(l, 1, e - 1)] = substr(l, e + 1)
		}
		last = -1
		for (i = 1; i <= n; i++) {
			if (tier == "help" && tier_[i] != "help") continue
			if (grp[i] != last) { print " " gtitle[grp[i]]; last = grp[i] }
			r = shown_range(i)
			print wrap("  " name[i] "=" val[name[i]] " (" (r == "" ? "" : r "; ") help[i] ")", 100, "        ")
		}
	} else if (mode == "doc") {
		print "| variable | default | kind | range | feeds | help | in |"
		print "|---|---|---|---|---|---|---|"
		for (i = 1; i <= n; i++) {
			r = range[i]; gsub(/\|/, "\\|", r)
			d = dflt[i]; gsub(/\|/, "\\|", d)
			h = help[i]; gsub(/\|/, "\\|", h)
			printf "| `%s` | %s | %s | %s | %s | %s | %s |\n", name[i], (d == "" ? "empty" : "`" d "`"),
				kind[i], (r == "" ? "" : "`" r "`"), (flag[i] == "" ? "" : "`" flag[i] "`"), h,
				(tier_[i] == "help" ? "help" : "help-all")
		}
	} else if (mode == "suggest") {
		k = split(names, want, " "); out = ""
		for (m = 1; m <= k; m++) {
			best = ""; bd = 3; u = toupper(want[m])
			for (i = 1; i <= n; i++) {
				if (name[i] == u) { best = name[i]; bd = -1; break }
				x = dist(u, name[i])
				if (x < bd) { bd = x; best = name[i] }
			}
			# else the first row whose help has the name as a word, hyphens
			# and underscores aside (TOPK, TOP_K: RANKING, "top-k: the length
			# of each leaf's list")
			w = tolower(u); gsub(/_/, "", w)
			for (i = 1; best == "" && length(w) >= 3 && i <= n; i++) {
				h = tolower(help[i]); gsub(/-/, "", h)
				if ((" " h " ") ~ ("[^a-z0-9_]" w "[^a-z0-9_]")) best = name[i]
			}
			out = out (m > 1 ? ", " : "") want[m] (best == "" ? "" : " (did you mean " best "?)")
		}
		print out
	}
}
