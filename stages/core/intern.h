/* intern.h — byte-string interning: maps each distinct byte string to a
 * dense id 0, 1, 2, ... in order of first insertion (open addressing,
 * FNV-1a hash).  Used for choice ids, categorical values and input keys. */
#ifndef MMRANK_INTERN_H
#define MMRANK_INTERN_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
	char **str;     /* [n] NUL-terminated copies (may contain NULs inside) */
	size_t *len;    /* [n] byte lengths */
	int n;
	size_t cap;     /* capacity of str/len */
	int *slot;      /* hash table: id or -1 */
	size_t nslot;   /* power of two */
} intern;

void intern_init(intern *t);
/* Id of s[0..len), inserting it if new; *added (if not NULL) is set to 1
 * when it was inserted. */
int intern_id(intern *t, const char *s, size_t len, int *added);
/* Id of s[0..len) or -1 if absent. */
int intern_find(const intern *t, const char *s, size_t len);
void intern_free(intern *t);

#endif
