#!/usr/bin/env bash
# shapes: a known model table -> the known GEMM list, a
# padded-stride log -> its exact strides, the reader's derived fields (layout,
# BLAS leading dimensions, storage spans, contiguity), sample's shapes.tsv as
# one instance of the format, the committed real-model list (= its
# regeneration, sizes from the configs), its LoRA/router rows (hand-derived
# GEMMs; lora.tsv = GEMMs 454..594, those after the 453 the first H200 log
# was measured on, and measuring it alone then merging gives the log of
# real.tsv's first 594; lora32.tsv = GEMMs 595..609, the rank-32 GEMMs
# after them, merged after those the same way; the committed log is that
# merge),
# the official HF log, usage errors, and make collect SHAPES=FILE.
# Malformed files: check/corpus (t7120-corpus.sh).
. check/lib.sh
S=$BIN/shapes
F=$FIX/shapes
[ -x "$S" ] || { fail shapes-built "$S missing"; finish; }

# ---- the importers: known inputs -> known lists ------------------------------
# hand-derived (stages/formats/shapes_models.h table): nn.Linear fwd nt, dX nn,
# dW tn; Conv1D fwd nn, dW tn (passes listed dW,fwd: written fwd first); the
# 50257-word head's logits gradient padded to 50304 (fp16) and 50272 (fp32);
# the decode row's T=8 GEMM repeats the train fwd one and is dropped
"$S" --from-models "$F/models-small.tsv" -o "$TMP/ms.tsv" 2>"$TMP/ms.err" || fail shapes-models-run "$(cat "$TMP/ms.err")"
test_cmp shapes-models-small "$F/models-small.expect.tsv" "$TMP/ms.tsv"
grep -qF "4 layer rows, 13 GEMMs, 12 new distinct (4 with strides other than the transposes')" "$TMP/ms.err" &&
	ok shapes-models-summary || fail shapes-models-summary "$(head -c 300 "$TMP/ms.err")"

# a log with padded and sliced operands: every distinct input once, strides exact
"$S" --from-log "$F/padded.log" -o "$TMP/pl.tsv" 2>"$TMP/pl.err" || fail shapes-log-run "$(cat "$TMP/pl.err")"
test_cmp shapes-log-padded "$F/padded.expect.tsv" "$TMP/pl.tsv"
grep -qF "8 rows, 6 new distinct inputs (4 with strides other than the transposes')" "$TMP/pl.err" &&
	ok shapes-log-summary || fail shapes-log-summary "$(head -c 300 "$TMP/pl.err")"
# standard input, named by --label (the default source: the member's base name)
"$S" --from-log - --label h100_mm.zip:h100/padded.txt -o "$TMP/pl2.tsv" <"$F/padded.log" 2>"$TMP/pl2.err" &&
	grep -q '^shapes: h100_mm.zip:h100/padded.txt: 8 rows' "$TMP/pl2.err" &&
	test_cmp shapes-log-stdin-label "$F/padded.expect.tsv" "$TMP/pl2.tsv" || fail shapes-log-stdin-label "$(cat "$TMP/pl2.err")"
"$S" --from-log --source hf.train -o "$TMP/pl3.tsv" "$F/padded.log" 2>/dev/null &&
	[ "$(tail -n +2 "$TMP/pl3.tsv" | cut -f11 | sort | uniq -c | tr -s ' ')" = " 6 hf.train" ] &&
	ok shapes-log-source || fail shapes-log-source "$(cut -f11 "$TMP/pl3.tsv" | sort -u | tr '\n' ' ')"

# ---- the format ---------------------------------------------------------------
# the writer's output reads back to itself
for l in ms pl; do
	"$S" --from-list "$TMP/$l.tsv" -o "$TMP/$l.rt.tsv" 2>/dev/null
	test_cmp "shapes-roundtrip-$l" "$TMP/$l.tsv" "$TMP/$l.rt.tsv"
done
# columns in any order (here reversed)
awk -F'\t' -v OFS='\t' '{for (i = NF; i > 1; i--) printf "%s\t", $i; print $1}' "$F/padded.expect.tsv" >"$TMP/rev.tsv"
"$S" --from-list "$TMP/rev.tsv" -o "$TMP/rev.out" 2>/dev/null
test_cmp shapes-columns-any-order "$F/padded.expect.tsv" "$TMP/rev.out"
# a layout alone means the compact strides; explicit ones must fit it
printf 'm\tk\tn\tdtype\ttf32\tlayout\n3\t5\t7\ttorch.float32\t1\tnn\n3\t5\t7\ttorch.float32\t1\tnt\n3\t5\t7\ttorch.float32\t0\ttn\n3\t5\t7\ttorch.bfloat16\t0\ttt\n' >"$TMP/lay.tsv"
printf 'm\tk\tn\tdtype\ttf32\tlayout\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\tmat2_stride_1\tsource
3\t5\t7\ttorch.float32\t1\tnn\t5\t1\t7\t1\tlay
3\t5\t7\ttorch.float32\t1\tnt\t5\t1\t1\t5\tlay
3\t5\t7\ttorch.float32\t0\ttn\t1\t3\t7\t1\tlay
3\t5\t7\ttorch.bfloat16\t0\ttt\t1\t3\t1\t5\tlay
' >"$TMP/lay.want"
"$S" --from-list "$TMP/lay.tsv" -o "$TMP/lay.out" 2>/dev/null
test_cmp shapes-layout-compact-strides "$TMP/lay.want" "$TMP/lay.out"
# inputs AutoHeuristic would group are written once, across INPUTs too
"$S" --from-list "$F/padded.expect.tsv" "$TMP/rev.tsv" -o "$TMP/dup.out" 2>"$TMP/dup.err"
test_cmp shapes-dedupe "$F/padded.expect.tsv" "$TMP/dup.out"
grep -qF "rev.tsv: 6 rows, 0 new distinct inputs" "$TMP/dup.err" && ok shapes-dedupe-summary ||
	fail shapes-dedupe-summary "$(cat "$TMP/dup.err")"

# sample's shapes.tsv is one instance: same sizes, strides and dtypes, layout
# = its transposes, source = its file name
if [ -x "$BIN/sample" ]; then
	"$BIN/sample" --seed 5 --samples 25 -o "$TMP/sample.tsv"
	"$S" --from-list "$TMP/sample.tsv" -o "$TMP/sample.list" 2>/dev/null
	want=$(awk -F'\t' -v OFS='\t' 'NR > 1 {print $3, $4, $5, $6, $7, ($8 ? "t" : "n") ($9 ? "t" : "n"), $10, $11, $12, $13, "sample"}' "$TMP/sample.tsv")
	got=$(tail -n +2 "$TMP/sample.list")
	[ "$got" = "$want" ] && [ "$(wc -l <"$TMP/sample.list")" -eq 101 ] && ok shapes-reads-sample ||
		fail shapes-reads-sample "$(diff <(echo "$want") <(echo "$got") | head -3 | tr '\n' '|')"
else
	skip shapes-reads-sample "no $BIN/sample"
fi

# the derived fields bench uses (check/fixtures/shapes/derive.c, linked with
# the library this BIN was built with)
LIBA=${BIN%/bin}/libmmrank.a
SAN=; case $BIN in */san/bin) SAN="-fsanitize=address,undefined -fno-omit-frame-pointer" ;; esac
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -g $SAN -iquote "$ROOT/stages" \
	-o "$TMP/derive" "$F/derive.c" "$LIBA" -ljansson -lm 2>"$TMP/cc.err"; then
	"$TMP/derive" "$F/derive.tsv" >"$TMP/derive.out"
	test_cmp shapes-derived-fields "$F/derive.expect" "$TMP/derive.out"
	# on sample's rows: the transposes, lda = m or k, ldb = k or n, spans = m*k, k*n
	if [ -s "$TMP/sample.tsv" ]; then
		"$TMP/derive" "$TMP/sample.tsv" >"$TMP/derive.sample"
		bad=$(paste <(tail -n +2 "$TMP/sample.tsv") <(tail -n +2 "$TMP/derive.sample") | awk -F'\t' '
			{ m = $3; k = $4; n = $5; ta = $8; tb = $9
			  if ($17 != 1 + NR || $18 != $1 || $19 != $2 || $20 != ta || $21 != tb ||
			      $22 != (ta ? m : k) || $23 != (tb ? k : n) || $24 != m * k || $25 != k * n ||
			      $26 != ($14 == "True") || $27 != ($15 == "True") || $28 != 1 || $29 != $16) print NR }' | head -3)
		[ -z "$bad" ] && ok shapes-derived-sample || fail shapes-derived-sample "rows $bad"
	fi
else
	fail shapes-derived-fields "cannot build derive.c: $(head -c 300 "$TMP/cc.err")"
fi

# ---- the committed real-model list ---------------------------------------------
D=$ROOT/datasets/shapes
"$S" --from-models "$D/models.tsv" -o "$TMP/real.tsv" 2>"$TMP/real.err" || fail shapes-real-run "$(cat "$TMP/real.err")"
test_cmp shapes-real-regenerates "$D/real.tsv" "$TMP/real.tsv"
# make shapes-list is the rule that writes it
# (-W names the table as make does, relative: then the rule fires whatever the
# timestamps; both lists are written)
make --no-print-directory -s -n -W datasets/shapes/models.tsv BUILD="${BIN%/bin}" shapes-list >"$TMP/mk.n" 2>&1
grep -qF "$BIN/shapes --from-models datasets/shapes/models.tsv -o datasets/shapes/real.tsv" "$TMP/mk.n" &&
	grep -qF "> datasets/shapes/lora.tsv.tmp" "$TMP/mk.n" &&
	grep -qF "> datasets/shapes/lora32.tsv.tmp" "$TMP/mk.n" &&
	ok shapes-real-make-rule || fail shapes-real-make-rule "$(head -3 "$TMP/mk.n" | tr '\n' '|')"
R=$D/real.tsv
has() { # NAME "m k n dtype tf32 layout s10 s11 s20 s21 source": that exact row
	if grep -qxF "$(tr ' ' '\t' <<<"$2")" "$R"; then ok "$1"; else fail "$1" "no row '$2'"; fi
}
n=$(($(wc -l <"$R") - 1))
[ "$n" -ge 150 ] && ok "shapes-real-size ($n GEMMs)" || fail shapes-real-size "$n GEMMs < 150"
# sizes from the published configs (datasets/shapes/models.tsv cites them)
has shapes-real-llama3-8b-gqa-k '2048 4096 1024 torch.bfloat16 0 nt 4096 1 1 4096 llama3-8b.k_proj.prefill'
has shapes-real-llama3-8b-vocab '2 4096 128256 torch.bfloat16 0 nt 4096 1 1 4096 llama3-8b.lm_head.decode'
has shapes-real-llama2-70b-qkv '64 8192 10240 torch.float16 0 nt 8192 1 1 8192 llama2-70b.qkv_proj.decode'
has shapes-real-mixtral-router '8192 4096 8 torch.bfloat16 0 nt 4096 1 1 4096 mixtral-8x7b.router.prefill'
has shapes-real-gpt2-conv1d-nn '8192 768 2304 torch.float16 0 nn 768 1 2304 1 gpt2.c_attn.train'
has shapes-real-gpt2-padded-dW '50257 8192 768 torch.float16 0 tn 1 50304 768 1 gpt2.lm_head.train.dW'
has shapes-real-gpt2-padded-tf32 '8192 50257 768 torch.float32 1 nn 50272 1 768 1 gpt2.lm_head.train.dX'
has shapes-real-vit-tokens '12608 768 3072 torch.bfloat16 0 nt 768 1 1 768 vit-b16.intermediate.train'
has shapes-real-nanogpt-vocab '12288 768 50304 torch.bfloat16 0 nt 768 1 1 768 nanogpt.lm_head.train'
# what the list must cover: decode m = 2..64, prefill, padded vocab, layouts, precisions
got=$(awk -F'\t' 'NR > 1 {
	split($11, s, "."); ph = s[3]
	if (ph == "decode" && $1 >= 2 && $1 <= 64) dec++
	if (ph == "prefill" && $1 >= 512 && $1 <= 8192) pre++
	if (s[4] == "dX") dx++
	if (s[4] == "dW") dw++
	if ($7 != $2 && $8 == 1 && $7 != 1 || $8 != $1 && $7 == 1 && $8 != 1) pad++
	lay[$6] = 1; prec[$4 $5] = 1 }
	END { nl = 0; for (l in lay) nl++; np = 0; for (p in prec) np++
	      print (dec >= 100) " " (pre >= 30) " " (dx >= 30) " " (dw >= 30) " " (pad >= 10) " " (nl == 3) " " (np == 4) }' "$R")
[ "$got" = "1 1 1 1 1 1 1" ] && ok shapes-real-coverage ||
	fail shapes-real-coverage "decode>=100 prefill>=30 dX>=30 dW>=30 padded>=10 3 layouts 4 precisions: $got"
# every source names a model of the table, every table row cites an https config
bad=$(awk -F'\t' 'FNR == 1 { f++ } f == 1 && !/^#/ && NF == 12 { m[$1] = 1 }
	f == 2 && FNR > 1 { split($11, s, "."); if (!(s[1] in m)) print $11 }' "$D/models.tsv" "$R" | head -3)
[ -z "$bad" ] && ok shapes-real-sources || fail shapes-real-sources "unknown models: $bad"

# ---- LoRA adapters and MoE routers (the rows appended after the H200 log) -----
# hand-derived from the shapes_models.h table, T tokens, r the rank:
#   lora_A (in -> r):  fwd T in r nt (in,1)(1,in); dX T r in nn (r,1)(in,1);
#                      dW r T in tn (1,r)(in,1)
#   lora_B (r -> out): fwd T r out nt (r,1)(1,r); dX T out r nn (out,1)(r,1);
#                      dW out T r tn (1,out)(r,1)
# Alpaca-LoRA on Llama-2-7B: r 8, q_proj/v_proj (4096 -> 4096), 4 x 256
# tokens, fp16: the six GEMMs, in table order (lora_A's passes, then lora_B's)
printf '%s\n' \
	'1024 4096 8 torch.float16 0 nt 4096 1 1 4096 llama2-7b.q_proj+v_proj-lora_A-r8.finetune' \
	'1024 8 4096 torch.float16 0 nn 8 1 4096 1 llama2-7b.q_proj+v_proj-lora_A-r8.finetune.dX' \
	'8 1024 4096 torch.float16 0 tn 1 8 4096 1 llama2-7b.q_proj+v_proj-lora_A-r8.finetune.dW' \
	'1024 8 4096 torch.float16 0 nt 8 1 1 8 llama2-7b.q_proj+v_proj-lora_B-r8.finetune' \
	'1024 4096 8 torch.float16 0 nn 4096 1 8 1 llama2-7b.q_proj+v_proj-lora_B-r8.finetune.dX' \
	'4096 1024 8 torch.float16 0 tn 1 4096 8 1 llama2-7b.q_proj+v_proj-lora_B-r8.finetune.dW' | tr ' ' '\t' >"$TMP/alpaca.want"
grep -F 'llama2-7b.q_proj+v_proj-lora_' "$R" | grep -F '.finetune' >"$TMP/alpaca.got"
test_cmp shapes-real-lora-alpaca-finetune "$TMP/alpaca.want" "$TMP/alpaca.got"
# lora_A in prefill (Zephyr's r 16 on Mistral-7B: x (2048, 4096), W_A (16, 4096)),
# lora_B in decode (PEFT's default r 8: h (16, 8), W_B (4096, 8)), the weight
# gradients of a rank-16 adapter (m = r for lora_A, n = r for lora_B, over
# 4 x 2048 tokens), a 64-expert router in fp32 (DeepSeek-V2-Lite's MoEGate)
has shapes-real-lora-A-prefill '2048 4096 16 torch.bfloat16 0 nt 4096 1 1 4096 mistral-7b.q+k+v+o+gate+up-lora_A-r16.prefill'
has shapes-real-lora-B-decode '16 8 4096 torch.float16 0 nt 8 1 1 8 llama2-7b.q_proj+v_proj-lora_B-r8.decode'
has shapes-real-lora-A-wgrad '16 8192 4096 torch.bfloat16 0 tn 1 16 4096 1 mistral-7b.q+k+v+o+gate+up-lora_A-r16.finetune.dW'
has shapes-real-lora-B-wgrad '4096 8192 16 torch.bfloat16 0 tn 1 4096 16 1 mistral-7b.q+o+down-lora_B-r16.finetune.dW'
has shapes-real-lora-B-dgrad '8192 4096 16 torch.bfloat16 0 nn 4096 1 16 1 mistral-7b.q+o+down-lora_B-r16.finetune.dX'
has shapes-real-router-64-fp32 '8192 2048 64 torch.float32 0 nt 2048 1 1 2048 deepseek-v2-lite.router.prefill'
has shapes-real-router-60 '4 2048 60 torch.bfloat16 0 nt 2048 1 1 2048 qwen1_5-moe-a2_7b.router.decode'
# the first 453 GEMMs are the list the committed H200 real-model log was
# measured on, byte for byte (sha256 of real.tsv as of that collection);
# lora.tsv is the header and GEMMs 454..594 (the next 141, measured and
# merged since), each a LoRA adapter or router GEMM with n, k or m <= 64,
# and make shapes-list writes it; real.tsv's first 594 GEMMs are byte for
# byte the list as of that collection (sha256 of the committed real.tsv of
# 594 GEMMs), so rows appended since only append GEMMs (lora32.tsv, below),
# and its first 609 the list lora32.tsv was measured on (sha256 of the
# committed real.tsv of 609 GEMMs)
L=$D/lora.tsv
[ "$(head -n 454 "$R" | sha256sum | cut -d' ' -f1)" = e03ac25a51393846b1b11520fea631b29875153f588051f9539ff7e4db4b5907 ] &&
	ok shapes-real-h200-prefix-unchanged || fail shapes-real-h200-prefix-unchanged "the first 453 GEMMs of real.tsv changed"
[ "$(head -n 595 "$R" | sha256sum | cut -d' ' -f1)" = 1fefaa28c5e820ce01d6356978e1b6b10a655381c738ba76038b55707a470287 ] &&
	ok shapes-real-h200-lora-prefix-unchanged || fail shapes-real-h200-lora-prefix-unchanged "the first 594 GEMMs of real.tsv changed"
[ "$(head -n 610 "$R" | sha256sum | cut -d' ' -f1)" = c1681994c3f35e3c83d895c05d9289108a821930cf95e2e327a4633d567758e3 ] &&
	ok shapes-real-h200-lora32-prefix-unchanged || fail shapes-real-h200-lora32-prefix-unchanged "the first 609 GEMMs of real.tsv changed"
awk 'NR == 1 || NR > 454 && NR <= 595' "$R" >"$TMP/lora.want"
test_cmp shapes-lora-is-real-tail "$TMP/lora.want" "$L"
got=$(awk -F'\t' 'NR > 1 { n++; if ($11 !~ /-lora_[AB]-r[0-9]+\./ && $11 !~ /\.router\./) bad++
	if (!($1 <= 64 || $2 <= 64 || $3 <= 64)) big++; if ($2 <= 64 || $3 <= 64) nk++ }
	END { print n + 0, bad + 0, big + 0, nk + 0 }' "$L")
[ "$got" = "141 0 0 134" ] && ok "shapes-lora-rows (141 GEMMs, 134 with n or k <= 64)" ||
	fail shapes-lora-rows "GEMMs, not LoRA/router, none of m k n <= 64, n or k <= 64: $got (want 141 0 0 134)"
make --no-print-directory -s -n -W datasets/shapes/real.tsv BUILD="${BIN%/bin}" datasets/shapes/lora.tsv >"$TMP/mkl.n" 2>&1
grep -qF "awk 'NR == 1 || NR > 453 + 1 && NR <= 594 + 1' datasets/shapes/real.tsv > datasets/shapes/lora.tsv.tmp" "$TMP/mkl.n" &&
	ok shapes-lora-make-rule || fail shapes-lora-make-rule "$(head -3 "$TMP/mkl.n" | tr '\n' '|')"
# lora32.tsv is the header and GEMMs 595..609 (the 15 after the 594; those
# appended after 609 go to a list of their own): Axolotl's Llama-3-8B LoRA
# at rank 32 (examples/llama-3/lora-8b.yml, all linear layers, 2 x 4096
# tokens, bf16), 5 rows x fwd, dX, dW; each has n = 32 or k = 32, or is a
# lora_A weight gradient with m = 32; all 15 are in the committed log (below)
L32=$D/lora32.tsv
awk 'NR == 1 || NR > 595 && NR <= 610' "$R" >"$TMP/lora32.want"
test_cmp shapes-lora32-is-real-tail "$TMP/lora32.want" "$L32"
got=$(awk -F'\t' 'NR > 1 { g++; if ($11 !~ /^llama3-8b\..*-lora_[AB]-r32\.finetune/ || $4 != "torch.bfloat16") bad++
	if ($3 == 32) n32++; else if ($2 == 32) k32++; else if ($1 == 32 && $11 ~ /-lora_A-r32\.finetune\.dW$/) m32++; else other++ }
	END { print g + 0, bad + 0, n32 + 0, k32 + 0, m32 + 0, other + 0 }' "$L32")
[ "$got" = "15 0 8 5 2 0" ] && ok "shapes-lora32-rows (15 GEMMs: 8 with n = 32, 5 with k = 32, 2 lora_A dW with m = 32)" ||
	fail shapes-lora32-rows "GEMMs, not llama3-8b r32 bf16, n = 32, k = 32, dW m = 32, other: $got (want 15 0 8 5 2 0)"
has shapes-real-lora32-A-fwd '8192 4096 32 torch.bfloat16 0 nt 4096 1 1 4096 llama3-8b.q+k+v+o+gate+up-lora_A-r32.finetune'
has shapes-real-lora32-B-dgrad '8192 1024 32 torch.bfloat16 0 nn 1024 1 32 1 llama3-8b.k+v-lora_B-r32.finetune.dX'
has shapes-real-lora32-A-wgrad '32 8192 14336 torch.bfloat16 0 tn 1 32 14336 1 llama3-8b.down-lora_A-r32.finetune.dW'
make --no-print-directory -s -n -W datasets/shapes/real.tsv BUILD="${BIN%/bin}" datasets/shapes/lora32.tsv >"$TMP/mkl32.n" 2>&1
grep -qF "awk 'NR == 1 || NR > 594 + 1 && NR <= 609 + 1' datasets/shapes/real.tsv > datasets/shapes/lora32.tsv.tmp" "$TMP/mkl32.n" &&
	ok shapes-lora32-make-rule || fail shapes-lora32-make-rule "$(head -3 "$TMP/mkl32.n" | tr '\n' '|')"
# the committed log is real.tsv's, measured in three lists and merged in
# its order (datasets/shapes/README.md): its inputs are, in order, 441 of
# the first 453 GEMMs (the other 12 bench refused), lora.tsv's 105 (36
# refused: decompose_k), lora32.tsv's 15 (none refused), 561 in all, no
# input of any other list; its first 13145 lines are byte for byte the log
# of the first 453, its first 15993 the 546-input log of the first 594 as
# committed before lora32.tsv's were merged (sha256 of its lines), then
# lora32.tsv's 427 rows
H=$ROOT/datasets/h200/h200_inductor_real.txt.xz
if test_have_prereq XZ && [ -s "$H" ]; then
	xz -dc "$H" >"$TMP/h200real.txt"
	"$S" --from-log "$TMP/h200real.txt" -o "$TMP/h200real.tsv" 2>/dev/null
	# each log input (in log order) tagged with the list it is in, runs counted
	runs=$(awk -F'\t' -v OFS='\t' 'FNR == 1 { f++; next }
		{ k = $1; for (i = 2; i <= 10; i++) k = k OFS $i }
		f == 1 && FNR <= 454 { t[k] = "first453"; next } f == 2 { t[k] = "lora"; next } f == 3 { t[k] = "lora32"; next }
		f == 4 { print (k in t ? t[k] : "other") }' "$R" "$L" "$L32" "$TMP/h200real.tsv" | uniq -c | awk '{ printf "%s%s %s", (NR > 1 ? "|" : ""), $1, $2 }')
	all=$(tail -n +2 "$TMP/h200real.tsv" | cut -f1-10 | sort -u | wc -l)
	first=$(head -n 13145 "$TMP/h200real.txt" | sha256sum | cut -d' ' -f1)
	prev=$(head -n 15993 "$TMP/h200real.txt" | sha256sum | cut -d' ' -f1)
	lines=$(wc -l <"$TMP/h200real.txt")
	[ "$runs" = "441 first453|105 lora|15 lora32" ] && [ "$all" = 561 ] && [ "$lines" = 16420 ] &&
		[ "$first" = 4ce057d9cd63cd5de97357f0662d3d0dc50c1bf5723eaf7f64d927e2dacc9195 ] &&
		[ "$prev" = 7d761bc82eab9eb08374f4638551ca1121cb5696c08494257e5b578316ddb9c0 ] &&
		ok "shapes-h200-log-first-453-then-lora-then-lora32 (441 + 105 + 15 = 561 inputs, 16418 rows)" ||
		fail shapes-h200-log-first-453-then-lora-then-lora32 "log inputs by list, in order: $runs (want 441 first453|105 lora|15 lora32), distinct $all (want 561), lines $lines (want 16420); first 13145 lines' sha256 $first, first 15993 lines' $prev"
else
	test_skip_unless XZ shapes-h200-log-first-453-then-lora-then-lora32 &&
		fail shapes-h200-log-first-453-then-lora-then-lora32 "no $H"
fi
# measuring lora.tsv alone and merging it after the log of the first 453
# gives the log of real.tsv's first 594 (bench-fake, Inductor's candidates,
# --reps 1 as the committed log), as does resuming that list from that
# complete log; the same for lora32.tsv after the 594 and real.tsv's first 609
if [ -x "$BIN/bench-fake" ] && [ -x "$BIN/merge" ]; then
	BT=("$BIN/bench-fake" --template triton --reps 1 --kernels "$ROOT/kernels")
	# merge_after NAME PREV LIST FULL MEASURED SKIPPED: LIST measured alone
	# ($TMP/NAME.st its stats) and merged after the log PREV is the log of
	# the list FULL ($TMP/NAME.full.txt), MEASURED inputs measured, SKIPPED refused
	merge_after() {
		"${BT[@]}" --stats "$TMP/$1.st" -o "$TMP/$1.txt" "$3" 2>/dev/null &&
			"${BT[@]}" -o "$TMP/$1.full.txt" "$4" 2>/dev/null &&
			"$BIN/merge" -o "$TMP/$1.merged.txt" "$2" "$TMP/$1.txt" 2>/dev/null &&
			cmp -s "$TMP/$1.merged.txt" "$TMP/$1.full.txt" &&
			grep -qx "$(printf 'inputs_measured\t%s' "$5")" "$TMP/$1.st" &&
			grep -qx "$(printf 'inputs_skipped\t%s' "$6")" "$TMP/$1.st"
	}
	head -n 454 "$R" >"$TMP/old.tsv"
	head -n 595 "$R" >"$TMP/r594.tsv"
	"${BT[@]}" -o "$TMP/old.txt" "$TMP/old.tsv" 2>/dev/null &&
		merge_after lora "$TMP/old.txt" "$L" "$TMP/r594.tsv" 105 36 &&
		ok "shapes-lora-merge-equals-real (105 measured, 36 decompose_k refused)" ||
		fail shapes-lora-merge-equals-real "$(cat "$TMP/lora.st" 2>/dev/null | tr '\n' ' ')"
	cp "$TMP/old.txt" "$TMP/res.txt.part"
	"${BT[@]}" --stats "$TMP/res.st" -o "$TMP/res.txt" "$TMP/r594.tsv" 2>/dev/null && cmp -s "$TMP/res.txt" "$TMP/lora.full.txt" &&
		grep -qx "$(printf 'inputs_resumed\t453')" "$TMP/res.st" && grep -qx "$(printf 'inputs_measured\t105')" "$TMP/res.st" &&
		ok shapes-lora-resume-measures-new-only || fail shapes-lora-resume-measures-new-only "$(cat "$TMP/res.st" 2>/dev/null | tr '\n' ' ')"
	# lora32.tsv: all 15 measured (no decompose_k input), merged after the
	# 594's log = the log of real.tsv's first 609
	head -n 610 "$R" >"$TMP/r609.tsv"
	merge_after l32 "$TMP/lora.full.txt" "$L32" "$TMP/r609.tsv" 15 0 &&
		ok "shapes-lora32-merge-equals-real (15 measured, 0 refused)" ||
		fail shapes-lora32-merge-equals-real "$(cat "$TMP/l32.st" 2>/dev/null | tr '\n' ' ')"
else
	skip shapes-lora-merge-equals-real "no $BIN/bench-fake or merge"
fi

# ---- the official HF training log (when the dataset is at hand) ----------------
ZIP=$DATASET_DIR/h100_mm.zip
if test_skip_unless DATASET,UNZIP shapes-official-hf; then
	unzip -p "$ZIP" h100/h100_hf_train_mm.txt | "$S" --from-log - --label h100_mm.zip:h100/h100_hf_train_mm.txt \
		-o "$TMP/hf.tsv" 2>"$TMP/hf.err"
	grep -qF "h100_hf_train_mm.txt: 242638 rows, 294 new distinct inputs (17 with strides other than the transposes')" "$TMP/hf.err" &&
		ok shapes-official-hf || fail shapes-official-hf "$(head -c 300 "$TMP/hf.err")"
	grep -qxF "$(printf '50272\t4096\t768\ttorch.float16\t0\ttn\t1\t50304\t768\t1\th100_hf_train_mm')" "$TMP/hf.tsv" &&
		ok shapes-official-hf-strides || fail shapes-official-hf-strides "no padded OPT dW row"
	# the padded GEMMs of real.tsv that the official log holds, exactly
	key() { awk -F'\t' 'NR > 1 {print $1, $2, $3, $4, $5, $7, $8, $9, $10}' "$1" | sort -u; }
	common=$(comm -12 <(key "$TMP/hf.tsv") <(key "$R") | awk '$6 != $2 && $6 != 1 || $7 != 1 && $7 != $1' | wc -l)
	[ "$common" -ge 7 ] && ok "shapes-official-hf-padded-match ($common padded GEMMs of real.tsv in the log)" ||
		fail shapes-official-hf-padded-match "$common padded GEMMs in common (expected >= 7)"
fi

# ---- usage errors; nothing written on failure -----------------------------------
expect_error shapes-usage-no-mode "say --from-log, --from-models or --from-list" "$TMP/u.tsv" "$S" -o "$TMP/u.tsv" "$F/padded.log"
expect_error shapes-usage-two-modes "more than one of --from-log" "$TMP/u.tsv" "$S" --from-log --from-list -o "$TMP/u.tsv" "$F/padded.log"
expect_error shapes-usage-no-out "missing -o OUT" "$TMP/u.tsv" "$S" --from-log "$F/padded.log"
expect_error shapes-usage-no-input "missing INPUT" "$TMP/u.tsv" "$S" --from-log -o "$TMP/u.tsv"
expect_error shapes-usage-source-models "--source and --label are for --from-log and --from-list" "$TMP/u.tsv" \
	"$S" --from-models --source x -o "$TMP/u.tsv" "$F/models-small.tsv"
expect_error shapes-usage-bad-source "bad value for '--source': 'a b'" "$TMP/u.tsv" "$S" --from-log --source 'a b' -o "$TMP/u.tsv" "$F/padded.log"
expect_error shapes-usage-label-no-stdin "--label names standard input" "$TMP/u.tsv" "$S" --from-log --label x -o "$TMP/u.tsv" "$F/padded.log"
cp "$F/padded.expect.tsv" "$TMP/same.tsv"
"$S" --from-list -o "$TMP/same.tsv" "$TMP/same.tsv" 2>"$TMP/same.err" && fail shapes-output-is-input "exit 0" || {
	grep -q "is also an input" "$TMP/same.err" && cmp -s "$TMP/same.tsv" "$F/padded.expect.tsv" &&
		ok shapes-output-is-input || fail shapes-output-is-input "$(cat "$TMP/same.err")"; }
# an error leaves an existing OUT as it was
cp "$F/padded.expect.tsv" "$TMP/keep.tsv"
printf 'm\tk\tn\tdtype\ttf32\tlayout\n1\t2\t3\ttorch.float16\t1\tnn\n' >"$TMP/bad.tsv"
"$S" --from-list -o "$TMP/keep.tsv" "$F/padded.expect.tsv" "$TMP/bad.tsv" 2>/dev/null && fail shapes-atomic "exit 0" ||
	{ cmp -s "$TMP/keep.tsv" "$F/padded.expect.tsv" && ! compgen -G "$TMP/keep.tsv.tmp*" >/dev/null &&
		ok shapes-atomic || fail shapes-atomic "OUT changed or a temporary left"; }

# ---- make collect SHAPES=FILE ----------------------------------------------------
# The rule lives in mk/collect.mk (the bench wing's file): until the lead
# applies check/fixtures/shapes/collect-shapes.patch, test it on a patched copy.
T=$ROOT
if ! grep -q 'shapes --from-list' "$ROOT/mk/collect.mk"; then
	T=$TMP/tree
	mkdir -p "$T" && (cd "$ROOT" && cp -rp Makefile mk stages kernels datasets "$T/") &&
		patch -s -p1 -d "$T" <"$F/collect-shapes.patch" || { fail shapes-collect-patch "does not apply"; finish; }
	ok shapes-collect-patch-applies
fi
BUILD=${BIN%/bin}
MK=(make --no-print-directory -C "$T" BUILD="$BUILD" OUT="$TMP/out" GPU=zz200 BENCH=bench-fake GPUS=0)
C=$TMP/out/zz200/collect
"${MK[@]}" -n collect SHAPES="$D/real.tsv" >"$TMP/c.n" 2>&1
grep -qF "$BIN/shapes --from-list $D/real.tsv -o $C/shapes.tsv" "$TMP/c.n" && ! grep -q 'bin/sample ' "$TMP/c.n" &&
	grep -qE "bin/bench-fake .* $C/shapes.tsv $C/data_0.txt" "$TMP/c.n" &&
	grep -qF "shapes=$D/real.tsv" "$TMP/c.n" &&
	ok shapes-collect-n-list || fail shapes-collect-n-list "$(grep -E 'shapes|sample|bench' "$TMP/c.n" | head -3 | tr '\n' '|')"
"${MK[@]}" -n collect SAMPLES=3 >"$TMP/c2.n" 2>&1
grep -q "bin/sample --seed 42 --samples 3" "$TMP/c2.n" && ! grep -q 'shapes --from-list' "$TMP/c2.n" &&
	ok shapes-collect-n-sample || fail shapes-collect-n-sample "$(grep -E 'shapes|sample' "$TMP/c2.n" | head -3 | tr '\n' '|')"
"${MK[@]}" -n collect SHAPES="$TMP/nonexistent.tsv" >"$TMP/c3.n" 2>&1 && fail shapes-collect-missing "exit 0" || {
	grep -qF "SHAPES=$TMP/nonexistent.tsv: no such file" "$TMP/c3.n" && ok shapes-collect-missing ||
		fail shapes-collect-missing "$(head -2 "$TMP/c3.n")"; }
# the fake bench path, once bench reads the shape list (the lead swaps its
# reader for shape_list_read): the padded strides reach the log
if [ ! -x "$BIN/bench-fake" ]; then
	skip shapes-collect-fake "no $BIN/bench-fake"
elif "$BIN/bench-fake" --reps 1 --kernels "$ROOT/kernels" --cache "$TMP/cache" "$F/padded.expect.tsv" "$TMP/probe.txt" 2>&1 |
	grep -q 'not a shapes.tsv header'; then
	skip shapes-collect-fake "bench reads only sample's columns until its reader is shape_list_read"
else
	"${MK[@]}" collect SHAPES="$F/padded.expect.tsv" >"$TMP/c.log" 2>&1 &&
		grep -q '^4096,50272,768,torch.float16,torch.float16,50304,1,768,1,False,True,not_float_32,' "$TMP/out/zz200/merged.txt" &&
		grep -q '^1024,64,512,torch.float16,torch.float16,1,66560,131584,1,False,False,not_float_32,' "$TMP/out/zz200/merged.txt" &&
		ok shapes-collect-fake || fail shapes-collect-fake "$(tail -3 "$TMP/c.log" | tr '\n' '|')"
fi
finish
