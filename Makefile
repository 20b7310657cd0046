# tomp: an OpenMP runtime built to be seen into by tools.
#   make                 build/libtomp.so and build/lib/libgomp.so.1 (-> libtomp.so)
#   make SAN=tsan        build-tsan/ with ThreadSanitizer; SAN=asan: ASan+UBSan
#   make prof            build/tomp-prof and build/libtomp-prof.so (part of the release `all`,
#                        which says what to install when libdw's headers are missing)
#   make ompd            build/libtompd.so, the OMPD library debuggers load (release `all`)
#   make NO_OMPT=1       build-noompt/ without tool support (bench/ompt-cost.sh compares)
#   make test            run the test suite against build/ (and validate tests on libgomp)
#   make install PREFIX=/usr/local
#   make demo            build tomp and run examples/ (plain gcc -fopenmp programs) on it
#   make check           release, TSan and ASan+UBSan builds, the whole suite on each
#   make bench           microbenchmarks: tomp vs libgomp vs libomp (gcc binaries), tomp vs
#                        libomp (clang binaries) (BENCH_ARGS="--quick ...")
#   make bench-callgrind instructions per fork/join and barrier, and the OMPT no-tool cost
#   make bench-apps      NPB, LULESH, BOTS, EPCC on the three runtimes (bench/apps.sh, cached)
VERSION := 0.1.0
PREFIX ?= /usr/local
CC ?= gcc
SAN ?=

ifeq ($(SAN),)
  B := build
  SANFLAGS :=
else ifeq ($(SAN),tsan)
  B := build-tsan
  SANFLAGS := -fsanitize=thread
else ifeq ($(SAN),asan)
  B := build-asan
  SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined
else
  $(error SAN must be empty, tsan or asan)
endif

# NO_OMPT=1: tool support compiled out (build-noompt/), for measuring what OMPT costs
NO_OMPT ?=
OMPTFLAGS :=
ifneq ($(NO_OMPT),)
  ifneq ($(SAN),)
    $(error NO_OMPT and SAN cannot be combined)
  endif
  B := build-noompt
  OMPTFLAGS := -DTOMP_NO_OMPT
endif

CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ALLCFLAGS := -std=gnu11 $(CFLAGS) $(WARN) $(SANFLAGS) $(OMPTFLAGS) -fPIC -fvisibility=hidden \
  -fno-omit-frame-pointer -funwind-tables -fno-ipa-icf -pthread -D_GNU_SOURCE -MMD -MP
# Layers (docs/architecture.md).  Each layer is compiled with the include directories of the
# layers it may depend on and no others, so an include across the layering fails to compile:
#   front-ends (src/gomp, src/kmp) -> src/api -> src/core (with its event layer) <- observers
#   (src/ompt, src/collector).  tools/layers.sh checks the objects' symbols before the link.
LAYERS := core api gomp kmp ompt collector ompd
INC_core := -Iinclude -Isrc/core
INC_api := $(INC_core) -Isrc/api
INC_gomp := $(INC_api) -Isrc/gomp
INC_kmp := $(INC_api) -Isrc/kmp
INC_ompt := $(INC_core) -Isrc/ompt
INC_collector := $(INC_core) -Isrc/collector
INC_ompd := $(INC_core) -Isrc/ompd
INCS := -Iinclude
$(foreach l,$(LAYERS),$(eval $(B)/obj/src/$(l)/%.o: INCS := $$(INC_$(l))))
# One library serves both ABIs: GCC's version nodes (libgomp.map) and LLVM's `VERSION` node
# (libomp.map); build/lib names it libgomp.so.1 and libomp.so.5.
LINKSCRIPTS := src/gomp/libgomp.map src/gomp/aliases.ld src/kmp/libomp.map src/kmp/aliases.ld
LDFLAGS_LIB := -shared -pthread $(SANFLAGS) -Wl,--version-script=src/gomp/libgomp.map \
  src/gomp/aliases.ld -Wl,--version-script=src/kmp/libomp.map src/kmp/aliases.ld \
  -Wl,-soname,libgomp.so.1 -Wl,-z,now -ldl

SRCS := $(sort $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c)))
OBJS := $(SRCS:%.c=$(B)/obj/%.o)

all: $(B)/libtomp.so $(B)/lib/libgomp.so.1
ifeq ($(SAN),)
all: prof-if-possible ompd
endif
include tools/prof/prof.mk
include tools/ompd/ompd.mk
include tools/gdb/gdb.mk

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) $(INCS) -c $< -o $@

$(B)/libtomp.so: $(OBJS) $(LINKSCRIPTS) $(B)/layers.ok
	$(CC) -o $@ $(OBJS) $(LDFLAGS_LIB)

# The link-level half of the layering: no object references a symbol that only a layer it
# must not depend on defines (tools/layers.sh).
$(B)/layers.ok: $(OBJS) tools/layers.sh
	tools/layers.sh $(B)/obj
	@touch $@

layers: $(B)/layers.ok

$(B)/lib/libgomp.so.1: $(B)/libtomp.so
	@mkdir -p $(dir $@)
	ln -sf ../libtomp.so $@
	ln -sf ../libtomp.so $(dir $@)libgomp.so
	ln -sf ../libtomp.so $(dir $@)libtomp.so
	ln -sf ../libtomp.so $(dir $@)libomp.so.5
	ln -sf ../libtomp.so $(dir $@)libomp.so

test: all
	tests/run.sh $(B)

install: all install-gdb
	install -d $(DESTDIR)$(PREFIX)/lib/tomp $(DESTDIR)$(PREFIX)/include/tomp $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(B)/libtomp.so $(DESTDIR)$(PREFIX)/lib/libtomp.so
ifeq ($(SAN),)
	install -m 755 $(B)/libtompd.so $(DESTDIR)$(PREFIX)/lib/libtompd.so
endif
	ln -sf ../libtomp.so $(DESTDIR)$(PREFIX)/lib/tomp/libgomp.so.1
	ln -sf ../libtomp.so $(DESTDIR)$(PREFIX)/lib/tomp/libgomp.so
	ln -sf ../libtomp.so $(DESTDIR)$(PREFIX)/lib/tomp/libomp.so.5
	ln -sf ../libtomp.so $(DESTDIR)$(PREFIX)/lib/tomp/libomp.so
	install -m 644 include/omp.h include/omp-tools.h $(DESTDIR)$(PREFIX)/include/tomp/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' tomp.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/tomp.pc

# Example programs: compiled by plain `gcc -fopenmp` (linked against the system libgomp, as
# any user's program is) and run on tomp through the library path.
EXAMPLES := $(patsubst examples/%.c,$(B)/examples/%,$(wildcard examples/*.c))
$(B)/examples/%: examples/%.c
	@mkdir -p $(dir $@)
	gcc -fopenmp -O2 -Wall -o $@ $< -lm

examples: $(EXAMPLES)

# The README's first command: examples on tomp, then one under tomp-prof (tools/demo.sh
# installs the Debian packages the build needs on a fresh machine).
demo:
	B=$(B) tools/demo.sh

check:
	tools/check.sh

# Benchmarks (bench/, docs/benchmarks.md).  The scripts build their own programs into
# build/bench; BENCH_ARGS passes options and test names to bench/run.sh.
bench: all
	TOMP_BUILD=$(B) bench/run.sh $(BENCH_ARGS)

bench-callgrind: all
	TOMP_BUILD=$(B) bench/callgrind.sh $(BENCH_ARGS)

bench-apps: all
	TOMP_BUILD=$(B) bench/apps.sh $(BENCH_ARGS)

clean:
	rm -rf build build-tsan build-asan build-noompt

.PHONY: all examples test install clean demo check bench bench-callgrind bench-apps layers
-include $(OBJS:.o=.d)
