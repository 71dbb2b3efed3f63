/* emittable.h — the text that emit can write into every artifact.
 *
 * Choice ids, feature names and the metadata name end up inside m4 quotes
 * ([[...]]), Python '...' literals, C "..." literals and comments, and DOT
 * labels (templates/heuristic.*.m4, dot.c).  This is the one rule for what
 * they may contain; emit applies it to the tree, and the readers apply it
 * where a choice id is first read (the log reader, the feat TSV reader), so
 * an id emit could not write is refused at file:line, not three stages on.
 */
#ifndef MMRANK_EMITTABLE_H
#define MMRANK_EMITTABLE_H

/* The longest text emit writes into a C string literal: the longest a C99
 * compiler must accept (gcc and clang -pedantic-errors refuse 4096). */
#define EMITTABLE_MAX_LEN 4095

/* NULL if s can be emitted: 1 to EMITTABLE_MAX_LEN bytes of printable
 * ASCII without white space, without ' " \ ` [ ] $ (they end a Python or C
 * literal, an m4 quote, or would be read as an m4 argument), without
 * "*" "/" (ends a C comment), "/" "*" (-Wcomment in a C comment) and "??"
 * (a C trigraph under -std=c99).  Else a description of what is wrong,
 * e.g. "contains white space or a control character". */
const char *emittable_problem(const char *s);
/* Make s emittable in place: every byte emittable_problem would complain
 * about becomes '_' (for names emit makes up itself, e.g. the source file's
 * name in the generated header). */
void emittable_fix(char *s);

/* The one name rule (stages/FORMATS.md "names"; the Makefile and
 * stages/sh/vars.sh restate it for HEURISTIC_NAME, import applies it to the
 * class name it reads).  NULL if s can be a heuristic name: a Python and C
 * identifier ([A-Za-z_][A-Za-z0-9_]*, 1 to 64 characters) that is no Python
 * keyword nor a name the artifact uses, no m4 builtin with or without the
 * m4_ prefix (m4_dnl, dnl, __file__, ...: any name starting "m4_" is
 * refused), no template macro (any name starting "MMR_") and no name of
 * the C twin's shared types (AH_MM_..., ah_mm_...).  Else a description of
 * what is wrong. */
const char *emittable_name_problem(const char *s);
/* The category rule: NULL if value can be a category of the logged
 * categorical feature (what str() of the context value gives): for mm's
 * dtypes torch.<lower-case name> (torch.float16, ...), for mat1_iscontig
 * and mat2_iscontig True or False, for using_tf32 True, False or
 * not_float_32; for another heuristic's feature any non-empty text without
 * white space or control characters.  Each of these is emittable.  The log
 * reader, the feat TSV reader, import and emit apply it, so a category that
 * reaches an artifact is one of these.  Else a description. */
const char *emittable_cat_problem(const char *feature, const char *value);
/* The feature rule of every artifact: NULL if the model feature name is one
 * an mm artifact can test (each format the same): a raw numeric or derived
 * mm feature (mmfeatures.h), or a one-hot column <cat>_<value> of an mm
 * categorical cat whose value passes emittable_cat_problem; then *cat and
 * *value point at the categorical's name and into name (NULL for a
 * numeric feature).  Else a description. */
const char *emittable_feature_problem(const char *name, const char **cat,
                                      const char **value);

/* The GPU rules (datasets/GPUS.tsv, the GPU an artifact carries; mk/gpus.awk
 * checks the table with the same rules): NULL if s can be a GPU name, 1 to
 * 32 of a-z 0-9 _ -, starting with a letter or digit; else a description. */
const char *emittable_gpu_problem(const char *s);
/* NULL if s can be a device-name pattern (what torch.cuda.get_device_name()
 * holds as words, upper case, spaces ignored: "H100"), 1 to 32 of A-Z 0-9 -,
 * starting with a letter or digit; else a description. */
const char *emittable_device_name_problem(const char *s);

/* The only metadata name emit and import accept (get_name()). */
#define EMITTABLE_META_NAME "mm"
/* The names emittable_name_problem refuses outright, NULL-terminated (for
 * check/t7110-injection.sh, which checks that make refuses them too). */
extern const char *const emittable_reserved[];

#endif
