"""The debugger's side of OMPD: the callbacks an OMPD library reads the target through.

Everything goes through gdb's Python API, so the same code serves a live process (run or
attach) and a core file (gcore or the kernel's).  Contexts are ours: the address space
context is one small object, a thread context another per gdb thread, and the library only
ever hands their addresses back to us.  A callback never raises into the library: any failure
becomes a return code (an OMPD library must survive a foreign or damaged address space, and
so must we).
"""

import ctypes

import gdb

from . import api


def thread_lwp(thread):
    return thread.ptid[1] or thread.ptid[0]


def thread_pthread(thread):
    """The thread's pthread_t (through libthread_db), or None."""
    try:
        h = thread.handle()
    except Exception:
        return None
    if not h:
        return None
    return int.from_bytes(bytes(h), "little")


def live_threads():
    inf = gdb.selected_inferior()
    if inf is None or not inf.pid:
        return []
    return sorted((t for t in inf.threads() if t.is_valid()), key=lambda t: t.num)


class SelectedThread:
    """`with SelectedThread(t):` runs with gdb's selected thread (and frame) switched to t."""

    def __init__(self, thread):
        self.thread = thread

    def __enter__(self):
        self.old = gdb.selected_thread()
        try:
            self.old_frame = gdb.selected_frame()
        except gdb.error:
            self.old_frame = None
        if self.thread is not None and self.thread != self.old:
            self.thread.switch()
        return self

    def __exit__(self, *exc):
        if self.old is not None and self.old.is_valid() and gdb.selected_thread() != self.old:
            self.old.switch()
        if self.old_frame is not None:
            try:
                if self.old_frame.is_valid():
                    self.old_frame.select()
            except gdb.error:
                pass
        return False


def symbol_address(name, file_name=None):
    """Address of a symbol (debug information or the minimal symbol table), or None."""
    if file_name:
        base = file_name.rsplit("/", 1)[-1]
        for objfile in gdb.objfiles():
            if objfile.filename.rsplit("/", 1)[-1].startswith(base):
                for look in (objfile.lookup_global_symbol, objfile.lookup_static_symbol):
                    try:
                        sym = look(name)
                    except Exception:
                        sym = None
                    if sym is not None and sym.is_variable:
                        return int(sym.value().address)
    try:
        v = gdb.parse_and_eval("&'%s'" % name)
        return int(v.cast(gdb.lookup_type("unsigned long")))
    except gdb.error:
        return None


class Target:
    """The callbacks and the contexts of the current inferior's address space."""

    def __init__(self):
        self.libc = ctypes.CDLL(None)
        self.libc.malloc.restype = ctypes.c_void_p
        self.libc.malloc.argtypes = [ctypes.c_size_t]
        self.libc.free.argtypes = [ctypes.c_void_p]
        self.aspace_ctx = ctypes.c_uint64(0x746f6d70)  # its address is the context
        self.thread_ctx_objs = {}  # gdb global thread number -> c_uint64 (kept alive)
        self.ctx_threads = {}  # context address -> gdb global thread number
        self.errors = []  # the last callback failures, for diagnostics
        self.callbacks = api.Callbacks(
            api.ALLOC_FN(self._alloc), api.FREE_FN(self._free), api.PRINT_FN(self._print),
            api.SIZEOF_FN(self._sizeof), api.SYMBOL_FN(self._symbol),
            api.READ_FN(self._read), api.WRITE_FN(self._write),
            api.READ_FN(self._read_string), api.CONVERT_FN(self._convert),
            api.CONVERT_FN(self._convert), api.THREAD_CONTEXT_FN(self._thread_context))

    # ---- contexts ---------------------------------------------------------------------------
    @property
    def aspace(self):
        return ctypes.addressof(self.aspace_ctx)

    def thread_context(self, thread):
        obj = self.thread_ctx_objs.get(thread.global_num)
        if obj is None:
            obj = ctypes.c_uint64(thread.global_num)
            self.thread_ctx_objs[thread.global_num] = obj
            self.ctx_threads[ctypes.addressof(obj)] = thread.global_num
        return ctypes.addressof(obj)

    def thread_of_context(self, ctx):
        num = self.ctx_threads.get(ctx)
        if num is None:
            return None
        for t in live_threads():
            if t.global_num == num:
                return t
        return None

    def find_thread(self, kind, value):
        for t in live_threads():
            if kind == api.THREAD_ID_LWP and thread_lwp(t) == value:
                return t
            if kind == api.THREAD_ID_PTHREAD and thread_pthread(t) == value:
                return t
        return None

    def _fail(self, what, rc=api.RC_ERROR):
        self.errors = (self.errors + [what])[-8:]
        return rc

    # ---- callbacks --------------------------------------------------------------------------
    def _alloc(self, nbytes, out):
        try:
            p = self.libc.malloc(max(int(nbytes), 1))
            if not p:
                return api.RC_NOMEM
            out[0] = p
            return api.RC_OK
        except Exception as e:
            return self._fail("alloc_memory: %s" % e)

    def _free(self, ptr):
        try:
            self.libc.free(ptr)
            return api.RC_OK
        except Exception as e:
            return self._fail("free_memory: %s" % e)

    def _print(self, string, category):
        try:
            gdb.write((string or b"").decode("utf-8", "replace"))
            return api.RC_OK
        except Exception as e:
            return self._fail("print_string: %s" % e)

    def _sizeof(self, ctx, sizes):
        try:
            s = sizes[0]
            s.sizeof_char = gdb.lookup_type("char").sizeof
            s.sizeof_short = gdb.lookup_type("short").sizeof
            s.sizeof_int = gdb.lookup_type("int").sizeof
            s.sizeof_long = gdb.lookup_type("long").sizeof
            s.sizeof_long_long = gdb.lookup_type("long long").sizeof
            s.sizeof_pointer = gdb.lookup_type("void").pointer().sizeof
            return api.RC_OK
        except Exception as e:
            return self._fail("sizeof_type: %s" % e)

    def _symbol(self, ctx, tctx, name, out, file_name):
        try:
            sym = name.decode()
            fname = file_name.decode() if file_name else None
            thread = self.thread_of_context(tctx) if tctx else None
            if tctx and thread is None:
                return self._fail("symbol_addr_lookup %s: unknown thread context" % sym,
                                  api.RC_BAD_INPUT)
            with SelectedThread(thread):
                addr = symbol_address(sym, fname)
            if addr is None:
                return self._fail("symbol_addr_lookup: no symbol %s" % sym)
            out[0].segment = 0
            out[0].address = addr
            return api.RC_OK
        except Exception as e:
            return self._fail("symbol_addr_lookup: %s" % e)

    def _read(self, ctx, tctx, addr, nbytes, buf):
        try:
            n = int(nbytes)
            data = gdb.selected_inferior().read_memory(addr[0].address, n)
            ctypes.memmove(buf, bytes(data), n)
            return api.RC_OK
        except Exception as e:
            return self._fail("read_memory 0x%x+%d: %s" % (addr[0].address, nbytes, e))

    def _read_string(self, ctx, tctx, addr, nbytes, buf):
        # up to nbytes, stopping at the terminating NUL; in pieces that stay within a page,
        # so that a string near the end of a mapping reads
        try:
            inf = gdb.selected_inferior()
            a = addr[0].address
            n = int(nbytes)
            out = b""
            while len(out) < n:
                piece = min(n - len(out), 4096 - (a + len(out)) % 4096)
                chunk = bytes(inf.read_memory(a + len(out), piece))
                z = chunk.find(b"\0")
                if z >= 0:
                    out += chunk[:z + 1]
                    break
                out += chunk
            ctypes.memmove(buf, out, len(out))
            return api.RC_OK if out.endswith(b"\0") else api.RC_INCOMPLETE
        except Exception as e:
            return self._fail("read_string 0x%x: %s" % (addr[0].address, e))

    def _write(self, ctx, tctx, addr, nbytes, buf):
        try:
            gdb.selected_inferior().write_memory(addr[0].address,
                                                 ctypes.string_at(buf, int(nbytes)))
            return api.RC_OK
        except Exception as e:
            return self._fail("write_memory: %s" % e, api.RC_DEVICE_WRITE_ERROR)

    def _convert(self, ctx, inp, unit_size, count, out):
        # host and target are the same machine: same byte order and sizes
        try:
            ctypes.memmove(out, inp, int(unit_size) * int(count))
            return api.RC_OK
        except Exception as e:
            return self._fail("device_to_host: %s" % e)

    def _thread_context(self, ctx, kind, size, thread_id, out):
        try:
            if kind not in (api.THREAD_ID_PTHREAD, api.THREAD_ID_LWP) or size not in (4, 8):
                return self._fail("thread context: kind %d size %d" % (kind, size),
                                  api.RC_BAD_INPUT)
            value = int.from_bytes(ctypes.string_at(thread_id, int(size)), "little")
            t = self.find_thread(kind, value)
            if t is None:
                return self._fail("thread context: no thread %d (kind %d)" % (value, kind),
                                  api.RC_UNAVAILABLE)
            out[0] = self.thread_context(t)
            return api.RC_OK
        except Exception as e:
            return self._fail("get_thread_context_for_thread_id: %s" % e)
