# mk/gpus.awk -- the one reader of datasets/GPUS.tsv, the GPU facts (one row
# per GPU; docs/DESIGN.md "GPU facts").  Every row is checked before anything
# is printed; a bad one stops with FILE:LINE: field 'NAME': what is wrong.
#   awk -v mode=check -f mk/gpus.awk GPUS.tsv
#       the checks alone (exit status 1 on a bad row)
#   awk -v mode=make -v gpu=NAME -f mk/gpus.awk GPUS.tsv PROFILES.tsv
#       for make (mk/gpus.mk): one line of words, ROW ARCH MEM_BYTES SELECT
#       LEAF_RANK TRUTH: ROW the GPU's row name, or '-' when it has none
#       (then the '*' row's facts); SELECT, LEAF_RANK, TRUTH from
#       PROFILES.tsv's row the GPU's profile column names (a GPU without a
#       row: its own name), else its '*' row; TRUTH '-' for none (also
#       without the column)
#   awk -v mode=header -f mk/gpus.awk GPUS.tsv
#       the C header $(BUILD)/gen/gpus.h: GPUS_ROWS(X), one
#       X(name, arch, mem_mib, shared_memory, cap_major, cap_minor,
#       device_name, nvmmh) per named row ("" where the table says '-'),
#       and the '*' row's facts as GPUS_DEFAULT_*
# Nothing of the table becomes make text or C unless it passed its column's
# rule: names, archs and descriptors are words of a strict charset, numbers
# are decimal digits (the device-name rule is emit's too: stages/formats/
# emittable.h emittable_device_name_problem).
BEGIN {
	FS = "\t"; nrow = 0; bad = 0
	ncol = split("gpu arch mem_mib shared_memory capability device_name nvmmh profile what", col, " ")
	file1 = ARGV[1]; hdr = 0
	if (mode == "make" && (getline pl < ARGV[2]) < 0) {
		printf "%s: cannot read the GPU profiles (PROFILES)\n", ARGV[2] > "/dev/stderr"
		bad = 1; exit 1
	}
}
function fail(line, field, msg) {
	printf "%s:%d: field '%s': %s\n", FILENAME, line, field, msg > "/dev/stderr"
	bad = 1
	exit 1
}
# the rule of column c for value v: "" if it passes, else what is wrong
function problem(c, v, star) {
	if (c == "gpu")
		return v == "*" || v ~ /^[a-z0-9][a-z0-9_-]*$/ && length(v) <= 32 ? "" : \
		  "expected a GPU name: 1 to 32 of a-z 0-9 _ -, starting with a letter or digit (or * for the default row)"
	if (c == "arch")
		return v ~ /^sm_[1-9][0-9]$/ || v ~ /^sm_[1-9][0-9][0-9]$/ ? "" : "expected sm_NN or sm_NNN (e.g. sm_90)"
	if (c == "mem_mib")
		return v ~ /^[1-9][0-9]*$/ && length(v) <= 8 ? "" : "expected the total memory in MiB, 1 to 99999999"
	if (c == "shared_memory")
		return v ~ /^[1-9][0-9]*$/ && length(v) <= 10 && v + 0 <= 2147483647 ? "" : \
		  "expected the opt-in shared memory per block in bytes, 1 to 2147483647"
	if (c == "capability")
		return v ~ /^[1-9][0-9]?\.[0-9]$/ ? "" : "expected a compute capability MAJOR.MINOR (major 1..99, minor 0..9)"
	if (c == "device_name")
		return (v == "-" ? star : v ~ /^[A-Z0-9][A-Z0-9-]*$/ && length(v) <= 32) ? "" : \
		  (star ? "expected the device-name pattern: 1 to 32 of A-Z 0-9 -, starting with a letter or digit" : \
		   "expected the device-name pattern: 1 to 32 of A-Z 0-9 -, starting with a letter or digit (- only in the * row)")
	if (c == "nvmmh")
		return v == "-" || v ~ /^[A-Z0-9][A-Z0-9_]*$/ && length(v) <= 40 ? "" : \
		  "expected nvMatmulHeuristics' descriptor NVMMH_NVGPU_<THIS> (A-Z 0-9 _), or -"
	if (c == "profile")
		return v == "*" || v ~ /^[a-z0-9][a-z0-9_-]*$/ && length(v) <= 32 ? "" : \
		  "expected a row name of datasets/PROFILES.tsv (a-z 0-9 _ -) or *"
	if (c == "what")
		return v ~ /[[:cntrl:]]/ ? "holds a control character" : ""
	return ""
}
# the first file: the table ('#' lines are comments)
FILENAME == file1 && /^#/ { next }
FILENAME == file1 && !hdr {
	hdr = 1
	for (i = 1; i <= ncol; i++)
		if ($i != col[i]) fail(FNR, col[i], "header column " i " is '" $i "', expected '" col[i] "' (columns: gpu arch mem_mib shared_memory capability device_name nvmmh profile what)")
	if (NF != ncol) fail(FNR, "what", "header has " NF " columns, expected " ncol)
	next
}
FILENAME == file1 {
	if (NF != ncol) fail(FNR, NF < ncol ? col[NF + 1] : "what", NF " fields, expected " ncol " (tab-separated)")
	for (i = 1; i <= ncol; i++) {
		why = problem(col[i], $i, $1 == "*")
		if (why != "") fail(FNR, col[i], "'" $i "': " why)
	}
	if ($1 in rowline) fail(FNR, "gpu", "'" $1 "' has a row already (line " rowline[$1] ")")
	rowline[$1] = FNR
	nrow++; order[nrow] = $1
	for (i = 1; i <= ncol; i++) v[$1, col[i]] = $i
	next
}
# the second file (mode=make): PROFILES.tsv, its columns by name
FNR == 1 { for (i = 1; i <= NF; i++) pcol[$i] = i; next }
{ if ("select" in pcol) psel[$1] = $(pcol["select"]); if ("leaf_rank" in pcol) pleaf[$1] = $(pcol["leaf_rank"])
  if ("truth" in pcol) ptruth[$1] = $(pcol["truth"]); pline[$1] = FNR }
function profile_value(arr, what, key,    k) {
	k = key in arr ? key : "*"
	if (!(k in arr)) {
		printf "%s: no '%s' for GPU '%s' and no '*' row\n", pfile, what, gpu > "/dev/stderr"
		bad = 1; exit 1
	}
	if (arr[k] !~ /^[A-Za-z0-9._+-]+$/) {
		printf "%s:%d: field '%s': '%s': expected one word of letters, digits and ._+-\n", pfile, pline[k], what, arr[k] > "/dev/stderr"
		bad = 1; exit 1
	}
	return arr[k]
}
# the truth log (optional column): '-' for none, else a relative path of
# letters, digits and ._/+- without '..'
function truth_value(key,    k) {
	k = key in ptruth ? key : "*"
	if (!(k in ptruth) || ptruth[k] == "" || ptruth[k] == "-") return "-"
	if (ptruth[k] !~ /^[A-Za-z0-9._+-][A-Za-z0-9._\/+-]*$/ || ptruth[k] ~ /(^|\/)\.\.(\/|$)/) {
		printf "%s:%d: field 'truth': '%s': expected '-' or a relative path of letters, digits and ._/+- (no '..')\n", pfile, pline[k], ptruth[k] > "/dev/stderr"
		bad = 1; exit 1
	}
	return ptruth[k]
}
function cstr(x) { return x == "-" ? "\"\"" : "\"" x "\"" }
END {
	if (bad) exit 1
	if (!hdr) { printf "%s: empty: expected the header line (gpu arch ...)\n", file1 > "/dev/stderr"; exit 1 }
	if (!("*" in rowline)) {
		printf "%s: no '*' row (the facts of a GPU without a row)\n", file1 > "/dev/stderr"
		exit 1
	}
	if (mode == "make") {
		pfile = ARGV[2]
		r = gpu in rowline ? gpu : "*"
		key = gpu in rowline ? v[gpu, "profile"] : gpu
		if (!(gpu in rowline) && !(key in psel)) key = v["*", "profile"]
		printf "%s %s %.0f %s %s %s\n", (gpu in rowline ? gpu : "-"), v[r, "arch"], v[r, "mem_mib"] * 1048576,
			profile_value(psel, "select", key), profile_value(pleaf, "leaf_rank", key), truth_value(key)
	} else if (mode == "header") {
		print "/* gpus.h -- generated from " file1 " by mk/gpus.awk (make): do not edit."
		print " * The GPU facts, one GPUS_ROWS entry per named row, in the table's order:"
		print " * X(name, arch, mem_mib, shared_memory, cap_major, cap_minor, device_name,"
		print " *   nvmmh) with strings (\"\" where the table says -) and integers; nvmmh is"
		print " * the suffix of nvMatmulHeuristics' NVMMH_NVGPU_ descriptor, a bare word"
		print " * (GPUS_NVMMH_ROWS(X): X(name, shared_memory, cap_major, cap_minor,"
		print " * NVMMH) for the rows that have one).  The '*' row, the facts assumed for"
		print " * a GPU without a row: GPUS_DEFAULT_*. */"
		print "#ifndef MMRANK_GEN_GPUS_H"
		print "#define MMRANK_GEN_GPUS_H"
		printf "#define GPUS_ROWS(X)"
		for (i = 1; i <= nrow; i++) {
			g = order[i]
			if (g == "*") continue
			split(v[g, "capability"], cap, ".")
			printf " \\\n\tX(\"%s\", \"%s\", %d, %d, %d, %d, %s, %s)", g, v[g, "arch"], v[g, "mem_mib"],
				v[g, "shared_memory"], cap[1], cap[2], cstr(v[g, "device_name"]), cstr(v[g, "nvmmh"])
		}
		printf "\n#define GPUS_NVMMH_ROWS(X)"
		for (i = 1; i <= nrow; i++) {
			g = order[i]
			if (g == "*" || v[g, "nvmmh"] == "-") continue
			split(v[g, "capability"], cap, ".")
			printf " \\\n\tX(\"%s\", %d, %d, %d, %s)", g, v[g, "shared_memory"], cap[1], cap[2], v[g, "nvmmh"]
		}
		split(v["*", "capability"], cap, ".")
		printf "\n#define GPUS_DEFAULT_ARCH \"%s\"\n", v["*", "arch"]
		printf "#define GPUS_DEFAULT_MEM_MIB %d\n", v["*", "mem_mib"]
		printf "#define GPUS_DEFAULT_SHARED_MEMORY %d\n", v["*", "shared_memory"]
		printf "#define GPUS_DEFAULT_CAP_MAJOR %d\n", cap[1]
		printf "#define GPUS_DEFAULT_CAP_MINOR %d\n", cap[2]
		print "#endif"
	}
}
