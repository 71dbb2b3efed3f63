#!/usr/bin/env bash
# check/t6100-inductor-collect.sh — python3 -m mmrank.bench.inductor_collect without a
# GPU (run by check/inductor/fake_python.py: Inductor replaced by a
# deterministic stand-in that writes its scratch log the way AutoHeuristic
# does): the log featurize/merge read, sharding as bench,
# resumption after a kill at every point of an input, --time-limit, refusals,
# and shapes errors naming file:line: field.
cd "$(dirname "$0")/.." || exit 1
. check/lib.sh
FAKE_PY="python3 $ROOT/check/inductor/fake_python.py"
IC="$FAKE_PY -m mmrank.bench.inductor_collect"
cd "$TMP" || exit 1
"$BIN/sample" --seed 3 --samples 3 -o s.tsv 2>/dev/null   # 12 inputs

# --help states inputs, outputs and units
h=$(python3 -m mmrank.bench.inductor_collect --help)
if grep -q 'SHAPES' <<<"$h" && grep -q 'LOG.inputs.tsv' <<<"$h" && grep -q 'in ms' <<<"$h" \
	&& grep -q -- '--time-limit' <<<"$h"; then ok help; else fail help "usage text incomplete"; fi
# and has no test-only option (the stand-in is the test tree's)
if grep -qi 'fake' <<<"$h"; then fail help-no-test-options "$(grep -i fake <<<"$h" | head -2)"
else ok help-no-test-options; fi

# one shard: a log featurize reads, 5 candidates x 12 inputs, stats
$IC --stats st.tsv s.tsv full.txt 2>err.txt; rc=$?
rows=$(($(wc -l <full.txt) - 2))
if [ $rc -eq 0 ] && [ $rows -eq 60 ] && [ ! -e full.txt.part ] && [ ! -e full.txt.part.done ]; then
	ok complete-log; else fail complete-log "rc=$rc rows=$rows"; fi
if "$BIN/featurize" -o f.tsv full.txt 2>ferr.txt && grep -q '60 measurements, 12 inputs (12 kept), 5 choices' ferr.txt; then
	ok featurize-reads-it; else fail featurize-reads-it "$(cat ferr.txt)"; fi
# the logged features are the shapes file's (input 2: transposed mat1, strides (1, m))
want=$(awk -F'\t' 'NR==4{print $3","$4","$5","$6","$6","$10","$11","$12","$13","$14","$15","$16}' s.tsv)
got=$(sed -n '13p' full.txt | rev | cut -d, -f3- | rev)
if [ "$want" = "$got" ]; then ok features-as-shapes; else fail features-as-shapes "$want vs $got"; fi
if [ "$(awk -F'\t' '$1=="inputs_measured"{print $2}' st.tsv)" = 12 ] \
	&& [ "$(awk -F'\t' '$1=="rows_written"{print $2}' st.tsv)" = 60 ] \
	&& grep -q '^torch	fake$' st.tsv && grep -q '^triton	fake$' st.tsv; then
	ok stats; else fail stats "$(tr '\n' ' ' <st.tsv)"; fi
if [ "$(wc -l <full.txt.inputs.tsv)" -eq 14 ] && head -1 full.txt.inputs.tsv | grep -q '^# inductor_collect torch=fake triton=fake device=FAKE reps=1 shapes_sha256='; then
	ok inputs-sidecar-kept; else fail inputs-sidecar-kept "$(head -2 full.txt.inputs.tsv)"; fi

# --rep-times: one line per input and rep (12 inputs x 2 reps), in input order
$IC --reps 2 --rep-times rt.tsv s.tsv rep2.txt 2>/dev/null
if [ "$(head -1 rt.tsv)" = $'input\trep\tseconds' ] && [ "$(tail -n +2 rt.tsv | wc -l)" -eq 24 ] \
	&& [ "$(tail -n +2 rt.tsv | cut -f1,2 | tr '\t\n' ', ' | cut -c1-16)" = "0,1 0,2 1,1 1,2 " ] \
	&& [ $(($(wc -l <rep2.txt) - 2)) -eq 120 ]; then
	ok rep-times; else fail rep-times "$(head -4 rt.tsv | tr '\n' '|')"; fi
expect_error rep-times-not-per-process 'not known with --process-per-input' nothing.txt \
	$IC --process-per-input --rep-times rt2.tsv s.tsv nothing.txt
# a --rep-times file that cannot be written or is not one: refused before
# anything is measured or created (no LOG.part)
expect_error rep-times-no-folder 'rep-times nodir/rt.tsv: nodir is not a writable folder' nothing.txt \
	$IC --rep-times nodir/rt.tsv s.tsv nothing.txt
printf 'key\tvalue\n' > foreign.tsv
expect_error rep-times-foreign "foreign.tsv:1: expected the header 'input<TAB>rep<TAB>seconds'" nothing.txt \
	$IC --rep-times foreign.tsv s.tsv nothing.txt
[ ! -e nothing.txt.part ] && [ "$(cat foreign.tsv)" = $'key\tvalue' ] && ok rep-times-refused-changes-nothing ||
	fail rep-times-refused-changes-nothing "$(ls nothing.txt* 2>&1 | tr '\n' ' ')"
# an empty one gets the header; a torn last line (killed while appending:
# its input is redone) is cut off, so the resumed file equals a fresh one
: > rte.tsv
$IC --reps 2 --rep-times rte.tsv s.tsv rep2e.txt 2>/dev/null
{ head -3 rt.tsv; printf '1\t1\t0.0'; } > rtt.tsv
$IC --reps 2 --rep-times rtt.tsv s.tsv rep2t.txt 2>rtt.err
cmp -s rte.tsv rt.tsv && cmp -s <(tail -n +4 rtt.tsv) <(tail -n +2 rt.tsv) && [ "$(sed -n 4p rtt.tsv)" = "$(sed -n 2p rt.tsv)" ] &&
	grep -q '^inductor_collect: rtt.tsv:4: dropping 7 bytes of a partly written line' rtt.err &&
	ok rep-times-empty-or-torn || fail rep-times-empty-or-torn "$(head -5 rtt.tsv | tr '\n' '|') $(cat rtt.err | head -2)"

# sharded like bench: shard i has rows i, i+N, ...; merge gives the same rows
$IC --shard 0/2 s.tsv d0.txt 2>/dev/null && $IC --shard 1/2 s.tsv d1.txt 2>/dev/null
"$BIN/merge" -o m.txt d0.txt d1.txt 2>/dev/null
ids0=$(awk -F'\t' 'NR>2{printf "%s ", $1}' d0.txt.inputs.tsv)
if [ "$ids0" = "0 2 4 6 8 10 " ] && [ "$(sort m.txt | md5sum)" = "$(sort full.txt | md5sum)" ]; then
	ok shards-merge; else fail shards-merge "shard 0 inputs: $ids0"; fi

# a kill at any point of an input: the resumed log is byte-identical to an
# uninterrupted one (input 5 is the 3rd of shard 1/2)
for where in inductor torn-rows before-sidecar torn-sidecar; do
	rm -f k.txt*
	$IC --shard 1/2 --fake-die 5:$where s.tsv k.txt 2>/dev/null; rc1=$?
	$IC --shard 1/2 s.tsv k.txt 2>kerr.txt; rc2=$?
	if [ $rc1 -eq 137 ] && [ $rc2 -eq 0 ] && cmp -s k.txt d1.txt \
		&& [ "$(cut -f1,2,3,5 k.txt.inputs.tsv)" = "$(cut -f1,2,3,5 d1.txt.inputs.tsv)" ]; then
		ok "resume-after-kill-$where"
	else fail "resume-after-kill-$where" "rc $rc1/$rc2: $(head -c 300 kerr.txt)"; fi
done
rm -f k.txt*
$IC --shard 1/2 --fake-die 5:torn-rows s.tsv k.txt 2>/dev/null
$IC --shard 1/2 s.tsv k.txt 2>kerr.txt
if grep -q 'dropping [0-9]* bytes of a partly written input' kerr.txt && grep -q '2 already done' kerr.txt; then
	ok resume-says-what-it-dropped; else fail resume-says-what-it-dropped "$(head -c 300 kerr.txt)"; fi

# --time-limit: exit 2, resumable, same log in the end
rm -f t.txt*
$IC --fake-delay-ms 150 --time-limit 0.2 s.tsv t.txt 2>/dev/null; rc=$?
n=$(($(wc -l <t.txt.part.done) - 2))
$IC s.tsv t.txt 2>/dev/null; rc2=$?
if [ $rc -eq 2 ] && [ $n -ge 1 ] && [ $n -le 3 ] && [ $rc2 -eq 0 ] && cmp -s t.txt full.txt; then
	ok time-limit-resume; else fail time-limit-resume "rc=$rc done=$n rc2=$rc2"; fi

# refusals: a complete shard; a resume with other settings or another SHAPES
expect_error refuse-complete "full.txt' exists: this shard is complete" nothing.txt $IC s.tsv full.txt
rm -f r.txt*
$IC --fake-die 3:inductor s.tsv r.txt 2>/dev/null
expect_error refuse-other-reps 'r.txt.part.done:1: made with .*reps=1.*reps=2' nothing.txt $IC --reps 2 s.tsv r.txt
"$BIN/sample" --seed 4 --samples 3 -o s2.tsv 2>/dev/null
expect_error refuse-other-shapes 'r.txt.part.done:1: made with .*shapes_sha256' nothing.txt $IC s2.tsv r.txt
expect_error refuse-other-shard 'not this shard.s first ones' nothing.txt $IC --shard 1/2 s.tsv r.txt

# shapes errors name file:line: field; nothing is written
printf 'm\tk\tn\tdtype\n64\tx\t64\tf16\n' >bad1.tsv
expect_error bad-integer 'bad1.tsv:2: field .k.: not an integer' b.txt.part $IC bad1.tsv b.txt
printf 'm\tk\tn\tdtype\n64\t64\t64\tf8\n' >bad2.tsv
expect_error bad-dtype "bad2.tsv:2: field 'dtype': unknown 'f8'" b.txt.part $IC bad2.tsv b.txt
printf 'm\tk\tn\tdtype\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\tmat2_stride_1\n8\t64\t32\tbf16\t32\t1\t32\t1\n' >bad3.tsv
expect_error bad-strides "bad3.tsv:2: field 'mat1_stride_0': strides \(32, 1\) of a 8x64" b.txt.part $IC bad3.tsv b.txt
printf 'm\tk\tn\tdtype\r\n' >bad4.tsv
expect_error crlf 'bad4.tsv:1: carriage return' b.txt.part $IC bad4.tsv b.txt
sed '3s/\tTrue\t/\tFalse\t/' s.tsv >bad5.tsv
expect_error iscontig-disagrees "bad5.tsv:3: field 'mat1_iscontig': 'False' disagrees" b.txt.part $IC bad5.tsv b.txt
printf 'm\tk\tn\tdtype\ttf32\n8\t64\t32\tbf16\t1\n' >bad6.tsv
expect_error tf32-not-f32 "bad6.tsv:2: field 'tf32': on but dtype is torch.bfloat16" b.txt.part $IC bad6.tsv b.txt
expect_error bad-shard "bad value for '--shard': '2/2'" b.txt.part $IC --shard 2/2 s.tsv b.txt

# a named-column list: padded leading dimensions (lm_head, vocab 50257 padded
# to 50304), a transposed mat2, TF32; m = 1 is not autotuned (no rows)
printf 'source\tm\tk\tn\tdtype\ttf32\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\tmat2_stride_1\n' >named.tsv
printf 'gpt2 lm_head\t16\t768\t50257\tbf16\t0\t768\t1\t1\t768\n' >>named.tsv
printf 'padded act\t4\t4096\t4096\tf32\t1\t4160\t1\t4096\t1\n' >>named.tsv
printf 'decode m=1\t1\t4096\t4096\tf16\t0\t4096\t1\t4096\t1\n' >>named.tsv
$IC named.tsv nm.txt 2>/dev/null; rc=$?
r1=$(sed -n 3p nm.txt | cut -d, -f1-12); r2=$(sed -n 8p nm.txt | cut -d, -f1-12)
st=$(awk -F'\t' 'NR>2{printf "%s:%s ", $1, $5}' nm.txt.inputs.tsv)
if [ $rc -eq 0 ] && [ "$r1" = "16,768,50257,torch.bfloat16,torch.bfloat16,768,1,1,768,True,False,not_float_32" ] \
	&& [ "$r2" = "4,4096,4096,torch.float32,torch.float32,4160,1,4096,1,False,True,True" ] \
	&& [ "$st" = "0:ok 1:ok 2:no_rows " ] && [ "$(grep -c ',inf$' nm.txt)" -eq 1 ]; then
	ok named-columns-padded-strides
else fail named-columns-padded-strides "rc=$rc r1=$r1 r2=$r2 st=$st"; fi
# the make fragment (mk/inductor.mk, its defaults from the registry
# mk/vars.mk reads): its shard command, run as a collection would run it,
# gives the shard's log; a bad BACKEND is refused before anything runs
printf 'include mk/vars.mk\ninclude %s\nall:\n\t$(call inductor_collect_bench,0,1/2,$(COLLECT_DIR)/st.tsv,$(COLLECT_DIR)/mk.txt)\n' \
	"$ROOT/mk/inductor.mk" >frag.mk
mkdir -p cdir && cp s.tsv cdir/shapes.tsv
make -s -C "$ROOT" -f "$TMP/frag.mk" COLLECT_DIR="$TMP/cdir" PYTHON="$FAKE_PY" >mk.out 2>&1; rc=$?
if [ $rc -eq 0 ] && cmp -s cdir/mk.txt d1.txt && grep -q '^reps	1$' cdir/st.tsv; then
	ok make-fragment-command; else fail make-fragment-command "rc=$rc $(head -c 300 mk.out)"; fi
env -u MAKEFLAGS -u MAKELEVEL make -n -s -C "$ROOT" collect GPU=zz SAMPLES=1 OUT="$TMP/o" BACKEND=cuda >mk.out 2>&1
grep -q "BACKEND='cuda': expected bench or inductor" mk.out && ok make-fragment-bad-backend \
	|| fail make-fragment-bad-backend "$(head -c 200 mk.out)"

# set_tf32 with a real torch (TORCH_PYTHON, default python3): tf32 after ieee
# and back, then Inductor's legacy query (select_algorithm.py:2744) must not
# raise -- the H200 run of 2026-12-01 lost its tf32 input to exactly that.
TP=${TORCH_PYTHON:-python3}
if test_skip_unless TORCH set-tf32-torch; then
	r=$("$TP" -W ignore -c '
import torch
from mmrank.bench import inductor_torch as it
out = []
for f in (False, True, False, True):
    it.set_tf32(f)
    out.append(torch.backends.cuda.matmul.fp32_precision + "/" + torch.get_float32_matmul_precision())
print(",".join(out))' 2>&1)
	if [ "$r" = "ieee/highest,tf32/high,ieee/highest,tf32/high" ]; then ok set-tf32-torch
	else fail set-tf32-torch "got: $(echo "$r" | tail -2 | tr '\n' ' ')"; fi
fi

finish
