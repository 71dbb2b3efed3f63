# regret.gp — regret distribution (empirical CDF) per set, one panel per top-k.
# usage: gnuplot -e "dir='W'; sets='main train_timm'; ks='1 10'; out='regret.svg'" regret.gp
# Reads dir/reg_<set>_k<k>.dat: sorted slowdown vs the oracle in %
# ((regret - 1) * 100, floored at 0.01), cumulative fraction.  Writes out (SVG, standalone, no scripts).
set terminal svg size 1000,460 dynamic noenhanced font "DejaVu Sans,11" background "white"
set output out
set multiplot layout 1, words(ks)
# x: the slowdown (regret - 1) * 100 % on a log axis, so it starts at the
# floor 0.01 % and never shows a regret below 1 (each tick also gives the
# regret itself); y: a fraction, at most 1 (no tick above it; the top
# border is left out so that the curves' last step stays visible); the key
# below the plot, where it covers no curve.
set logscale x
set xlabel "slowdown vs the oracle, % (log); under it: regret" offset 0,-0.8
set ylabel "fraction of inputs with slowdown <= x"
set key below horizontal
set grid xtics ytics mxtics lc rgb "#dddddd"
set yrange [*:1]
set ytics nomirror
set border 3
set format x "%g"
set xtics nomirror ("0.01\nx1.0001" 0.01, "0.1\nx1.001" 0.1, "1\nx1.01" 1, "10\nx1.1" 10, "100\nx2" 100, "1000\nx11" 1000)
set xrange [0.01:*]
set autoscale xfixmax
do for [q = 1:words(ks)] {
	k = word(ks, q)
	set title sprintf("top-%s list (+ extern_mm)", k)
	plot for [s = 1:words(sets)] sprintf("%s/reg_%s_k%s.dat", dir, word(sets, s), k) \
	     using 1:2 with steps lw 2 title word(sets, s)
}
unset multiplot
