#!/usr/bin/env bash
# t4180-nvml-clock.sh — bench --cool-clock's GPU clock source
# (stages/gpu/bench/nvml_clock.c) without a GPU, against a stand-in
# libnvidia-ml.so.1 (check/fixtures/nvml/fake_nvml.c) and a stub of
# cuDeviceGetPCIBusId (check/fixtures/nvml/nvml_clock_run.c):
#   - with no libnvidia-ml.so.1 to load, the error names the library;
#   - the device is found by its PCI bus id, the max SM clock is read
#     (1980 MHz), and cool_wait at P = 95 reads 1450, 1600, 1750, 1900 MHz
#     (waited, no timeout); at C = 1 ms it stops by the cap after one 2 ms sleep; P = 0 reads
#     nothing;
#   - a failing nvmlInit_v2, an unknown bus id and a failing clock reading
#     are each refused naming the NVML call and its error.
. check/lib.sh
test_require CUDA nvml-clock
W="-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all"
mkdir -p "$TMP/lib" "$TMP/none"
cc -std=c11 -Wall -Wextra -Werror -O1 -shared -fPIC -o "$TMP/lib/libnvidia-ml.so.1" "$FIX/nvml/fake_nvml.c" &&
	cc $W -iquote stages -isystem "$CUDA/include" -o "$TMP/run" \
		"$FIX/nvml/nvml_clock_run.c" stages/gpu/bench/nvml_clock.c stages/gpu/policy/coolwait.c -ldl -lm ||
	{ fail nvml-clock-build "see above"; finish; }
R() { ASAN_OPTIONS=detect_leaks=1 LD_LIBRARY_PATH="$1" "$TMP/run" "${@:2}" >"$TMP/out" 2>"$TMP/err"; }
if test_skip_unless '!NVML' nvml-clock-missing-library; then
	R "$TMP/none" 00000000:3B:00.0 95 300
	[ $? = 1 ] && grep -q '^cannot load libnvidia-ml.so.1 (NVML, part of the NVIDIA driver): ' "$TMP/err" &&
		ok nvml-clock-missing-library || fail nvml-clock-missing-library "$(head -1 "$TMP/err")"
fi
R "$TMP/lib" 00000000:3B:00.0 95 300
[ "$(cat "$TMP/out")" = "bus 00000000:3B:00.0 max 1980 waited=1 timeout=0 first=1450 last=1900" ] &&
	ok nvml-clock-waits || fail nvml-clock-waits "$(cat "$TMP/out" "$TMP/err" | head -2 | tr '\n' '|')"
R "$TMP/lib" 00000000:3B:00.0 95 1
[ "$(cat "$TMP/out")" = "bus 00000000:3B:00.0 max 1980 waited=1 timeout=1 first=1450 last=1600" ] &&
	ok nvml-clock-cap || fail nvml-clock-cap "$(cat "$TMP/out" "$TMP/err" | head -2 | tr '\n' '|')"
R "$TMP/lib" 00000000:3B:00.0 0 300
[ "$(cat "$TMP/out")" = "bus 00000000:3B:00.0 max 1980 waited=0 timeout=0 first=0 last=0" ] &&
	ok nvml-clock-off-reads-nothing || fail nvml-clock-off-reads-nothing "$(cat "$TMP/out" "$TMP/err" | head -2 | tr '\n' '|')"
FAKE_NVML_FAIL=init R "$TMP/lib" 00000000:3B:00.0 95 300
[ $? = 1 ] && grep -qx 'nvmlInit_v2 (libnvidia-ml.so.1): Driver Not Loaded (NVML error 9)' "$TMP/err" &&
	ok nvml-clock-init-fails || fail nvml-clock-init-fails "$(head -1 "$TMP/err")"
R "$TMP/lib" 00000000:AF:00.0 95 300
[ $? = 1 ] && grep -qx 'nvmlDeviceGetHandleByPciBusId_v2(00000000:AF:00.0) (libnvidia-ml.so.1): Invalid Argument (NVML error 2)' "$TMP/err" &&
	ok nvml-clock-unknown-bus || fail nvml-clock-unknown-bus "$(head -1 "$TMP/err")"
FAKE_NVML_FAIL=clock R "$TMP/lib" 00000000:3B:00.0 95 300
[ $? = 1 ] && grep -qx 'nvmlDeviceGetClockInfo(NVML_CLOCK_SM) (libnvidia-ml.so.1): GPU is lost (NVML error 15)' "$TMP/err" &&
	ok nvml-clock-reading-fails || fail nvml-clock-reading-fails "$(head -1 "$TMP/err")"
finish
