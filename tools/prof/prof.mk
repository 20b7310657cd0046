# tomp-prof (tools/prof/): the OMPT recording tool and the command-line program.
# Included by the top-level Makefile.  Built for the release build directory only: the tool
# is loaded into the profiled program, the CLI links elfutils' libdw (Debian libdw-dev).
#   $(B)/libtomp-prof.so   tools/prof/record/*.c   (OMPT tool: timers, unwinding, buffers)
#   $(B)/tomp-prof         tools/prof/*.c + tools/prof/report/*.c   (record, report, dump)
PROF_TOOL_SRCS := $(sort $(wildcard tools/prof/record/*.c))
PROF_CLI_SRCS := $(sort $(wildcard tools/prof/*.c tools/prof/report/*.c))
PROF_TOOL_OBJS := $(PROF_TOOL_SRCS:%.c=$(B)/obj/%.o)
PROF_CLI_OBJS := $(PROF_CLI_SRCS:%.c=$(B)/obj/%.o)
PROF_CFLAGS := -Itools/prof

$(PROF_TOOL_OBJS) $(PROF_CLI_OBJS): ALLCFLAGS += $(PROF_CFLAGS)

$(B)/libtomp-prof.so: $(PROF_TOOL_OBJS)
	$(CC) -shared -pthread $(SANFLAGS) -o $@ $(PROF_TOOL_OBJS) -lrt -ldl

# The CLI's report needs elfutils' libdw and zlib headers (Debian libdw-dev, zlib1g-dev).  A
# machine without them still builds libtomp (and the recording tool): plain `make` says what
# to install instead of failing; `make prof` fails with that message.  PROF_DEP_HEADERS is
# what the compiler is asked to find (a test names a missing header to simulate a fresh
# machine).
PROF_DEP_HEADERS ?= elfutils/libdw.h elfutils/libdwfl.h dwarf.h zlib.h
PROF_MISSING := $(strip $(foreach h,$(PROF_DEP_HEADERS),$(if $(shell printf '\043include <%s>\n' '$(h)' | \
  $(CC) -E -x c - >/dev/null 2>&1 && echo ok),,$(h))))
PROF_INSTALL_MSG := tomp-prof: cannot build $(B)/tomp-prof: $(PROF_MISSING) not found. \
  Install elfutils' libdw and zlib headers (Debian/Ubuntu: apt-get install libdw-dev zlib1g-dev; \
  Fedora: dnf install elfutils-devel zlib-devel); make demo and make check install them. \
  libtomp is built regardless.

# The HTML report's stylesheet and script are built into export-html.o (.incbin)
$(B)/obj/tools/prof/report/export-html.o: tools/prof/report/export-html.css tools/prof/report/export-html.js

# OTF2 traces (--format otf2) when Debian's libotf2-trace-dev is installed; without it the
# format says what to install.
PROF_HAVE_OTF2 := $(shell printf '\043include <otf2/otf2.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1)
ifeq ($(PROF_HAVE_OTF2),1)
$(B)/obj/tools/prof/report/export-otf2.o: ALLCFLAGS += -DTP_HAVE_OTF2
PROF_OTF2_LIBS := -lopen-trace-format2
endif

$(B)/tomp-prof: $(PROF_CLI_OBJS)
	$(CC) -pthread $(SANFLAGS) -o $@ $(PROF_CLI_OBJS) -ldw -lelf -lz -lm $(PROF_OTF2_LIBS)

ifeq ($(PROF_MISSING),)
prof: $(B)/libtomp-prof.so $(B)/tomp-prof
prof-if-possible: prof
else
prof: $(B)/libtomp-prof.so
	@echo "$(PROF_INSTALL_MSG)" >&2; exit 1
prof-if-possible: $(B)/libtomp-prof.so
	@echo "$(PROF_INSTALL_MSG)" >&2
endif

.PHONY: prof prof-if-possible
-include $(PROF_TOOL_OBJS:.o=.d) $(PROF_CLI_OBJS:.o=.d)
