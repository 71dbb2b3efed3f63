/* g17.h — printf("%.17g") of a double, byte for byte, quickly
 * (featurize writes one median per output row; glibc's %.17g costs a
 * multi-precision conversion each time).
 *
 * The design's TSV numbers are %.17g (design.md "Interchange formats"),
 * so the text must be exactly printf's: 17 significant digits of the exact
 * binary value, rounded to nearest (ties to even, as glibc), trailing
 * zeros and a bare '.' removed, exponent form ("1.2345678901234567e-05",
 * two exponent digits at least) when the decimal exponent is < -4 or
 * >= 17.  The fast path does exact integer arithmetic (128 bits) for
 * |v| in [1e-6, 1e17) and gives everything else (0, inf, nan,
 * subnormals, huge or tiny values, a compiler without 128-bit integers)
 * to snprintf.
 */
#ifndef MMRANK_G17_H
#define MMRANK_G17_H

#define G17_BUF 32

/* Write %.17g of v into buf[G17_BUF] (NUL-terminated); returns the length. */
int g17(char *buf, double v);

#endif
