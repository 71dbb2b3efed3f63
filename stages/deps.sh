#!/usr/bin/env bash
# deps.sh — check the build and run dependencies; install them when root.
#
# usage: stages/deps.sh [--check]
# Needs: a C compiler (gcc or cc), GNU make, m4, jansson headers and library
# (libjansson-dev), libzip and ISA-L (libzip-dev, libisal-dev: featurize
# reads the dataset zips), unzip, sha256sum (coreutils), python3 (tests).
# As root (and without --check) missing Debian packages are installed with
# apt-get; otherwise the exact install command is printed and the exit
# status is 1.  The CUDA toolkit (nvcc, cuBLAS, NVRTC) is optional: it is
# only needed to build `bench` for `make collect`.
set -uo pipefail
[ "${1:-}" = --help ] && { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
missing=()
command -v cc >/dev/null || command -v gcc >/dev/null || missing+=(gcc)
command -v make >/dev/null || missing+=(make)
command -v m4 >/dev/null || missing+=(m4)
command -v unzip >/dev/null || missing+=(unzip)
command -v sha256sum >/dev/null || missing+=(coreutils)
command -v python3 >/dev/null || missing+=(python3)
printf '#include <jansson.h>\nint main(void){return json_object()==0;}\n' |
	${CC:-cc} -x c - -o /dev/null -ljansson 2>/dev/null || missing+=(libjansson-dev)
printf '#include <zip.h>\nint main(void){return zip_libzip_version()==0;}\n' |
	${CC:-cc} -x c - -o /dev/null -lzip 2>/dev/null || missing+=(libzip-dev)
printf '#include <isa-l/igzip_lib.h>\nint main(void){struct inflate_state s; isal_inflate_init(&s); return 0;}\n' |
	${CC:-cc} -x c - -o /dev/null -lisal 2>/dev/null || missing+=(libisal-dev)
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all present (cc, make, m4, unzip, sha256sum, python3, jansson, libzip, isa-l)"
	exit 0
fi
cmd="apt-get update && apt-get install -y ${missing[*]}"
if [ "$(id -u)" = 0 ] && [ "${1:-}" != --check ] && command -v apt-get >/dev/null; then
	echo "deps: installing ${missing[*]}" >&2
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >&2 || {
		echo "deps: installation failed; run: $cmd" >&2; exit 1; }
	exit 0
fi
echo "deps: missing ${missing[*]}; install them with:" >&2
echo "    sudo sh -c '$cmd'" >&2
exit 1
