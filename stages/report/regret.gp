# regret.gp — regret distribution (empirical CDF) per set, one panel per top-k.
# usage: gnuplot -e "dir='W'; sets='main train_timm'; ks='1 10'; out='regret.svg'" regret.gp
# Reads dir/reg_<set>_k<k>.dat: sorted slowdown vs the oracle in %
# ((regret - 1) * 100, floored at 0.01), cumulative fraction.  Writes out (SVG, standalone, no scripts).
set terminal svg size 1000,420 dynamic noenhanced font "DejaVu Sans,11" background "white"
set output out
set multiplot layout 1, words(ks)
set logscale x
set xlabel "slowdown of the best listed choice vs the oracle, % (log)"
set ylabel "fraction of inputs with slowdown <= x"
set key bottom right
set grid xtics ytics mxtics lc rgb "#dddddd"
set yrange [*:1.002]
set format x "%g"
set xtics ("0.01" 0.01, "0.1" 0.1, "1" 1, "10" 10, "100" 100, "1000" 1000)
set xrange [0.01:*]
set autoscale xfixmax
do for [q = 1:words(ks)] {
	k = word(ks, q)
	set title sprintf("top-%s list (+ extern_mm)", k)
	plot for [s = 1:words(sets)] sprintf("%s/reg_%s_k%s.dat", dir, word(sets, s), k) \
	     using 1:2 with steps lw 2 title word(sets, s)
}
unset multiplot
