/* zipmember.h — one member of a zip archive as a stream of bytes
 * (featurize reads the official logs straight out of their zips).
 *
 * The archive is read by libzip (central directory, local headers, zip64).
 * A deflated member is inflated by ISA-L (igzip, streaming, ~3x zlib's
 * speed with its CRC-32 computed on the way) from the raw compressed bytes
 * that libzip hands over; its CRC-32 and size must match the directory's.
 * Any other member (stored, encrypted, another method) is read through
 * libzip's own decoders, which check the CRC as well.
 */
#ifndef MMRANK_ZIPMEMBER_H
#define MMRANK_ZIPMEMBER_H
#include <stddef.h>
#include <sys/types.h>

typedef struct zipmember zipmember;

/* Open member `member` of archive `zip`.  NULL on failure, with a message
 * (libzip's: "Not a zip archive", "No such file", ...; or "two members
 * named 'M' ...": an archive that holds the name twice is refused) in
 * err[errlen]. */
zipmember *zm_open(const char *zip, const char *member, char *err, size_t errlen);
/* Up to n bytes of the member into p: how many, 0 at its end, or -1 with
 * *err set ("CRC error", "damaged deflate data ...") — a readahead.h
 * source (src: the zipmember). */
ssize_t zm_read(void *src, char *p, size_t n, const char **err);
/* Close; NULL is fine. */
void zm_close(zipmember *zm);

#endif
