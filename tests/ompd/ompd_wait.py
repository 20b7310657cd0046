# For the gdb tests (tests/scenarios/ompd_gdb*.sh): `ompd-test-wait STATE=N ...` continues the
# program (which stops itself again and again with SIGTRAP, see states.c) until `ompd threads`
# shows at least N threads in each STATE, then prints that table.  It gives up after 2000
# stops, and then fails the gdb script (an error in batch mode).
import gdb


class Wait(gdb.Command):
    """ompd-test-wait STATE=N ...: continue until ompd threads shows these states."""

    def __init__(self):
        super().__init__("ompd-test-wait", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        want = {}
        for w in arg.split():
            state, n = w.split("=")
            want[state] = int(n)
        text = ""
        for i in range(2000):
            text = gdb.execute("ompd threads", to_string=True)
            states = [line.split() for line in text.splitlines()[1:]]
            got = {}
            for row in states:
                for s in want:
                    if s in row:
                        got[s] = got.get(s, 0) + 1
            if all(got.get(s, 0) >= n for s, n in want.items()):
                gdb.write("ompd-test-wait: reached after %d stops\n" % (i + 1))
                gdb.write(text)
                return
            gdb.execute("continue", to_string=True)
        gdb.write(text)
        raise gdb.GdbError("ompd-test-wait: states %s not reached" % arg)


Wait()


class BtAll(gdb.Command):
    """ompd-test-bt-all: `ompd bt` of every OpenMP thread (gdb numbers threads differently
    in a kernel core: the thread that got the signal comes first)."""

    def __init__(self):
        super().__init__("ompd-test-bt-all", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        text = gdb.execute("ompd threads", to_string=True)
        for row in text.splitlines()[1:]:
            num = row.lstrip("* ").split()[0]
            gdb.write("== ompd bt of gdb thread %s\n" % num)
            gdb.execute("thread %s" % num, to_string=True)
            gdb.execute("ompd bt")


BtAll()


class ContinueUntil(gdb.Command):
    """ompd-test-continue-until REGEX: continue until a stop prints a line matching REGEX
    (at most 200 stops)."""

    def __init__(self):
        super().__init__("ompd-test-continue-until", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        import re
        for i in range(200):
            text = gdb.execute("continue", to_string=True)
            gdb.write(text)
            if re.search(arg, text, re.M):
                gdb.write("ompd-test-continue-until: reached after %d stops\n" % (i + 1))
                return
        raise gdb.GdbError("ompd-test-continue-until: /%s/ not seen" % arg)


ContinueUntil()
