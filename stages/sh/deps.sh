#!/usr/bin/env bash
# deps.sh — check the build and run dependencies; install them when root.
#
# usage: stages/sh/deps.sh [--check]
#        stages/sh/deps.sh --lock-holder FILE | --wait-locks SECONDS FILE...
# Needs: a C compiler (gcc or cc), GNU make, m4, jansson headers and library
# (libjansson-dev), libzip and ISA-L (libzip-dev, libisal-dev: featurize
# reads the dataset zips), unzip, sha256sum (coreutils), xz (xz-utils: the
# committed H200 logs are .xz), python3 (tests), flock (util-linux: one make
# at a time in one output folder, stages/sh/lock.sh).
# As root (and without --check) missing Debian packages are installed with
# apt-get; otherwise the exact install command is printed and the exit
# status is 1.  The CUDA toolkit (nvcc, cuBLAS, NVRTC) is optional: it is
# only needed to build `bench` for `make collect`.
# apt's locks: before installing, deps waits up to DEPS_LOCK_WAIT seconds
# (default 300) while another process (apt-get, dpkg, unattended-upgrades)
# holds one, naming it; then it names it and stops.  --lock-holder prints
# "PID (COMMAND)" of the process holding FILE's lock (/proc/locks), if any;
# --wait-locks is that wait, for FILEs.
set -uo pipefail
[ "${1:-}" = --help ] && { sed -n '2,/^set /{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0; }

# "PID (COMMAND)" of a process other than this one holding a lock on FILE
lock_holder() {
	[ -e "$1" ] && [ -r /proc/locks ] || return 0
	local ino pid
	ino=$(stat -L -c %i "$1") || return 0
	while read -r _ _ _ _ pid dev _; do
		[ "${dev##*:}" = "$ino" ] && [ "$pid" != $$ ] && [ -d "/proc/$pid" ] || continue
		echo "$pid ($(tr '\0\n' '  ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-80 | sed 's/ $//'))"
		return 0
	done </proc/locks
}
# wait_locks SECONDS FILE...: until no FILE is locked by another process;
# says who holds one, and fails naming it when SECONDS have passed
wait_locks() {
	local limit=$1 waited=0 f who said=; shift
	while :; do
		who=
		for f; do who=$(lock_holder "$f"); [ -z "$who" ] || break; done
		[ -n "$who" ] || return 0
		if [ "$waited" -ge "$limit" ]; then
			echo "deps: $f is still locked by process $who after ${limit} s; run the install again when it is done (DEPS_LOCK_WAIT=seconds)" >&2
			return 1
		fi
		[ -n "$said" ] || { echo "deps: waiting for $f, locked by process $who (up to ${limit} s)" >&2; said=1; }
		sleep 1; waited=$((waited + 1))
	done
}
APT_LOCKS=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock)
case ${1:-} in
--lock-holder) lock_holder "${2:?--lock-holder FILE}"; exit 0 ;;
--wait-locks) shift; wait_locks "${1:?--wait-locks SECONDS FILE...}" "${@:2}"; exit ;;
esac
missing=()
command -v cc >/dev/null || command -v gcc >/dev/null || missing+=(gcc)
command -v make >/dev/null || missing+=(make)
command -v m4 >/dev/null || missing+=(m4)
command -v unzip >/dev/null || missing+=(unzip)
command -v sha256sum >/dev/null || missing+=(coreutils)
command -v xz >/dev/null || missing+=(xz-utils)
command -v python3 >/dev/null || missing+=(python3)
command -v flock >/dev/null || missing+=(util-linux)
printf '#include <jansson.h>\nint main(void){return json_object()==0;}\n' |
	${CC:-cc} -x c - -o /dev/null -ljansson 2>/dev/null || missing+=(libjansson-dev)
printf '#include <zip.h>\nint main(void){return zip_libzip_version()==0;}\n' |
	${CC:-cc} -x c - -o /dev/null -lzip 2>/dev/null || missing+=(libzip-dev)
printf '#include <isa-l/igzip_lib.h>\nint main(void){struct inflate_state s; isal_inflate_init(&s); return 0;}\n' |
	${CC:-cc} -x c - -o /dev/null -lisal 2>/dev/null || missing+=(libisal-dev)
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all present (cc, make, m4, unzip, sha256sum, xz, python3, flock, jansson, libzip, isa-l)"
	exit 0
fi
cmd="apt-get update && apt-get install -y ${missing[*]}"
if [ "$(id -u)" = 0 ] && [ "${1:-}" != --check ] && command -v apt-get >/dev/null; then
	echo "deps: installing ${missing[*]}" >&2
	wait_locks "${DEPS_LOCK_WAIT:-300}" "${APT_LOCKS[@]}" || exit 1
	lock=(-o "DPkg::Lock::Timeout=${DEPS_LOCK_WAIT:-300}")   # apt >= 1.9.11 waits itself too
	{ apt-get "${lock[@]}" update -qq &&
	  DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -qq "${missing[@]}"; } >&2 || {
		who=
		for f in "${APT_LOCKS[@]}"; do who=$(lock_holder "$f"); [ -z "$who" ] || break; done
		echo "deps: installation failed${who:+ ($f is locked by process $who)}; run: $cmd" >&2; exit 1; }
	exit 0
fi
echo "deps: missing ${missing[*]}; install them with:" >&2
echo "    sudo sh -c '$cmd'" >&2
exit 1
