# tomp's gdb extension (tools/gdb/): the `ompd` commands over libtompd.so (docs/ompd.md).
# Included by the top-level Makefile; `make install` runs install-gdb:
#   $(PREFIX)/share/tomp/gdb/tomp-ompd.py (+ tomp_ompd/)   for `source` in gdb
#   $(PREFIX)/lib/libtomp.so-gdb.py                         gdb's auto-load beside the library
#   $(PREFIX)/share/gdb/auto-load$(PREFIX)/lib/libtomp.so-gdb.py   gdb's own auto-load
#                                                           directory (used when PREFIX=/usr)
GDB_PY_DIR := $(PREFIX)/share/tomp/gdb
GDB_AUTOLOAD := $(PREFIX)/share/gdb/auto-load$(PREFIX)/lib

install-gdb:
	install -d $(DESTDIR)$(GDB_PY_DIR)/tomp_ompd $(DESTDIR)$(GDB_AUTOLOAD) $(DESTDIR)$(PREFIX)/lib
	install -m 644 tools/gdb/tomp-ompd.py $(DESTDIR)$(GDB_PY_DIR)/
	install -m 644 tools/gdb/tomp_ompd/*.py $(DESTDIR)$(GDB_PY_DIR)/tomp_ompd/
	sed -e 's|@GDB_PY_DIR@|$(GDB_PY_DIR)|g' tools/gdb/libtomp.so-gdb.py.in > $(DESTDIR)$(PREFIX)/lib/libtomp.so-gdb.py
	cp $(DESTDIR)$(PREFIX)/lib/libtomp.so-gdb.py $(DESTDIR)$(GDB_AUTOLOAD)/libtomp.so-gdb.py

.PHONY: install-gdb
