"""The OpenMP view of the inferior at one moment, built from OMPD handles for one command.

A View holds the address space, the OpenMP threads (gdb thread + OMPD thread handle), and
numbers parallel regions and tasks as it meets them (handles are compared with the library's
compare functions, never by address).  Every handle it obtains is released when the command
ends (`with View() as v:`).
"""

import ctypes
from ctypes import byref, c_int, c_int64, c_uint64, c_void_p

import gdb

from . import api
from .session import AddressSpace
from .target import live_threads, thread_lwp, thread_pthread

V = c_void_p


def symbolize(addr):
    """`name` (or `name+off`) of a code or data address, '' when gdb knows none."""
    if not addr:
        return ""
    try:
        block = gdb.block_for_pc(addr)
    except Exception:
        block = None
    while block is not None and block.function is None:
        block = block.superblock
    if block is not None and block.function.value().address:
        start = int(block.function.value().address)
        name = block.function.print_name
        return name if start == addr else "%s+%d" % (name, addr - start)
    try:
        out = gdb.execute("info symbol 0x%x" % addr, to_string=True).strip()
    except gdb.error:
        return ""
    if out.startswith("No symbol"):
        return ""
    name = out.split(" in section ")[0]
    return name.replace(" + ", "+")


def source_of(addr):
    try:
        sal = gdb.find_pc_line(addr)
    except Exception:
        return ""
    if sal.symtab is None:
        return ""
    return "%s:%d" % (sal.symtab.filename.rsplit("/", 1)[-1], sal.line)


def critical_name(sym):
    """gcc names a named critical section's lock `.gomp_critical_user_NAME`."""
    sym = sym.lstrip(".")
    if sym.startswith("gomp_critical_user_"):
        return sym[len("gomp_critical_user_"):].split("+")[0]
    return None


class OmpThread:
    def __init__(self, view, gdb_thread, handle):
        self.view = view
        self.gdb = gdb_thread
        self.handle = handle


class Region:
    def __init__(self, num, handle):
        self.num = num
        self.handle = handle
        self.parent = None  # Region
        self.children = []
        self.level = None


class Task:
    def __init__(self, num, handle):
        self.num = num
        self.handle = handle


class View:
    def __enter__(self):
        self.aspace = AddressSpace().__enter__()
        self.plugin = self.aspace.plugin
        self.target = self.aspace.target
        self.ah = self.aspace.handle
        self.owned = []  # (release function, handle)
        self.regions = []
        self.tasks = []
        self._states = None
        self._icvs = None
        self.threads = []
        self.id_kind = None
        for t in live_threads():
            h = self.thread_handle(t)
            if h:
                self.threads.append(OmpThread(self, t, h))
        # number the active regions outermost first, in the order of the threads
        for ot in self.threads:
            self.curr_region(ot)
        # the implicit parallel region of an initial task (level 0) is no parallel region to
        # show: it gets number 0
        self.regions.sort(key=lambda r: self.region_level(r))
        n = 0
        for r in self.regions:
            if self.region_level(r) > 0:
                n += 1
            r.num = n if self.region_level(r) > 0 else 0
        return self

    def __exit__(self, *exc):
        for rel, h in reversed(self.owned):
            self.plugin.try_call(rel, V(h))
        self.aspace.__exit__(*exc)
        return False

    def _own(self, rel, h):
        self.owned.append((rel, h))
        return h

    def call(self, name, *args):
        self.plugin.call(name, *args)

    # ---- threads ----------------------------------------------------------------------------
    def thread_handle(self, t):
        """The OMPD thread handle of gdb thread t, None when it is no OpenMP thread."""
        ids = []
        pt = thread_pthread(t)
        if pt is not None:
            ids.append((api.THREAD_ID_PTHREAD, c_uint64(pt)))
        ids.append((api.THREAD_ID_LWP, c_uint64(thread_lwp(t))))
        if self.id_kind is not None:
            ids.sort(key=lambda k: k[0] != self.id_kind)
        for kind, value in ids:
            h = V()
            rc = self.plugin.try_call("ompd_get_thread_handle", V(self.ah), c_uint64(kind),
                                      c_uint64(8), byref(value), byref(h))
            if rc == api.RC_OK and h.value:
                self.id_kind = kind
                return self._own("ompd_rel_thread_handle", h.value)
        return None

    def gdb_thread_of(self, th):
        """The gdb thread of an OMPD thread handle."""
        for ot in self.threads:
            same = c_int(1)
            if self.plugin.try_call("ompd_thread_handle_compare", V(ot.handle), V(th),
                                    byref(same)) == api.RC_OK and same.value == 0:
                return ot
        for kind, size in ((api.THREAD_ID_LWP, 8), (api.THREAD_ID_PTHREAD, 8)):
            buf = c_uint64()
            if self.plugin.try_call("ompd_get_thread_id", V(th), c_uint64(kind), c_uint64(size),
                                    byref(buf)) == api.RC_OK:
                for ot in self.threads:
                    if (kind == api.THREAD_ID_LWP and thread_lwp(ot.gdb) == buf.value) or \
                            (kind == api.THREAD_ID_PTHREAD and thread_pthread(ot.gdb) == buf.value):
                        return ot
        return None

    def state(self, ot):
        st, wid = c_int64(), c_uint64()
        self.call("ompd_get_state", V(ot.handle), byref(st), byref(wid))
        return st.value, wid.value

    def state_name(self, value):
        if self._states is None:
            self._states = {}
            cur, nxt, name, more = c_int64(api.STATE_UNDEFINED), c_int64(), ctypes.c_char_p(), \
                c_int64(1)
            while more.value and len(self._states) < 256:
                if self.plugin.try_call("ompd_enumerate_states", V(self.ah), cur, byref(nxt),
                                        byref(name), byref(more)) != api.RC_OK:
                    break
                self._states[nxt.value] = (name.value or b"?").decode()
                cur = c_int64(nxt.value)
        name = self._states.get(value, "state 0x%x" % value)
        return name[len("ompt_state_"):] if name.startswith("ompt_state_") else name

    # ---- parallel regions -------------------------------------------------------------------
    def region(self, handle):
        """The Region of a parallel handle (numbered on first sight; the handle is owned)."""
        r = self._known(self.regions, handle, "parallel", Region)
        if not r.fresh:
            return r
        r.parent = self._related("ompd_get_enclosing_parallel_handle", handle, self.region)
        if r.parent is not None:
            r.parent.children.append(r)
        return r

    def _related(self, fn, handle, wrap):
        """wrap(the handle fn gives for handle), or None when it gives none."""
        h = V()
        if self.plugin.try_call(fn, V(handle), byref(h)) != api.RC_OK or not h.value:
            return None
        return wrap(h.value)

    def curr_region(self, ot):
        return self._related("ompd_get_curr_parallel_handle", ot.handle, self.region)

    def team_size(self, region):
        v = self.icv_value(region.handle, api.SCOPE_PARALLEL, "team-size-var")
        return v

    def region_level(self, region):
        """Its nesting level (levels-var): 1 for an outermost region, 0 for an initial
        task's implicit region."""
        if region.level is None:
            region.level = self.icv_value(region.handle, api.SCOPE_PARALLEL, "levels-var")
            if region.level is None:  # count the enclosing regions, the implicit one aside
                n, r = -1, region
                while r is not None:
                    n, r = n + 1, r.parent
                region.level = n
        return region.level

    def active_region(self, ot):
        """ot's innermost parallel region, None outside any (level 0 included)."""
        r = self.curr_region(ot)
        return r if r is not None and self.region_level(r) > 0 else None

    def region_threads(self, region):
        """[(thread number, OmpThread or None)] of the region's team."""
        out = []
        size = self.team_size(region) or 0
        for i in range(min(size, 1024)):
            th = V()
            if self.plugin.try_call("ompd_get_thread_in_parallel", V(region.handle), c_int(i),
                                    byref(th)) != api.RC_OK or not th.value:
                out.append((i, None))
                continue
            self._own("ompd_rel_thread_handle", th.value)
            out.append((i, self.gdb_thread_of(th.value)))
        return out

    def thread_num(self, ot, region):
        """ot's number in region's team (None when not in one)."""
        v = self.icv_value(ot.handle, api.SCOPE_THREAD, "thread-num-var")
        if v is None:
            task = self.curr_task(ot)
            if task is not None:
                v = self.icv_value(task.handle, api.SCOPE_IMPLICIT_TASK, "thread-num-var")
        if v is not None:
            return v
        if region is None:
            return None
        for i, o in self.region_threads(region):
            if o is ot:
                return i
        return None

    # ---- tasks ------------------------------------------------------------------------------
    def task(self, handle):
        return self._known(self.tasks, handle, "task", Task)

    def _known(self, seen, handle, kind, cls):
        """The object of seen whose handle is the same as handle (which is then released), or
        a new one numbered next, owning handle."""
        for obj in seen:
            same = c_int(1)
            if self.plugin.try_call("ompd_%s_handle_compare" % kind, V(obj.handle), V(handle),
                                    byref(same)) == api.RC_OK and same.value == 0:
                self.plugin.try_call("ompd_rel_%s_handle" % kind, V(handle))
                obj.fresh = False
                return obj
        obj = cls(len(seen) + 1, self._own("ompd_rel_%s_handle" % kind, handle))
        obj.fresh = True
        seen.append(obj)
        return obj

    def curr_task(self, ot):
        return self._related("ompd_get_curr_task_handle", ot.handle, self.task)

    def generating_task(self, task):
        return self._related("ompd_get_generating_task_handle", task.handle, self.task)

    def scheduling_task(self, task):
        return self._related("ompd_get_scheduling_task_handle", task.handle, self.task)

    def task_region(self, task):
        return self._related("ompd_get_task_parallel_handle", task.handle, self.region)

    def task_function(self, task):
        a = api.Address()
        if self.plugin.try_call("ompd_get_task_function", V(task.handle), byref(a)) != api.RC_OK:
            return None
        return a.address

    def task_frames(self, task):
        """((exit address, flags), (enter address, flags)); addresses 0 when unset."""
        ex, en = api.FrameInfo(), api.FrameInfo()
        if self.plugin.try_call("ompd_get_task_frame", V(task.handle), byref(ex),
                                byref(en)) != api.RC_OK:
            return None
        return ((ex.frame_address.address, ex.frame_flag),
                (en.frame_address.address, en.frame_flag))

    def task_kind(self, task):
        """explicit, implicit, or initial (an implicit task no task generated)."""
        kind = self._task_kind(task)
        if kind == "implicit" and self.generating_task(task) is None:
            return "initial"
        return kind

    def _task_kind(self, task):
        for name, kind in (("implicit-task-var", "implicit"), ("explicit-task-var", "explicit")):
            for scope in (api.SCOPE_TASK, api.SCOPE_IMPLICIT_TASK):
                v = self.icv_value(task.handle, scope, name)
                if v is not None:
                    if v:
                        return kind
                    if name == "explicit-task-var":
                        return "implicit"
        return "task"

    def task_chain(self, ot):
        """The tasks on ot's stack, innermost first: current, then each one it suspended."""
        chain = []
        t = self.curr_task(ot)
        while t is not None and t not in chain and len(chain) < 256:
            chain.append(t)
            t = self.scheduling_task(t)
        return chain

    def describe_function(self, addr):
        if not addr:
            return "?"
        name = symbolize(addr) or "0x%x" % addr
        src = source_of(addr)
        return "%s (%s)" % (name, src) if src else name

    # ---- ICVs -------------------------------------------------------------------------------
    def icvs(self):
        """[(id, name, scope)] as the library enumerates them."""
        if self._icvs is None:
            self._icvs = []
            cur = c_uint64(api.ICV_UNDEFINED)
            nid, name, scope, more = c_uint64(), ctypes.c_char_p(), c_int(), c_int(1)
            while more.value and len(self._icvs) < 512:
                if self.plugin.try_call("ompd_enumerate_icvs", V(self.ah), cur, byref(nid),
                                        byref(name), byref(scope), byref(more)) != api.RC_OK:
                    break
                self._icvs.append((nid.value, (name.value or b"?").decode(), scope.value))
                cur = c_uint64(nid.value)
        return self._icvs

    def icv_id(self, name):
        for i, n, s in self.icvs():
            if n == name:
                return i, s
        return None, None

    def icv_value(self, handle, scope, name):
        """The ICV's integer value at that scope, or None."""
        i, s = self.icv_id(name)
        if i is None:
            return None
        v = c_int64()
        if self.plugin.try_call("ompd_get_icv_from_scope", V(handle), c_int(scope), c_uint64(i),
                                byref(v)) != api.RC_OK:
            return None
        return v.value

    def icv_text(self, handle, scope, icv):
        """The ICV's value as text: the library's string, else its integer; None if neither."""
        p = V()
        if self.plugin.try_call("ompd_get_icv_string_from_scope", V(handle), c_int(scope),
                                c_uint64(icv), byref(p)) == api.RC_OK and p.value:
            s = ctypes.string_at(p.value).decode("utf-8", "replace")
            self.plugin.free(p.value)
            return s
        v = c_int64()
        rc = self.plugin.try_call("ompd_get_icv_from_scope", V(handle), c_int(scope),
                                  c_uint64(icv), byref(v))
        if rc == api.RC_OK:
            return str(v.value)
        return None
