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

$(B)/tomp-prof: $(PROF_CLI_OBJS)
	$(CC) -pthread $(SANFLAGS) -o $@ $(PROF_CLI_OBJS) -ldw -lelf -lz -lm

prof: $(B)/libtomp-prof.so $(B)/tomp-prof

.PHONY: prof
-include $(PROF_TOOL_OBJS:.o=.d) $(PROF_CLI_OBJS:.o=.d)
