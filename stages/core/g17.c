/* g17.c — see g17.h. */
#include "g17.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

static const uint64_t pow10_u[] = {
	UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000),
	UINT64_C(100000), UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000),
	UINT64_C(1000000000), UINT64_C(10000000000), UINT64_C(100000000000),
	UINT64_C(1000000000000), UINT64_C(10000000000000), UINT64_C(100000000000000),
	UINT64_C(1000000000000000), UINT64_C(10000000000000000),
	UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
	UINT64_C(10000000000000000000)};

/* 10^-6 .. 10^17 (the negative ones rounded: only a first guess) */
static const double pow10_g[] = {
	1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
	1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17};

/* q = a * 10^p rounded to an integer (nearest, ties to even), exactly, for
 * a = mant * 2^e2 with mant < 2^53, 0 <= p <= 22, e2 in (-128, 4].
 * Returns 0, or -1 outside that range. */
static int scaled(uint64_t mant, int e2, int p, uint64_t *q)
{
	if (p < 0 || p > 22 || e2 > 4 || e2 <= -128)
		return -1;
	u128 num = (u128)mant * pow10_u[p < 19 ? p : 19];
	if (p > 19)
		num *= pow10_u[p - 19]; /* < 2^53 * 10^22 < 2^127 */
	if (e2 >= 0) {
		num <<= e2;
	} else {
		int sh = -e2;
		u128 r = num & (((u128)1 << sh) - 1), half = (u128)1 << (sh - 1);
		num >>= sh;
		if (r > half || (r == half && (num & 1)))
			num++;
	}
	if (num > UINT64_MAX)
		return -1;
	*q = (uint64_t)num;
	return 0;
}

/* %g layout of the 17 digits d (value d[0].d[1..] * 10^x). */
static int layout(char *buf, int neg, const char *d, int x)
{
	int nd = 17, n = 0;
	while (nd > 1 && d[nd - 1] == '0')
		nd--;
	if (neg)
		buf[n++] = '-';
	if (x < -4 || x >= 17) {
		buf[n++] = d[0];
		if (nd > 1) {
			buf[n++] = '.';
			memcpy(buf + n, d + 1, (size_t)nd - 1);
			n += nd - 1;
		}
		n += snprintf(buf + n, (size_t)(G17_BUF - n), "e%c%02d", x < 0 ? '-' : '+',
		              x < 0 ? -x : x);
		return n;
	}
	if (x >= 0) {
		if (nd < x + 1)
			nd = x + 1; /* integer digits stay */
		memcpy(buf + n, d, (size_t)x + 1);
		n += x + 1;
		if (nd > x + 1) {
			buf[n++] = '.';
			memcpy(buf + n, d + x + 1, (size_t)(nd - x - 1));
			n += nd - x - 1;
		}
	} else {
		buf[n++] = '0';
		buf[n++] = '.';
		for (int i = 0; i < -x - 1; i++)
			buf[n++] = '0';
		memcpy(buf + n, d, (size_t)nd);
		n += nd;
	}
	buf[n] = '\0';
	return n;
}
#endif

int g17(char *buf, double v)
{
#ifdef __SIZEOF_INT128__
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	int be = (int)(bits >> 52 & 0x7ff);
	double a = fabs(v);
	if (be != 0 && be != 0x7ff && a >= 1e-6 && a < 1e17) {
		uint64_t mant = (bits & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
		int e2 = be - 1075; /* a = mant * 2^e2 */
		/* x: the decimal exponent of a, or one off (a next to a power
		 * of ten, or rounding to 17 digits carries into an 18th):
		 * floor(log2(a) log10(2)) is x or x - 1 */
		int e = (be - 1023) * 78913; /* 78913 / 2^18 ~ log10(2) */
		int x = (e - (e < 0 ? 262143 : 0)) / 262144;
		if (x + 1 >= -6 && x + 1 <= 17 && a >= pow10_g[x + 1 + 6])
			x++;
		for (int tries = 0; tries < 3; tries++) {
			uint64_t q;
			if (scaled(mant, e2, 16 - x, &q))
				break;
			if (q >= pow10_u[17]) {
				x++;
			} else if (q < pow10_u[16]) {
				x--;
			} else {
				char d[17];
				for (int i = 16; i >= 0; i--, q /= 10)
					d[i] = (char)('0' + q % 10);
				return layout(buf, (int)(bits >> 63), d, x);
			}
		}
	}
#endif
	return snprintf(buf, G17_BUF, "%.17g", v);
}
