"""The `ompd` commands of gdb."""

import ctypes

import gdb

from . import api
from .backtrace import backtrace
from .session import NotAvailable, dll_locations, has_process, is_core
from .view import View, critical_name, symbolize


def out(s):
    gdb.write(s)


def selected(view):
    """The selected gdb thread's OmpThread, or None."""
    t = gdb.selected_thread()
    for ot in view.threads:
        if t is not None and ot.gdb.global_num == t.global_num:
            return ot
    return None


def wait_text(view, state, wait_id):
    if not wait_id:
        return ""
    sym = symbolize(wait_id)
    name = critical_name(sym) if sym else None
    if name is not None:
        return "0x%x (critical %s)" % (wait_id, name)
    return "0x%x (%s)" % (wait_id, sym) if sym else "0x%x" % wait_id


class OmpdCommand(gdb.Command):
    """Inspect the OpenMP program in OpenMP terms (tomp's OMPD library).

ompd threads           every OpenMP thread: gdb thread, region and thread number, state, wait id
ompd parallel          the tree of active parallel regions, team sizes and their threads
ompd tasks             the tasks of each OpenMP thread: function, generating task, state
ompd icvs [SCOPE]      the ICVs in scope for the selected thread (SCOPE: global, thread,
                       parallel, task)
ompd bt                the selected thread's backtrace as the OpenMP program sees it
ompd break parallel|task   stop where a parallel region or a task begins (OMP_DEBUG=enabled)
ompd info              which OMPD library is loaded, and the runtime it serves"""

    def __init__(self):
        super().__init__("ompd", gdb.COMMAND_STATUS, prefix=True)

    def invoke(self, arg, from_tty):
        gdb.execute("help ompd", from_tty)


class Sub(gdb.Command):
    name = None

    def __init__(self):
        super().__init__("ompd " + self.name, gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        try:
            self.run(arg.strip())
        except NotAvailable as e:
            raise gdb.GdbError("ompd: %s" % e)
        except api.OmpdError as e:
            raise gdb.GdbError("ompd: %s" % e)
        except (gdb.GdbError, KeyboardInterrupt):
            raise
        except Exception as e:  # a target we cannot make sense of: say so, do not crash
            raise gdb.GdbError("ompd %s: %s: %s" % (self.name, type(e).__name__, e))


class Threads(Sub):
    """List every OpenMP thread with its region, thread number, state and wait id.
For each: gdb thread, LWP, innermost parallel region (number and level), thread number in
its team, state, and wait id (a lock's address and name, a named critical section's name)."""
    name = "threads"

    def run(self, arg):
        with View() as v:
            if not v.threads:
                out("No OpenMP threads.\n")
                return
            sel = selected(v)
            rows = [("", "gdb", "lwp", "region", "level", "thread", "state", "wait id")]
            for ot in v.threads:
                r = v.active_region(ot)
                st, wid = v.state(ot)
                num = v.thread_num(ot, r)
                rows.append(("*" if ot is sel else "", str(ot.gdb.num), str(ot.gdb.ptid[1]),
                             "#%d" % r.num if r else "-",
                             str(v.region_level(r)) if r else "-",
                             str(num) if r is not None and num is not None else "-",
                             v.state_name(st), wait_text(v, st, wid)))
            table(rows)


def table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        out(("  ".join(c.ljust(w) for c, w in zip(r, widths))).rstrip() + "\n")


class Parallel(Sub):
    """Show the tree of active parallel regions with their teams.
A nested region is shown under the one enclosing it, with its team size, its outlined body,
and each team member's gdb thread and state."""
    name = "parallel"

    def run(self, arg):
        with View() as v:
            roots = [r for r in v.regions if v.region_level(r) > 0 and
                     (r.parent is None or v.region_level(r.parent) == 0)]
            if not roots:
                out("No active parallel region.\n")
                return
            for r in roots:
                self.show(v, r, 0)

    def show(self, v, r, depth):
        pad = "  " * depth
        size = v.team_size(r)
        body = ""
        h = ctypes.c_void_p()
        if v.plugin.try_call("ompd_get_task_in_parallel", ctypes.c_void_p(r.handle),
                             ctypes.c_int(0), ctypes.byref(h)) == api.RC_OK and h.value:
            body = v.describe_function(v.task_function(v.task(h.value)))
        out("%sparallel region #%d: level %d, team of %s%s\n" % (
            pad, r.num, v.region_level(r), size if size is not None else "?",
            ", " + body if body else ""))
        for i, ot in v.region_threads(r):
            if ot is None:
                out("%s  thread %d: (not known to gdb)\n" % (pad, i))
                continue
            st, wid = v.state(ot)
            w = wait_text(v, st, wid)
            out("%s  thread %d: gdb thread %d (LWP %d), %s%s\n" % (
                pad, i, ot.gdb.num, ot.gdb.ptid[1], v.state_name(st), " " + w if w else ""))
        for c in r.children:
            self.show(v, c, depth + 1)


class Tasks(Sub):
    """List the tasks of each OpenMP thread: function, generating task, state.
Innermost first: the one it runs, then each it suspended to run it."""
    name = "tasks"

    def run(self, arg):
        with View() as v:
            shown = 0
            for ot in v.threads:
                chain = v.task_chain(ot)
                if not chain:
                    continue
                r = v.active_region(ot)
                num = v.thread_num(ot, r)
                st, _ = v.state(ot)
                out("gdb thread %d (LWP %d)%s, %s:\n" % (
                    ot.gdb.num, ot.gdb.ptid[1],
                    ", thread %s of region #%d" % (num, r.num) if r else "",
                    v.state_name(st)))
                for i, t in enumerate(chain):
                    self.show(v, t, "running" if i == 0 else "suspended")
                    shown += 1
            if not shown:
                out("No OpenMP tasks.\n")

    def show(self, v, t, state):
        g = v.generating_task(t)
        gen = ""
        if g is not None:
            gen = ", generated by task %d (%s)" % (g.num, v.describe_function(
                v.task_function(g)) if v.task_function(g) else v.task_kind(g))
        out("  task %d: %s, %s, %s%s\n" % (t.num, v.task_kind(t), state,
                                          v.describe_function(v.task_function(t)), gen))


SCOPES = {"global": (api.SCOPE_GLOBAL, api.SCOPE_ADDRESS_SPACE),
          "thread": (api.SCOPE_THREAD,),
          "parallel": (api.SCOPE_PARALLEL,),
          "task": (api.SCOPE_TASK, api.SCOPE_IMPLICIT_TASK)}


class Icvs(Sub):
    """Show the ICVs in scope for the selected thread: ompd icvs [global|thread|parallel|task].
Global ones, the thread's, its innermost parallel region's and its current task's; with a
scope, that scope's only."""
    name = "icvs"

    def run(self, arg):
        if arg and arg not in SCOPES:
            raise gdb.GdbError("ompd icvs: scope is one of %s" % ", ".join(SCOPES))
        with View() as v:
            ot = selected(v)
            handles = {api.SCOPE_GLOBAL: v.ah, api.SCOPE_ADDRESS_SPACE: v.ah}
            if ot is not None:
                handles[api.SCOPE_THREAD] = ot.handle
                r = v.curr_region(ot)
                if r is not None:
                    handles[api.SCOPE_PARALLEL] = r.handle
                t = v.curr_task(ot)
                if t is not None:
                    handles[api.SCOPE_TASK] = handles[api.SCOPE_IMPLICIT_TASK] = t.handle
            wanted = SCOPES[arg] if arg else tuple(s for ss in SCOPES.values() for s in ss)
            rows = [("scope", "name", "value")]
            for icv, name, scope in v.icvs():
                if scope not in wanted:
                    continue
                h = handles.get(scope)
                text = v.icv_text(h, scope, icv) if h is not None else None
                rows.append((api.SCOPE_NAMES.get(scope, str(scope)), name,
                             text if text is not None else "(unavailable)"))
            if ot is None and arg in ("thread", "parallel", "task"):
                out("(the selected thread is no OpenMP thread)\n")
            table(rows)


class Bt(Sub):
    """Show the selected thread's backtrace as the OpenMP program sees it.
The runtime's frames are left out (found with the task frames the runtime records), and a
worker's stack is continued where its region or task was created, down to main."""
    name = "bt"

    def run(self, arg):
        with View() as v:
            ot = selected(v)
            if ot is None:
                raise gdb.GdbError("ompd bt: the selected thread is no OpenMP thread")
            backtrace(v, ot, out)


def omp_debug_setting():
    """OMP_DEBUG in the inferior's environment: from /proc for a live process, else from
    gdb's environment for the next `run`; None when unset."""
    inf = gdb.selected_inferior()
    if inf.pid and not is_core():
        try:
            with open("/proc/%d/environ" % inf.pid, "rb") as f:
                for kv in f.read().split(b"\0"):
                    if kv.startswith(b"OMP_DEBUG="):
                        return kv[len(b"OMP_DEBUG="):].decode()
            return None
        except OSError:
            pass
    try:
        s = gdb.execute("show environment OMP_DEBUG", to_string=True).strip()
    except gdb.error:
        return None
    if "not defined" in s:
        return None
    return s.split("=", 1)[1].strip() if "=" in s else None


class BeginBreakpoint(gdb.Breakpoint):
    def __init__(self, what):
        super().__init__("ompd_bp_%s_begin" % what)
        self.what = what

    def stop(self):
        try:
            with View() as v:
                ot = selected(v)
                if ot is None:
                    return True
                if self.what == "parallel":
                    # OpenMP 5.2 binds the breakpoint to the region that begins (current
                    # region) and its encountering task (current task)
                    r = v.active_region(ot)
                    body = ""
                    if r is not None:
                        h = ctypes.c_void_p()
                        if v.plugin.try_call("ompd_get_task_in_parallel",
                                             ctypes.c_void_p(r.handle), ctypes.c_int(0),
                                             ctypes.byref(h)) == api.RC_OK and h.value:
                            body = v.describe_function(v.task_function(v.task(h.value)))
                    out("OpenMP parallel region #%s begins on gdb thread %d: level %s, "
                        "team of %s%s\n" % (
                            r.num if r else "?", ot.gdb.num, v.region_level(r) if r else "?",
                            v.team_size(r) if r else "?", ", " + body if body else ""))
                else:
                    t = v.curr_task(ot)
                    out("OpenMP task begins: %s task, %s\n" % (
                        v.task_kind(t) if t else "?",
                        v.describe_function(v.task_function(t)) if t else "?"))
        except (NotAvailable, api.OmpdError, gdb.error) as e:
            out("ompd: %s\n" % e)
        return True


class Break(Sub):
    """Stop when a parallel region or a task begins: ompd break parallel|task.
A breakpoint on the runtime's ompd_bp_parallel_begin / ompd_bp_task_begin, which tomp calls
only when the program runs with OMP_DEBUG=enabled."""
    name = "break"

    def run(self, arg):
        if arg not in ("parallel", "task"):
            raise gdb.GdbError("usage: ompd break parallel|task")
        if has_process() and is_core():
            raise gdb.GdbError("ompd break: a core file cannot run; breakpoints need a process")
        setting = omp_debug_setting()
        if setting != "enabled":
            out("warning: OMP_DEBUG is %s in the program's environment: tomp calls "
                "ompd_bp_%s_begin only with OMP_DEBUG=enabled, so this breakpoint will not "
                "be hit.  Use `set environment OMP_DEBUG enabled` and run the program again.\n"
                % ("'%s'" % setting if setting is not None else "not set", arg))
        b = BeginBreakpoint(arg)
        out("Breakpoint %d: OpenMP %s begin (ompd_bp_%s_begin)\n" % (b.number, arg, arg))


class Info(Sub):
    """Show which OMPD library is loaded and what the runtime says about itself."""
    name = "info"

    def run(self, arg):
        if not has_process():
            raise gdb.GdbError("ompd info: no process")
        names = dll_locations()
        if names is None:
            out("This process does not run on tomp (no ompd_dll_locations).\n")
            return
        out("ompd_dll_locations: %s\n" % (", ".join(names) or "NULL (not set yet)"))
        with View() as v:
            out("OMPD library: %s\n" % v.plugin.path)
            s = ctypes.c_char_p()
            if v.plugin.try_call("ompd_get_omp_version_string", ctypes.c_void_p(v.ah),
                                 ctypes.byref(s)) == api.RC_OK and s.value:
                out("runtime: %s\n" % s.value.decode())
            out("OpenMP threads: %d\n" % len(v.threads))
            out("OMP_DEBUG: %s\n" % (omp_debug_setting() or "not set"))


def register():
    OmpdCommand()
    for c in (Threads, Parallel, Tasks, Icvs, Bt, Break, Info):
        c()

