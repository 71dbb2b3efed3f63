/* intern.c — see intern.h. */
#include "intern.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void intern_init(intern *t)
{
	memset(t, 0, sizeof *t);
	t->nslot = 64;
	t->slot = xmalloc(t->nslot * sizeof *t->slot);
	memset(t->slot, 0xff, t->nslot * sizeof *t->slot);
}

static size_t probe(const intern *t, const char *s, size_t len)
{
	size_t mask = t->nslot - 1, i = (size_t)fnv1a64(FNV1A64_INIT, s, len) & mask;
	for (;; i = (i + 1) & mask) {
		int id = t->slot[i];
		if (id < 0 || (t->len[id] == len && !memcmp(t->str[id], s, len)))
			return i;
	}
}

int intern_find(const intern *t, const char *s, size_t len)
{
	return t->slot[probe(t, s, len)];
}

int intern_id(intern *t, const char *s, size_t len, int *added)
{
	size_t i = probe(t, s, len);
	if (added)
		*added = 0;
	if (t->slot[i] >= 0)
		return t->slot[i];
	if (added)
		*added = 1;
	size_t cap = t->cap;
	xgrow((void **)&t->str, &cap, (size_t)t->n + 1, sizeof *t->str);
	cap = t->cap;
	xgrow((void **)&t->len, &cap, (size_t)t->n + 1, sizeof *t->len);
	t->cap = cap;
	int id = t->n++;
	t->str[id] = xstrndup(s, len);
	t->len[id] = len;
	t->slot[i] = id;
	if ((size_t)t->n * 2 > t->nslot) {
		free(t->slot);
		t->nslot *= 2;
		t->slot = xmalloc(t->nslot * sizeof *t->slot);
		memset(t->slot, 0xff, t->nslot * sizeof *t->slot);
		for (int j = 0; j < t->n; j++)
			t->slot[probe(t, t->str[j], t->len[j])] = j;
	}
	return id;
}

void intern_free(intern *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->str[i]);
	free(t->str);
	free(t->len);
	free(t->slot);
	memset(t, 0, sizeof *t);
}
