# mk/vars.mk -- the user variables, read first by the Makefile (before anything
# else expands one).  One registry, mk/variables.tsv, names every variable a
# user sets: its kind, range, default, the stage option it feeds, its help.
#  1. The registry's names and kinds are read in pure make ($(file <)): no
#     $(shell) runs before step 2.
#  2. Every value given on the command line or in the environment (any
#     command-line variable at all) is checked for the characters its kind
#     allows, in pure make on $(value NAME): a value is never expanded before
#     it passed, so `SEED=$(shell ...)` runs nothing.  No kind allows a quote,
#     a newline, a tab, '$', a backtick or a shell metacharacter
#     ;&|<>()\*?[]{}!#~; words, command and flags kinds allow spaces, only
#     ints and flags a comma.  2b: no value starts a recipe line or an
#     argument with '+', '-' or '@' (a word value not with '.' either);
#     2c: CFLAGS and CC name no option that runs another program.
#  3. A command-line variable the registry does not name stops make, with a
#     suggestion (a variable of the environment is not make's to judge).
#  4. The defaults (NAME ?= DEFAULT, make text, expanded where used) and the
#     fit options (mmr_fit_args) come from mk/variables.awk.
# The values are checked against their ranges by stages/sh/vars.sh, which the
# Makefile runs once its derived names (O, GPU_UC, ...) are defined.
# Note: `make 'NAME:=...'` (and ::=, !=, the environment's MAKEFLAGS) is
# evaluated by make itself while it reads its command line, before any
# makefile: no makefile can check those forms (docs/VARIABLES.md).
MMR_REGISTRY := mk/variables.tsv

mmr_empty  :=
mmr_sp     := $(mmr_empty) $(mmr_empty)
mmr_tab    := $(mmr_empty)	$(mmr_empty)
define mmr_nl


endef
mmr_comma  := ,
mmr_dollar := $$
mmr_hash   := \#
mmr_lp     := (
mmr_rp     := )
mmr_bs     := \$(mmr_empty)
mmr_lower  := a b c d e f g h i j k l m n o p q r s t u v w x y z
mmr_upper  := A B C D E F G H I J K L M N O P Q R S T U V W X Y Z
mmr_digits := 0 1 2 3 4 5 6 7 8 9
# the identifier characters (a heuristic name's)
mmr_ident  := $(mmr_lower) $(mmr_upper) $(mmr_digits) _
# $(call mmr_strip,TEXT,CHARS): TEXT without any of the (space-separated) CHARS
mmr_strip = $(if $(2),$(call mmr_strip,$(subst $(firstword $(2)),,$(1)),$(wordlist 2,999,$(2))),$(1))
# $(call mmr_map,TEXT,FROM,TO): each char of FROM replaced by the one of TO
mmr_map = $(if $(2),$(call mmr_map,$(subst $(firstword $(2)),$(firstword $(3)),$(1)),$(wordlist \
  2,999,$(2)),$(wordlist 2,999,$(3))),$(1))

# ---- 1. names and kinds: each line's first two cells ------------------------------
# (every line made one word up to its first space, cells joined by ~T~, marked ~L~)
MMR_REG_TEXT := $(file < $(MMR_REGISTRY))
MMR_REG := $(foreach w,$(filter ~L~%,$(subst $(mmr_tab),~T~,$(subst $(mmr_nl), ~L~,~L~$(MMR_REG_TEXT)))),$(if \
  $(filter ~L~$(mmr_hash)% ~L~name~T~%,$(w)),,$(wordlist 1,2,$(subst ~T~, ,$(patsubst ~L~%,%,$(w))))))
# NAME KIND pairs -> NAME:KIND
MMR_KINDS := $(join $(addsuffix :,$(filter-out int number enum ints word path words command flags,$(MMR_REG))),$(filter \
  int number enum ints word path words command flags,$(MMR_REG)))
ifneq ($(words $(MMR_KINDS)),$(words $(filter-out %:,$(MMR_KINDS))))
$(error $(MMR_REGISTRY): a row without a known kind (int number enum ints word path words command flags))
endif
MMR_NAMES_REG := $(foreach p,$(MMR_KINDS),$(firstword $(subst :, ,$(p))))
mmr_kind = $(patsubst $(1):%,%,$(filter $(1):%,$(MMR_KINDS)))

# ---- 2. the characters of every given value ----------------------------------------
# command line, environment, environment override
mmr_given = $(filter command environment,$(firstword $(origin $(1))))
MMR_CMDLINE := $(strip $(foreach x,$(.VARIABLES),$(if $(filter command,$(firstword $(origin $(x)))),$(x))))
# never allowed: quotes, '$', a backtick and the shell's metacharacters
MMR_META := ' " ` $(mmr_dollar) ; & | < > $(mmr_lp) $(mmr_rp) $(mmr_bs) * ? [ ] { } ! $(mmr_hash) ~
mmr_found = $(strip $(foreach c,$(MMR_META),$(if $(findstring $(c),$(1)),$(c))) $(if $(findstring \
  $(mmr_nl),$(1)),newline) $(if $(findstring $(mmr_tab),$(1)),tab))
# allowed, per kind (words, command and flags: spaces too)
MMR_CHARS_scalar := $(mmr_ident) . - +
MMR_CHARS_int     = $(MMR_CHARS_scalar)
MMR_CHARS_number  = $(MMR_CHARS_scalar)
MMR_CHARS_enum    = $(MMR_CHARS_scalar)
MMR_CHARS_word    = $(MMR_CHARS_scalar)
MMR_CHARS_ints   := $(mmr_digits) $(mmr_comma)
MMR_CHARS_path   := $(mmr_ident) . - + / @
MMR_CHARS_words   = $(MMR_CHARS_path)
MMR_CHARS_command = $(MMR_CHARS_path)
MMR_CHARS_flags   = $(MMR_CHARS_path) $(mmr_comma) = :
MMR_SAY_scalar   := one word of letters, digits and '._+-' expected
MMR_SAY_int       = $(MMR_SAY_scalar)
MMR_SAY_number    = $(MMR_SAY_scalar)
MMR_SAY_enum      = $(MMR_SAY_scalar)
MMR_SAY_word      = $(MMR_SAY_scalar)
MMR_SAY_ints     := integers expected, comma-separated without spaces (e.g. 0,1)
MMR_SAY_path     := a path of letters, digits and '._+-/@' expected (no spaces, no ':' or '$(mmr_comma)')
MMR_SAY_words    := paths of letters, digits and '._+-/@' expected, separated by spaces
MMR_SAY_command   = $(MMR_SAY_words)
MMR_SAY_flags    := options of letters, digits and '._+-/@$(mmr_comma)=:' expected, separated by spaces
# $(call mmr_rest,VALUE,KIND): the characters of VALUE that KIND does not allow
mmr_rest = $(call mmr_strip,$(if $(filter words command flags,$(2)),$(subst $(mmr_sp),,$(1)),$(1)),$(MMR_CHARS_$(2)))
# (a variable the registry does not name is judged as flags: step 3 stops it anyway)
mmr_kind_of = $(or $(call mmr_kind,$(1)),flags)
MMR_GIVEN := $(sort $(MMR_CMDLINE) $(foreach n,$(MMR_NAMES_REG),$(if $(call mmr_given,$(n)),$(n))))
MMR_META_BAD := $(strip $(foreach n,$(MMR_GIVEN),$(if $(call mmr_found,$(value $(n))),$(n))))
ifneq ($(MMR_META_BAD),)
$(error $(firstword $(MMR_META_BAD)): a setting must not hold a quote, a newline, a tab, $(mmr_dollar), a backtick or \
  a shell metacharacter (found: $(call mmr_found,$(value $(firstword $(MMR_META_BAD))))); nothing was run)
endif
MMR_CHAR_BAD := $(strip $(foreach n,$(MMR_GIVEN),$(if $(call mmr_rest,$(value $(n)),$(call mmr_kind_of,$(n))),$(n))))
ifneq ($(MMR_CHAR_BAD),)
$(error $(firstword $(MMR_CHAR_BAD))='$(value $(firstword $(MMR_CHAR_BAD)))': $(MMR_SAY_$(call \
  mmr_kind_of,$(firstword $(MMR_CHAR_BAD)))); nothing was run)
endif

# ---- 2b. how a value starts ------------------------------------------------------
# make reads a leading '+', '-' or '@' of a recipe line after expansion, and
# runs a '+' line even under make -n, -q or -t (BUILD=+build made `make -n
# heuristic` run build/bin/fit); a program reads a leading '-' as an option
# (BUILD=-build: mkdir's) and gcc, ld and others '@FILE' as more options.  So
# no word of a value starts with '+' or '@', and only a flags word (an option),
# a later word of a command (its arguments) or a number (an option's value,
# its range checked by stages/sh/vars.sh) with '-'.  A word value names a
# folder (GPU: OUT/GPU/) or a part of a file name: no '.' first either
# (GPU=.. would write in OUT's parent).
# (every kind's entry defined: a name make does not define is the environment's)
MMR_LEAD_scalar   := +% -% @%
MMR_LEAD_int      := +% @%
MMR_LEAD_number   := +% @%
MMR_LEAD_enum      = $(MMR_LEAD_scalar)
MMR_LEAD_ints      = $(MMR_LEAD_scalar)
MMR_LEAD_path      = $(MMR_LEAD_scalar)
MMR_LEAD_words     = $(MMR_LEAD_scalar)
MMR_LEAD_word     := $(MMR_LEAD_scalar) .%
MMR_LEAD_flags    := +% @%
MMR_LEAD_command   = $(MMR_LEAD_flags)
# $(call mmr_lead,VALUE,KIND): the words of VALUE that start badly for KIND
mmr_lead = $(strip $(filter $(MMR_LEAD_$(2)),$(1)) $(if $(filter command,$(2)),$(filter -%,$(firstword $(1)))))
MMR_SAY_LEAD_scalar := may not start with '+', '-' or '@' (make runs a recipe line that starts with '+' even \
  under make -n; a program reads '-' as an option)
MMR_SAY_LEAD_int    := may not start with '+' or '@' (make runs a recipe line that starts with '+' even under make -n)
MMR_SAY_LEAD_number  = $(MMR_SAY_LEAD_int)
MMR_SAY_LEAD_enum    = $(MMR_SAY_LEAD_scalar)
MMR_SAY_LEAD_ints    = $(MMR_SAY_LEAD_scalar)
MMR_SAY_LEAD_path    = $(MMR_SAY_LEAD_scalar)
MMR_SAY_LEAD_words  := no word may start with '+', '-' or '@' (make runs a recipe line that starts with '+' even \
  under make -n; a program reads '-' as an option)
MMR_SAY_LEAD_word   := may not start with '.', '+', '-' or '@' (it names a folder or a part of a file name: \
  GPU=.. would write outside OUT)
MMR_SAY_LEAD_flags  := no word may start with '+' or '@' (an '@FILE' word is more options read from FILE)
MMR_SAY_LEAD_command := may not start with '+', '-' or '@', nor hold a word that starts with '+' or '@'
MMR_LEAD_BAD := $(strip $(foreach n,$(MMR_GIVEN),$(if $(call mmr_lead,$(value $(n)),$(call mmr_kind_of,$(n))),$(n))))
ifneq ($(MMR_LEAD_BAD),)
$(error $(firstword $(MMR_LEAD_BAD))='$(value $(firstword $(MMR_LEAD_BAD)))': $(MMR_SAY_LEAD_$(call \
  mmr_kind_of,$(firstword $(MMR_LEAD_BAD)))); nothing was run)
endif

# ---- 2c. compiler options that run another program -------------------------------
# CC and CFLAGS choose what compiles and what is compiled into the programs
# make then runs (-include FILE, -L and -Wl,-rpath to another library): whoever
# sets them can run anything, as whoever sets CC (docs/VARIABLES.md).  The
# options whose only use here would be to run another program at compile time
# are refused all the same, so that such a value does not pass for a set of
# flags: -wrapper, -fplugin*, -B*, -specs*, -print-prog-name*, --ld-path*,
# -fuse-ld= with a path, ld's plugins and dynamic linker (and '@FILE', 2b).
# (A list, so incomplete: CC names a wrapper script where one is needed.)
MMR_CC_RUNS := -wrapper -B% -specs% --specs% -print-prog-name% --print-prog-name% --ld-path%
mmr_cc_runs = $(strip $(filter $(MMR_CC_RUNS),$(1)) $(foreach w,$(1),$(if $(or $(findstring plugin,$(w)),$(findstring \
  dynamic-linker,$(w)),$(and $(filter -fuse-ld=%,$(w)),$(findstring /,$(w)))),$(w))))
MMR_CC_BAD := $(foreach n,$(filter CFLAGS CC,$(MMR_GIVEN)),$(if $(call mmr_cc_runs,$(value $(n))),$(n)))
ifneq ($(MMR_CC_BAD),)
$(error $(firstword $(MMR_CC_BAD))='$(value $(firstword $(MMR_CC_BAD)))': $(call mmr_cc_runs,$(value \
  $(firstword $(MMR_CC_BAD)))) makes the compiler run another program (CC may name a wrapper of your own); \
  nothing was run)
endif

# ---- 3. command-line variables the registry does not name ---------------------------
MMR_UNKNOWN := $(filter-out $(MMR_NAMES_REG),$(MMR_CMDLINE))
ifneq ($(MMR_UNKNOWN),)
# (a name of other characters gets no suggestion: only identifiers reach $(shell))
MMR_UNKNOWN_IDS := $(foreach n,$(MMR_UNKNOWN),$(if $(call mmr_strip,$(n),$(mmr_ident)),,$(n)))
$(error unknown variable on the command line: $(if $(MMR_UNKNOWN_IDS),$(shell awk -v mode=suggest \
  -v names='$(MMR_UNKNOWN_IDS)' -f mk/variables.awk $(MMR_REGISTRY)))$(filter-out \
  $(MMR_UNKNOWN_IDS),$(MMR_UNKNOWN)) (make help-all lists every variable); nothing was run)
endif

# ---- 4. the defaults and the fit options -----------------------------------------------
$(eval $(subst ~NL~,$(mmr_nl),$(shell awk -v mode=defs -f mk/variables.awk $(MMR_REGISTRY))))
ifneq ($(MMR_NAMES),$(MMR_NAMES_REG))
$(error $(MMR_REGISTRY): mk/variables.awk and mk/vars.mk read different names)
endif
# $(call mmr_fit_args,[NAMES]): the profile's fit options, those of NAMES left
# out (the comma always: without an argument $(1) would be the environment's)
mmr_fit_args = $(strip $(foreach n,$(filter-out $(1),$(MMR_FLAGS_fit)),$(MMR_FLAG_$(n))))
# the values of every variable as NAME=VALUE lines (make help), and the
# variables given on the command line or in the environment
mmr_values = $(foreach n,$(MMR_NAMES),$(n)=$($(n))$(mmr_nl))
MMR_USER := $(strip $(foreach n,$(MMR_NAMES),$(if $(call mmr_given,$(n)),$(n))))
