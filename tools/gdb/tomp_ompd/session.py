"""Finding and loading the OMPD library of the inferior's OpenMP runtime.

The runtime names its OMPD libraries in `ompd_dll_locations` (a NULL-terminated array of file
names) before it calls `ompd_dll_locations_valid()` (OpenMP 5.2, "Finding the OMPD Library").
A live process run under gdb is caught there by an internal breakpoint; an attached process
or a core file has the array filled already and is read on the first `ompd` command.  A
relative name is looked for beside the runtime library first, then by the dynamic loader.
"""

import ctypes
import os

import gdb

from . import api
from .target import Target, symbol_address

# The library is loaded once per gdb session (an OMPD library is initialised once); the
# target callbacks it was given stay the same object for the whole session.
_plugin = None
_target = None


class NotAvailable(Exception):
    """OMPD cannot be used on this inferior now; the message says why and what to do."""


def has_process():
    inf = gdb.selected_inferior()
    return inf is not None and inf.pid != 0


def is_core():
    """Whether the inferior is a core file (not a process that can run)."""
    conn = getattr(gdb.selected_inferior(), "connection", None)  # gdb 13
    if conn is not None:
        return conn.type == "core"
    try:
        return "Local core dump file" in gdb.execute("info target", to_string=True)
    except gdb.error:
        return False


def read_pointer(addr):
    data = gdb.selected_inferior().read_memory(addr, 8)
    return int.from_bytes(bytes(data), "little")


def read_cstring(addr, limit=4096):
    inf = gdb.selected_inferior()
    out = b""
    while len(out) < limit:
        piece = 256 - (addr + len(out)) % 256
        chunk = bytes(inf.read_memory(addr + len(out), piece))
        z = chunk.find(b"\0")
        if z >= 0:
            return (out + chunk[:z]).decode("utf-8", "replace")
        out += chunk
    return out.decode("utf-8", "replace")


def runtime_dirs():
    """Directories of the loaded libraries that define ompd_dll_locations (the runtime)."""
    dirs = []
    for objfile in gdb.objfiles():
        name = objfile.filename or ""
        base = os.path.basename(name)
        if base.startswith(("libtomp", "libgomp", "libomp")):
            for d in (os.path.dirname(name), os.path.dirname(os.path.realpath(name))):
                if d and d not in dirs:
                    dirs.append(d)
    return dirs


def dll_locations():
    """The names in the inferior's ompd_dll_locations, [] when NULL; None without it."""
    loc = symbol_address("ompd_dll_locations")
    if loc is None or symbol_address("ompd_dll_locations_valid") is None:
        return None
    names = []
    arr = read_pointer(loc)
    while arr and len(names) < 64:
        p = read_pointer(arr + 8 * len(names))
        if not p:
            break
        names.append(read_cstring(p))
    return names


def candidates(names):
    out = []
    override = os.environ.get("TOMP_OMPD_LIBRARY")
    if override:
        out.append(override)
    for n in names:
        if os.path.isabs(n):
            out.append(n)
        else:
            out.extend(os.path.join(d, n) for d in runtime_dirs())
            out.append(n)
    return out


def load_plugin(names, quiet=False):
    """Load and initialise the first library of names that loads; return the plug-in."""
    global _plugin, _target
    if _plugin is not None:
        return _plugin
    tried = []
    for path in candidates(names):
        if not os.path.isabs(path) or os.path.exists(path):
            try:
                plugin = api.Plugin(path)
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
                continue
            target = Target()
            version = ctypes.c_int64(api.API_VERSION_5_1)
            plugin.try_call("ompd_get_api_version", ctypes.byref(version))
            try:
                plugin.call("ompd_initialize", version, ctypes.byref(target.callbacks))
            except api.OmpdError as e:
                tried.append("%s (%s)" % (path, e))
                continue
            _plugin, _target = plugin, target
            if not quiet:
                s = ctypes.c_char_p()
                plugin.try_call("ompd_get_version_string", ctypes.byref(s))
                gdb.write("tomp OMPD: loaded %s%s\n" % (
                    path, " (%s)" % s.value.decode() if s.value else ""))
            return plugin
        tried.append("%s (no such file)" % path)
    raise NotAvailable("no OMPD library could be loaded; tried: %s" %
                       ("; ".join(tried) or "nothing"))


def plugin_and_target():
    """The loaded plug-in and target for the current inferior, loading it when needed."""
    if not has_process():
        raise NotAvailable("no process: run the program, attach to one or open a core file")
    names = dll_locations()
    if names is None:
        raise NotAvailable(
            "this process does not run on tomp: neither it nor its libraries define "
            "ompd_dll_locations / ompd_dll_locations_valid (an OpenMP runtime without OMPD, "
            "such as GCC's libgomp, or tomp's library not loaded yet)")
    if _plugin is None and not names:
        # tomp names its library only when OMP_DEBUG=enabled; what the library reads is
        # there regardless, so look for it beside the runtime
        if not runtime_dirs():
            raise NotAvailable(
                "the OpenMP runtime is not loaded yet: let the program run into main "
                "(e.g. `start`) and try again")
        gdb.write("tomp OMPD: ompd_dll_locations is NULL (the program does not run with "
                  "OMP_DEBUG=enabled): looking for libtompd.so beside the runtime\n")
        names = ["libtompd.so"]
    return load_plugin(names), _target


class AddressSpace:
    """`with AddressSpace() as a:` an address space handle for one command, released after."""

    def __enter__(self):
        self.plugin, self.target = plugin_and_target()
        h = ctypes.c_void_p()
        rc = self.plugin.try_call("ompd_process_initialize", ctypes.c_void_p(self.target.aspace),
                                  ctypes.byref(h))
        if rc == api.RC_INCOMPATIBLE:
            raise NotAvailable("the OMPD library %s does not understand this runtime "
                               "(ompd_rc_incompatible: another version of tomp?)" %
                               self.plugin.path)
        if rc != api.RC_OK:
            why = "; ".join(self.target.errors[-3:])
            raise NotAvailable("ompd_process_initialize: ompd_rc_%s%s" % (
                api.RC_NAMES[rc] if 0 <= rc < len(api.RC_NAMES) else rc,
                " (%s)" % why if why else ""))
        self.handle = h.value
        return self

    def __exit__(self, *exc):
        self.plugin.try_call("ompd_rel_address_space_handle", ctypes.c_void_p(self.handle))
        return False


class DllLocationsValid(gdb.Breakpoint):
    """Stops nothing: where the runtime says its ompd_dll_locations is valid, load the library
    (a process started under gdb)."""

    def __init__(self):
        super().__init__("ompd_dll_locations_valid", internal=True)
        self.silent = True

    def stop(self):
        try:
            names = dll_locations()
            if names:
                load_plugin(names)
        except (NotAvailable, gdb.error) as e:
            gdb.write("tomp OMPD: %s\n" % e)
        return False
