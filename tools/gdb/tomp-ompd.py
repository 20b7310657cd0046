# tomp's OMPD support for gdb: `source` this file (or let gdb auto-load it beside libtomp),
# then `help ompd`.  The package tomp_ompd sits beside this file.
import os
import sys

_here = os.path.dirname(os.path.realpath(__file__))
if _here not in sys.path:
    sys.path.insert(0, _here)

import tomp_ompd  # noqa: E402

tomp_ompd.setup()
