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

/* NULL if s can be emitted: non-empty printable ASCII without white space,
 * without ' " \ ` [ ] $ (they end a Python or C literal, an m4 quote, or
 * would be read as an m4 argument), without "*" "/" (ends a C comment) and
 * without "??" (a C trigraph under -std=c99).  Else a description of what
 * is wrong, e.g. "contains white space or a control character". */
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
 * refused) and no template macro (any name starting "MMR_").  Else a
 * description of what is wrong. */
const char *emittable_name_problem(const char *s);
/* The only metadata name emit and import accept (get_name()). */
#define EMITTABLE_META_NAME "mm"
/* The names emittable_name_problem refuses outright, NULL-terminated (for
 * check/t7110-injection.sh, which checks that make refuses them too). */
extern const char *const emittable_reserved[];

#endif
