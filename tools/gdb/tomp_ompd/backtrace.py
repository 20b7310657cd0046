"""`ompd bt`: the backtrace of the selected thread as the OpenMP program sees it.

The runtime records, for each task, two frames (ompd_get_task_frame; OMPT's ompt_frame_t):
its exit frame, the runtime frame that called the task's body, and its enter frame, the
runtime frame the task's code called into.  Both are runtime frames given by their frame
pointer (or their canonical frame address, CFA, as the flags say).  So the frames of a task's
own code are those newer than its exit frame and older than its enter frame, and the stack of
a thread reads, newest first: [runtime] task 0 [runtime] task 1 ... where each task is the one
the task above it suspended.  The frames are matched by CFA, which gdb gives for every frame
(the stack pointer its caller had), whatever the code was compiled with.

Below the last task of a worker there is only the runtime's thread start; the call path
continues where that task's region (or the task) was created: the generating task's frames,
on the thread that runs it, and so on down to main.  Without recorded frames (the runtime
records them while a tool or debugger listens: OMP_DEBUG=enabled) the runtime's frames are
recognised by the library they are in instead.
"""

import ctypes
import os

import gdb

from . import api
from .target import symbol_address
from .view import symbolize

WORD = 8


def runtime_library():
    """The file of the loaded library that is the runtime: the one defining
    ompd_dll_locations_valid (whatever it is called: libgomp.so.1, libomp.so.5, a copy)."""
    addr = symbol_address("ompd_dll_locations_valid")
    try:
        lib = gdb.solib_name(addr) if addr is not None else None
    except Exception:
        lib = None
    return os.path.realpath(lib) if lib else None


def is_runtime_pc(pc, runtime):
    try:
        lib = gdb.solib_name(pc)
    except Exception:
        return False
    return bool(lib) and os.path.realpath(lib) == runtime


def is_system_pc(pc):
    """In the C library or the dynamic loader (which the runtime calls to wait)."""
    try:
        lib = gdb.solib_name(pc)
    except Exception:
        return False
    base = os.path.basename(lib or "")
    return base.startswith(("libc.so", "libc-", "libpthread", "ld-linux"))


class FrameRec:
    __slots__ = ("pc", "cfa", "name", "text", "runtime", "system", "where")


def read_frames(gdb_thread, limit=512):
    """The thread's frames, newest first, with the CFA of each (None: the outermost)."""
    cur = gdb.selected_thread()
    try:
        old_frame = gdb.selected_frame()
    except gdb.error:
        old_frame = None
    gdb_thread.switch()
    frames = []
    try:
        f = gdb.newest_frame()
        while f is not None and len(frames) < limit:
            frames.append(f)
            try:
                f = f.older()
            except gdb.error:
                break
        recs = []
        sps = []
        for f in frames:
            try:
                sps.append(int(f.read_register("rsp")))
            except (gdb.error, ValueError):
                sps.append(None)
        n = len(frames)
        kinds = [f.type() for f in frames]
        # a real frame's CFA is the stack pointer its caller has (the next frame's, whatever
        # kind that is); a tail caller has no frame of its own and returns where the
        # function it jumped to returns (the newer frame's CFA); an inline frame is part of
        # the frame it is inlined into (the next older one)
        cfa = [None] * n
        for i in range(n):
            if kinds[i] not in (gdb.INLINE_FRAME, gdb.TAILCALL_FRAME) and i + 1 < n:
                cfa[i] = sps[i + 1]
        for i in range(n):
            if kinds[i] == gdb.TAILCALL_FRAME and i > 0:
                cfa[i] = cfa[i - 1]
        for i in reversed(range(n)):
            if kinds[i] == gdb.INLINE_FRAME and i + 1 < n:
                cfa[i] = cfa[i + 1]
        runtime = runtime_library()
        for i, f in enumerate(frames):
            r = FrameRec()
            r.where = (gdb_thread.num, i)  # gdb's thread and frame numbers
            r.pc = f.pc()
            r.cfa = cfa[i]
            r.name = f.name() or symbolize(r.pc) or "??"
            r.text = describe_frame(f)
            r.runtime = is_runtime_pc(r.pc, runtime)
            r.system = is_system_pc(r.pc)
            recs.append(r)
        return recs
    finally:
        if cur is not None and cur.is_valid():
            cur.switch()
        if old_frame is not None and old_frame.is_valid():
            old_frame.select()


def frame_args(f):
    """name=value, ... of the frame's function arguments, as far as gdb can read them."""
    try:
        block = f.block()
    except RuntimeError:
        return ""
    while block is not None and block.function is None:
        block = block.superblock
    if block is None:
        return ""
    out = []
    for sym in block:
        if sym.is_argument:
            try:
                out.append("%s=%s" % (sym.print_name, sym.value(f)))
            except (gdb.error, TypeError, ValueError):
                out.append("%s=?" % sym.print_name)
    return ", ".join(out)


def describe_frame(f):
    name = f.name() or symbolize(f.pc()) or "??"
    try:
        sal = f.find_sal()
    except gdb.error:
        sal = None
    if sal is not None and sal.symtab is not None:
        return "%s (%s) at %s:%d" % (name, frame_args(f), sal.symtab.filename, sal.line)
    lib = gdb.solib_name(f.pc())
    pc = "0x%016x in " % f.pc()
    return pc + name + (" () from %s" % lib if lib else " ()")


def runtime_top(frames):
    """How many of the newest frames are the runtime's: up to the last runtime frame before
    the first frame that is neither the runtime's nor the C library's (which the runtime
    calls to wait, and the program calls too)."""
    top = 0
    for i, r in enumerate(frames):
        if r.runtime:
            top = i + 1
        elif not r.system:
            break
    return top


def called_from(rec):
    """The function a frame's call instruction names (the runtime's entry point, which may
    have tail-called the function on the stack), from the 5-byte direct call before its
    return address; None when it is not one."""
    try:
        arch = gdb.selected_inferior().architecture()
        insn = arch.disassemble(rec.pc - 5, count=1)[0]
    except Exception:
        return None
    asm = insn["asm"]
    if insn["addr"] + insn["length"] != rec.pc or not asm.startswith("call") or "<" not in asm:
        return None
    name = asm[asm.index("<") + 1:].rstrip(">").split("+")[0]
    return name.split("@")[0]


def boundary(frame_info):
    """The CFA bound a recorded frame gives, None when unset (see the module's comment)."""
    addr, flags = frame_info
    if not addr:
        return None
    # a frame pointer is the CFA less the return address and the saved frame pointer
    return addr + 2 * WORD if flags & api.FRAME_FRAMEPOINTER else addr


def older_than(cfa, bound):
    return cfa is None or cfa > bound


class Backtrace:
    def __init__(self, view, out):
        self.view = view
        self.out = out
        self.n = 0
        self.sps = None

    def emit(self, rec):
        # gdb's numbers too, for `frame N` (and `thread N` for another thread's frames)
        thread, level = rec.where
        where = "frame %d" % level if thread == self.thread else \
            "thread %d frame %d" % (thread, level)
        self.out("#%-3d %s  [%s]\n" % (self.n, rec.text, where))
        self.n += 1

    def note(self, text):
        self.out("    [%s]\n" % text)

    def thread_sp(self, ot):
        if self.sps is None:
            self.sps = {}
            cur = gdb.selected_thread()
            for o in self.view.threads:
                try:
                    o.gdb.switch()
                    self.sps[o.gdb.global_num] = int(gdb.newest_frame().read_register("rsp"))
                except gdb.error:
                    pass
            if cur is not None:
                cur.switch()
        return self.sps.get(ot.gdb.global_num)

    def stack_owner(self, addr):
        """The OpenMP thread whose stack holds addr: the one with the highest stack pointer
        at or below it (stacks are disjoint)."""
        best, best_sp = None, None
        for o in self.view.threads:
            sp = self.thread_sp(o)
            if sp is not None and sp <= addr and (best_sp is None or sp > best_sp):
                best, best_sp = o, sp
        return best

    def chain_from(self, ot, first):
        """Tasks on ot's stack from first down: each next one is the task it suspended (its
        scheduling task), or for an implicit or included task its generating task when that
        one's frames are on the same stack."""
        chain, t = [], first
        while t is not None and t not in chain and len(chain) < 256:
            chain.append(t)
            nxt = self.view.scheduling_task(t)
            if nxt is None:
                g = self.view.generating_task(t)
                fr = self.view.task_frames(g) if g is not None else None
                addr = fr and (fr[1][0] or fr[0][0])
                if addr and self.stack_owner(addr) is ot:
                    nxt = g
            t = nxt
        return chain

    def run(self, ot):
        self.thread = ot.gdb.num
        chain = self.chain_from(ot, self.view.curr_task(ot))
        recorded = any(fr and (fr[0][0] or fr[1][0])
                       for fr in (self.view.task_frames(t) for t in chain))
        if not chain or not recorded:
            self.fallback(ot, chain)
            return
        self.walk(ot, chain, depth=0)

    def fallback(self, ot, chain):
        frames = read_frames(ot.gdb)
        if not chain:
            self.note("no OpenMP task on this thread: runtime frames left out by library")
            for r in frames[runtime_top(frames):]:
                if not r.runtime:
                    self.emit(r)
            return
        self.note("the runtime recorded no task frames (it does with OMP_DEBUG=enabled): "
                  "runtime frames left out by library")
        self.fallback_walk(ot, frames, runtime_top(frames), chain[-1], 0)

    def fallback_walk(self, ot, frames, k, last, depth):
        """Without task frames: ot's frames from k on, less the runtime's; when the thread
        began in the runtime (a worker), go on where last's region was created: on the
        region's primary thread, below the frame of the region's outlined body, the one
        the runtime called."""
        end = len(frames)
        while end > k and (frames[end - 1].runtime or frames[end - 1].system):
            end -= 1
        for r in frames[k:end]:
            if not r.runtime:
                self.emit(r)
        if end == len(frames) or depth > 16:
            return  # the stack ends in the program's own frames (main)
        region = self.view.task_region(last)
        gen = self.view.generating_task(last)
        body = symbolize(self.view.task_function(last) or 0)
        if region is None or gen is None or not body:
            return
        h = ctypes.c_void_p()
        if self.view.plugin.try_call("ompd_get_thread_in_parallel", ctypes.c_void_p(
                region.handle), ctypes.c_int(0), ctypes.byref(h)) != api.RC_OK or not h.value:
            return
        master = self.view.gdb_thread_of(h.value)
        self.view.plugin.try_call("ompd_rel_thread_handle", ctypes.c_void_p(h.value))
        if master is None or master is ot:
            return
        mframes = read_frames(master.gdb)
        for i in range(len(mframes) - 1):
            if mframes[i].name == body and mframes[i + 1].runtime:
                break
        else:
            return
        j = i + 1
        while j < len(mframes) and mframes[j].runtime:
            j += 1
        self.note("parallel region #%d was created on gdb thread %d, in:" % (region.num,
                                                                           master.gdb.num))
        entry = called_from(mframes[j]) if j < len(mframes) else None
        if entry:
            self.note("OpenMP runtime: %s" % entry)
        self.fallback_walk(master, mframes, j, gen, depth + 1)

    def walk(self, ot, chain, depth):
        frames = read_frames(ot.gdb)
        k = 0
        last = None
        for i, task in enumerate(chain):
            fr = self.view.task_frames(task) or ((0, 0), (0, 0))
            b_exit, b_enter = boundary(fr[0]), boundary(fr[1])
            # runtime frames the task called into (enter frame and newer)
            skipped = []
            if b_enter is not None:
                while k < len(frames) and not older_than(frames[k].cfa, b_enter):
                    skipped.append(frames[k])
                    k += 1
            elif i > 0:
                while k < len(frames) and frames[k].runtime:
                    skipped.append(frames[k])
                    k += 1
            else:
                # no enter frame: the thread may still be in the runtime on its way to or
                # from the task's body (say at a breakpoint function)
                top = runtime_top(frames)
                skipped, k = frames[:top], top
            if skipped:
                entry = called_from(frames[k]) if k < len(frames) else None
                entry = entry or skipped[-1].name
                self.note("OpenMP runtime: %s" % entry if i == 0 else
                          "OpenMP runtime: %s, a task scheduling point that runs the task "
                          "above" % entry if self.view.task_kind(chain[i - 1]) == "explicit"
                          else "OpenMP runtime: %s, which runs the region above" % entry)
            # the task's own frames (older than its enter frame, newer than its exit frame),
            # less a front-end's frames that call the compiler's outlined function (clang's
            # microtask and task routine have their own signatures): the runtime's library
            while k < len(frames) and (b_exit is None or
                                       (frames[k].cfa is not None and frames[k].cfa < b_exit)):
                if not frames[k].runtime:
                    self.emit(frames[k])
                k += 1
            last = task
            if b_exit is None:
                return  # an initial task: main and what called it are below
        # below the last task: the runtime's thread start; continue where it was created
        if depth > 16 or last is None:
            return
        gen = self.view.generating_task(last)
        fr = self.view.task_frames(gen) if gen is not None else None
        addr = fr and (fr[1][0] or fr[0][0])
        owner = self.stack_owner(addr) if addr else None
        if owner is None or owner is ot:
            rest = [r for r in frames[k:] if not r.runtime]
            for r in rest:
                self.emit(r)
            return
        region = self.view.task_region(last)
        what = "parallel region #%d" % region.num if region is not None and \
            self.view.task_kind(last) != "explicit" else "the task"
        self.note("%s was created on gdb thread %d, in:" % (what, owner.gdb.num))
        self.walk(owner, self.chain_from(owner, gen), depth + 1)


def backtrace(view, ot, out):
    Backtrace(view, out).run(ot)
