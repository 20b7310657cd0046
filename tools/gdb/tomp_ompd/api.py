"""The OMPD API of OpenMP 5.2 (host device only) as ctypes declarations.

Types and values are the specification's (omp-tools.h); nothing here knows tomp.  A Plugin
wraps one loaded OMPD library: its entry points take and return Python values and raise
OmpdError with the return code's name when a call does not answer ompd_rc_ok.
"""

import ctypes
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int, c_int64, c_uint8,
                    c_uint64, c_void_p)

# ompd_rc_t
RC_NAMES = ["ok", "unavailable", "stale_handle", "bad_input", "error", "unsupported",
            "needs_state_tracking", "incompatible", "device_read_error",
            "device_write_error", "nomem", "incomplete", "callback_error"]
RC_OK, RC_UNAVAILABLE, RC_STALE, RC_BAD_INPUT, RC_ERROR, RC_UNSUPPORTED = range(6)
RC_INCOMPATIBLE = 7
RC_DEVICE_READ_ERROR = 8
RC_DEVICE_WRITE_ERROR = 9
RC_NOMEM = 10
RC_INCOMPLETE = 11
RC_CALLBACK_ERROR = 12

# ompd_scope_t
SCOPE_GLOBAL, SCOPE_ADDRESS_SPACE, SCOPE_THREAD, SCOPE_PARALLEL, SCOPE_IMPLICIT_TASK, \
    SCOPE_TASK = range(1, 7)
SCOPE_NAMES = {SCOPE_GLOBAL: "global", SCOPE_ADDRESS_SPACE: "address_space",
               SCOPE_THREAD: "thread", SCOPE_PARALLEL: "parallel",
               SCOPE_IMPLICIT_TASK: "implicit_task", SCOPE_TASK: "task"}

# Thread identifier kinds (OpenMP Additional Definitions: 0 pthread_t, 1 the OS's lwp id)
THREAD_ID_PTHREAD = 0
THREAD_ID_LWP = 1

# ompd_icv_undefined and ompt_state_undefined start the enumerations
ICV_UNDEFINED = 0
STATE_UNDEFINED = 0x102

# ompt_frame_flag_t: which address a frame gives
FRAME_CFA = 0x10
FRAME_FRAMEPOINTER = 0x20

API_VERSION_5_1 = 201811  # the highest OMPD API version of 5.1 and 5.2 (ompd_get_api_version)

rc_t = c_int
word_t = c_int64
size_t = c_uint64
handle_p = c_void_p  # every handle and context is opaque


class Address(Structure):
    _fields_ = [("segment", c_uint64), ("address", c_uint64)]


class FrameInfo(Structure):
    _fields_ = [("frame_address", Address), ("frame_flag", word_t)]


class TypeSizes(Structure):
    _fields_ = [("sizeof_char", c_uint8), ("sizeof_short", c_uint8), ("sizeof_int", c_uint8),
                ("sizeof_long", c_uint8), ("sizeof_long_long", c_uint8),
                ("sizeof_pointer", c_uint8)]


ALLOC_FN = CFUNCTYPE(rc_t, size_t, POINTER(c_void_p))
FREE_FN = CFUNCTYPE(rc_t, c_void_p)
PRINT_FN = CFUNCTYPE(rc_t, c_char_p, c_int)
SIZEOF_FN = CFUNCTYPE(rc_t, handle_p, POINTER(TypeSizes))
SYMBOL_FN = CFUNCTYPE(rc_t, handle_p, handle_p, c_char_p, POINTER(Address), c_char_p)
READ_FN = CFUNCTYPE(rc_t, handle_p, handle_p, POINTER(Address), size_t, c_void_p)
WRITE_FN = CFUNCTYPE(rc_t, handle_p, handle_p, POINTER(Address), size_t, c_void_p)
CONVERT_FN = CFUNCTYPE(rc_t, handle_p, c_void_p, size_t, size_t, c_void_p)
THREAD_CONTEXT_FN = CFUNCTYPE(rc_t, handle_p, c_uint64, size_t, c_void_p, POINTER(c_void_p))


class Callbacks(Structure):
    # ompd_callbacks_t, in the specification's order
    _fields_ = [("alloc_memory", ALLOC_FN), ("free_memory", FREE_FN),
                ("print_string", PRINT_FN), ("sizeof_type", SIZEOF_FN),
                ("symbol_addr_lookup", SYMBOL_FN), ("read_memory", READ_FN),
                ("write_memory", WRITE_FN), ("read_string", READ_FN),
                ("device_to_host", CONVERT_FN), ("host_to_device", CONVERT_FN),
                ("get_thread_context_for_thread_id", THREAD_CONTEXT_FN)]


class OmpdError(Exception):
    def __init__(self, func, rc):
        self.func = func
        self.rc = rc
        name = RC_NAMES[rc] if 0 <= rc < len(RC_NAMES) else "rc %d" % rc
        self.rc_name = name
        super().__init__("%s: ompd_rc_%s" % (func, name))


P = POINTER
# name: (argument types); every entry point returns ompd_rc_t
PROTOTYPES = {
    "ompd_initialize": (word_t, P(Callbacks)),
    "ompd_get_api_version": (P(word_t),),
    "ompd_get_version_string": (P(c_char_p),),
    "ompd_finalize": (),
    "ompd_process_initialize": (handle_p, P(handle_p)),
    "ompd_rel_address_space_handle": (handle_p,),
    "ompd_get_omp_version": (handle_p, P(word_t)),
    "ompd_get_omp_version_string": (handle_p, P(c_char_p)),
    "ompd_get_thread_in_parallel": (handle_p, c_int, P(handle_p)),
    "ompd_get_thread_handle": (handle_p, c_uint64, size_t, c_void_p, P(handle_p)),
    "ompd_rel_thread_handle": (handle_p,),
    "ompd_thread_handle_compare": (handle_p, handle_p, P(c_int)),
    "ompd_get_thread_id": (handle_p, c_uint64, size_t, c_void_p),
    "ompd_get_curr_parallel_handle": (handle_p, P(handle_p)),
    "ompd_get_enclosing_parallel_handle": (handle_p, P(handle_p)),
    "ompd_get_task_parallel_handle": (handle_p, P(handle_p)),
    "ompd_rel_parallel_handle": (handle_p,),
    "ompd_parallel_handle_compare": (handle_p, handle_p, P(c_int)),
    "ompd_get_curr_task_handle": (handle_p, P(handle_p)),
    "ompd_get_generating_task_handle": (handle_p, P(handle_p)),
    "ompd_get_scheduling_task_handle": (handle_p, P(handle_p)),
    "ompd_get_task_in_parallel": (handle_p, c_int, P(handle_p)),
    "ompd_rel_task_handle": (handle_p,),
    "ompd_task_handle_compare": (handle_p, handle_p, P(c_int)),
    "ompd_get_task_function": (handle_p, P(Address)),
    "ompd_get_task_frame": (handle_p, P(FrameInfo), P(FrameInfo)),
    "ompd_enumerate_states": (handle_p, word_t, P(word_t), P(c_char_p), P(word_t)),
    "ompd_get_state": (handle_p, P(word_t), P(c_uint64)),
    "ompd_enumerate_icvs": (handle_p, c_uint64, P(c_uint64), P(c_char_p), P(c_int), P(c_int)),
    "ompd_get_icv_from_scope": (handle_p, c_int, c_uint64, P(word_t)),
    "ompd_get_icv_string_from_scope": (handle_p, c_int, c_uint64, P(c_void_p)),
    "ompd_get_display_control_vars": (handle_p, P(P(c_char_p))),
    "ompd_rel_display_control_vars": (P(P(c_char_p)),),
}


class Plugin:
    """One OMPD library, loaded and initialised with the given callbacks."""

    def __init__(self, path):
        self.path = path
        self.lib = ctypes.CDLL(path)
        missing = []
        for name, args in PROTOTYPES.items():
            try:
                fn = getattr(self.lib, name)
            except AttributeError:
                missing.append(name)
                continue
            fn.argtypes = args
            fn.restype = rc_t
        if "ompd_initialize" in missing or "ompd_process_initialize" in missing:
            raise OSError("%s is not an OMPD library (no ompd_initialize)" % path)
        self.missing = missing
        self.libc = ctypes.CDLL(None)
        self.libc.free.argtypes = [c_void_p]

    def call(self, name, *args):
        """Call an entry point; raise OmpdError unless it answers ompd_rc_ok."""
        fn = getattr(self.lib, name, None)
        if fn is None:
            raise OmpdError(name, RC_UNSUPPORTED)
        rc = fn(*args)
        if rc != RC_OK:
            raise OmpdError(name, rc)

    def try_call(self, name, *args):
        """Call an entry point; return its return code."""
        try:
            self.call(name, *args)
            return RC_OK
        except OmpdError as e:
            return e.rc

    def free(self, ptr):
        # strings the library allocated through alloc_memory (our malloc) are ours to free
        if ptr:
            self.libc.free(ptr)
