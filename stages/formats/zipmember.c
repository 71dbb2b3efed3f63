/* zipmember.c — see zipmember.h. */
#include "zipmember.h"
#include "core/util.h"

#include <isa-l/igzip_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#define ZM_IN (256u * 1024) /* compressed bytes read at a time */

struct zipmember {
	zip_t *za;
	zip_file_t *zf;
	int deflate;            /* 1: raw deflate inflated here (ISA-L) */
	struct inflate_state st;
	unsigned char *in;      /* [ZM_IN] compressed bytes */
	int in_end, done;       /* compressed bytes all read; stream checked */
	uint32_t crc;           /* the directory's CRC-32 and size */
	uint64_t size;
	char msg[160];
};

zipmember *zm_open(const char *zip, const char *member, char *err, size_t errlen)
{
	int code = 0;
	zip_t *za = zip_open(zip, ZIP_RDONLY, &code);
	if (!za) {
		zip_error_t ze;
		zip_error_init_with_code(&ze, code);
		snprintf(err, errlen, "%s", zip_error_strerror(&ze));
		zip_error_fini(&ze);
		return NULL;
	}
	/* a member name the archive holds twice: readers differ on which copy
	 * they take (unzip -o keeps the last), so neither is read */
	zip_int64_t n = zip_get_num_entries(za, 0), first = -1;
	for (zip_int64_t i = 0; i < n; i++) {
		const char *name = zip_get_name(za, (zip_uint64_t)i, ZIP_FL_ENC_RAW);
		if (!name || strcmp(name, member))
			continue;
		if (first >= 0) {
			snprintf(err, errlen, "two members named '%s' (entries %lld and %lld): "
			         "an ambiguous archive", member, (long long)first, (long long)i);
			zip_discard(za);
			return NULL;
		}
		first = i;
	}
	zip_stat_t sb;
	zip_stat_init(&sb);
	if (zip_stat(za, member, 0, &sb)) {
		snprintf(err, errlen, "%s", zip_strerror(za));
		zip_discard(za);
		return NULL;
	}
	zipmember *zm = xcalloc(1, sizeof *zm);
	zm->za = za;
	const zip_uint64_t need = ZIP_STAT_CRC | ZIP_STAT_SIZE | ZIP_STAT_COMP_METHOD |
	                          ZIP_STAT_ENCRYPTION_METHOD;
	zm->deflate = (sb.valid & need) == need && sb.comp_method == ZIP_CM_DEFLATE &&
	              sb.encryption_method == ZIP_EM_NONE;
	zm->zf = zip_fopen(za, member, zm->deflate ? ZIP_FL_COMPRESSED : 0);
	if (!zm->zf) {
		snprintf(err, errlen, "%s", zip_strerror(za));
		zip_discard(za);
		free(zm);
		return NULL;
	}
	if (zm->deflate) {
		zm->crc = sb.crc;
		zm->size = sb.size;
		zm->in = xmalloc(ZM_IN);
		isal_inflate_init(&zm->st);
		zm->st.crc_flag = ISAL_GZIP_NO_HDR; /* CRC-32 of the output */
	}
	return zm;
}

/* The stream ended: check it against the directory.  0 or -1 (*err). */
static int finish(zipmember *zm, const char **err)
{
	zm->done = 1;
	if (zm->st.avail_in > 0) {
		*err = "damaged zip: bytes after the end of the deflate data";
		return -1;
	}
	if (zm->st.crc != zm->crc) {
		*err = "CRC error";
		return -1;
	}
	if (zm->st.total_out != (uint32_t)zm->size) { /* ISA-L counts in 32 bits */
		*err = "damaged zip: the member's size differs from the directory's";
		return -1;
	}
	return 0;
}

ssize_t zm_read(void *src, char *p, size_t n, const char **err)
{
	zipmember *zm = src;
	if (!zm->deflate) {
		zip_int64_t got = zip_fread(zm->zf, p, n);
		if (got < 0)
			*err = zip_file_strerror(zm->zf);
		return got < 0 ? -1 : (ssize_t)got;
	}
	if (zm->done)
		return 0;
	struct inflate_state *st = &zm->st;
	if (n > UINT32_MAX)
		n = UINT32_MAX;
	st->next_out = (uint8_t *)p;
	st->avail_out = (uint32_t)n;
	while (st->avail_out > 0) {
		if (st->avail_in == 0 && !zm->in_end) {
			zip_int64_t got = zip_fread(zm->zf, zm->in, ZM_IN);
			if (got < 0) {
				*err = zip_file_strerror(zm->zf);
				return -1;
			}
			if (got == 0)
				zm->in_end = 1;
			st->next_in = zm->in;
			st->avail_in = (uint32_t)got;
		}
		int rc = isal_inflate(st);
		if (rc < 0) {
			snprintf(zm->msg, sizeof zm->msg, "damaged deflate data (ISA-L inflate error %d)", rc);
			*err = zm->msg;
			return -1;
		}
		if (st->block_state == ISAL_BLOCK_FINISH) {
			if (finish(zm, err))
				return -1;
			break;
		}
		if (st->avail_in == 0 && zm->in_end && st->avail_out > 0) {
			*err = "damaged zip: the deflate data end early";
			return -1;
		}
	}
	return (ssize_t)(n - st->avail_out);
}

void zm_close(zipmember *zm)
{
	if (!zm)
		return;
	zip_fclose(zm->zf);
	zip_discard(zm->za);
	free(zm->in);
	free(zm);
}
