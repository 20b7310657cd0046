# libtompd.so (tools/ompd/): tomp's OMPD library, which a debugger loads (docs/ompd.md).
# Included by the top-level Makefile; built for the release build directory only.  It
# reads the target through the debugger's callbacks alone: no link to libtomp.
OMPD_SRCS := $(sort $(wildcard tools/ompd/*.c))
OMPD_OBJS := $(OMPD_SRCS:%.c=$(B)/obj/%.o)

$(B)/libtompd.so: $(OMPD_OBJS)
	$(CC) -shared $(SANFLAGS) -o $@ $(OMPD_OBJS) -Wl,-z,defs

ompd: $(B)/libtompd.so

.PHONY: ompd
-include $(OMPD_OBJS:.o=.d)
