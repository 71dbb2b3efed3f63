# winners.gp — share of inputs each top winner (of the first set) wins, per set.
# usage: gnuplot -e "dat='winners.dat'; nsets=3; out='winners.svg'" winners.gp
# dat: header line "choice set1 set2 ...", then quoted choice, shares in %.
set terminal svg size 1000,420 dynamic noenhanced font "DejaVu Sans,11" background "white"
set output out
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -35 left nomirror font ",10"
set ylabel "share of the set's inputs won (%)"
set grid ytics lc rgb "#dddddd"
set yrange [0:*]
# room for the rotated choice names below; the key outside on the right,
# where it covers no bar and its margin holds the end of the last name
# (labels are never cut off)
set bmargin 8
set key outside right top
set title "top winners (fastest choice per input), ordered by wins in the first set"
plot for [c = 2:nsets + 1] dat using c:xtic(1) title columnheader(c)
