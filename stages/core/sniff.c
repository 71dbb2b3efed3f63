/* sniff.c — compressed and binary files told from text; see sniff.h. */
#include "sniff.h"
#include "util.h"

#include <string.h>

static const struct {
	const char *magic;
	size_t len;
	const char *what;
} magics[] = {
	{"\x1f\x8b", 2, "compressed file (gzip): decompress it first (gunzip -k FILE)"},
	{"\xfd" "7zXZ\0", 6, "compressed file (xz): decompress it first (xz -dk FILE)"},
	{"\x28\xb5\x2f\xfd", 4, "compressed file (zstd): decompress it first (zstd -d FILE)"},
	{"BZh", 3, "compressed file (bzip2): decompress it first (bunzip2 -k FILE)"},
	{"PK\x03\x04", 4, "zip archive: extract the log first (unzip FILE)"},
	{"PK\x05\x06", 4, "zip archive (empty): nothing to read"},
};

const char *sniff_not_text(const void *buf, size_t n)
{
	const unsigned char *b = buf;
	for (size_t i = 0; i < sizeof magics / sizeof *magics; i++)
		if (n >= magics[i].len && !memcmp(b, magics[i].magic, magics[i].len))
			return magics[i].what;
	for (size_t i = 0; i < n; i++)
		if (b[i] < 0x20 && b[i] != '\t' && b[i] != '\n' && b[i] != '\r')
			return "binary data (a NUL or control byte in the first line): "
			       "not a text file";
	return NULL;
}

void sniff_or_die(const char *path, const void *buf, size_t n)
{
	const char *what = sniff_not_text(buf, n);
	if (what)
		die("%s: %s", path, what);
}
