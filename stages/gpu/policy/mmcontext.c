/* mmcontext.c — see mmcontext.h. */
#include "mmcontext.h"
#include "formats/mmfeatures.h"
#include "core/util.h"

#include <string.h>

void mm_tree_features(const tree *t, const ah_mm_input *in, double *x)
{
	const int64_t num[MM_N_RAW_NUM] = {in->m, in->k, in->n, in->s1_0, in->s1_1,
	                                   in->s2_0, in->s2_1};
	const char *cat[MM_N_RAW_CAT] = {in->dtype, in->dtype,
	                                 in->contig1 ? "True" : "False",
	                                 in->contig2 ? "True" : "False", in->using_tf32};
	double der[MM_N_DERIVED];
	mm_derived(in->m, in->k, in->n, der);
	for (int f = 0; f < t->n_feat; f++) {
		const char *name = t->feat[f];
		int found = 0;
		for (int j = 0; j < MM_N_RAW_NUM && !found; j++)
			if (!strcmp(name, mm_raw_num_name[j]))
				x[f] = (double)num[j], found = 1;
		for (int j = 0; j < MM_N_DERIVED && !found; j++)
			if (!strcmp(name, mm_derived_name[j]))
				x[f] = der[j], found = 1;
		for (int j = 0; j < MM_N_RAW_CAT && !found; j++) {
			size_t l = strlen(mm_raw_cat_name[j]);
			if (!strncmp(name, mm_raw_cat_name[j], l) && name[l] == '_')
				x[f] = !strcmp(name + l + 1, cat[j]), found = 1;
		}
		if (!found)
			die("tree feature '%s' is not a feature of an mm context", name);
	}
}
