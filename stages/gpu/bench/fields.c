/* fields.c — see fields.h. */
#include <inttypes.h>
#include <string.h>

#include "fields.h"
#include "core/util.h"

int64_t field_i64(const char *path, int64_t line, const char *name, const char *s, int64_t lo,
                  int64_t hi)
{
	int64_t v;
	if (parse_i64(s, strlen(s), &v) != 0 || v < lo || v > hi)
		die("%s:%" PRId64 ": field '%s': bad value '%s'", path, line, name, s);
	return v;
}
