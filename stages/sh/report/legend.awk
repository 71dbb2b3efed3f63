# legend.awk — the explanation of every metrics TSV column, from its one
# home: the table of stages/FORMATS.md, section "metrics TSV".
#
# usage: awk -f legend.awk stages/FORMATS.md > LEGEND.tsv
# Output: one line per column, "name<TAB>meaning" (a row naming several
# columns, `a`, `b`, gives each the row's meaning; markdown `code` and
# *emphasis* marks removed).  Exits 1 if the section or its table is missing.
/^## / { on = ($0 ~ /^## metrics TSV/); next }
on && /^\| `/ {
	n = split($0, f, /[ ]*\|[ ]*/)   # "", names, meaning, ""
	meaning = f[3]
	gsub(/[`*]/, "", meaning)
	m = split(f[2], names, /, */)
	for (i = 1; i <= m; i++) {
		name = names[i]
		gsub(/`/, "", name)
		printf "%s\t%s\n", name, meaning
		rows++
	}
}
END { if (!rows) { print "legend.awk: " FILENAME ": no metrics TSV table" > "/dev/stderr"; exit 1 } }
