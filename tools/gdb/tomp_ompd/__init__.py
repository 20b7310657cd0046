"""tomp's OMPD support for gdb: the `ompd` commands over the OMPD library the runtime names.

Loaded by tools/gdb/tomp-ompd.py (`source` it, or let gdb auto-load it beside libtomp).
"""

import gdb

from . import commands, session

_registered = False


def setup():
    global _registered
    if _registered:
        return
    _registered = True
    commands.register()
    gdb.events.new_objfile.connect(_new_objfile)
    _new_objfile(None)


_bp = None


def _new_objfile(event):
    # a process started under gdb: load the library where the runtime says it has named it
    global _bp
    if _bp is None and session.symbol_address("ompd_dll_locations_valid") is not None:
        _bp = session.DllLocationsValid()
