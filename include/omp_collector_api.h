/* The OpenMP Collector API (OpenMP ARB white paper, Sun Microsystems, 2007), as tomp
 * implements it.  The names and numbers below are the white paper's; they are persistent
 * across releases.  See docs/collector-api.md for what tomp supports.
 *
 * A collector finds the runtime with dlsym(RTLD_DEFAULT, OMP_COLLECTOR_API) and calls it with
 * a buffer of request records, each
 *
 *   int sz;    record length in bytes, header included (a multiple of 4, at least 16)
 *   int r;     request (OMP_COLLECTORAPI_REQUEST)
 *   int ec;    error code written back by the runtime (OMP_COLLECTORAPI_EC)
 *   int rsz;   size of the reply written to mem (or, on OMP_ERRCODE_MEM_TOO_SMALL, needed)
 *   char mem[sz - 16];  arguments and reply
 *
 * one after the other, the list ending with an int 0.  The call returns 0 when every record
 * was processed (even if some got an error code), -1 when the list was malformed. */
#ifndef _OMP_COLLECTOR_API_H
#define _OMP_COLLECTOR_API_H

#ifdef __cplusplus
extern "C" {
#endif

#define OMP_COLLECTOR_API "__omp_collector_api"

int __omp_collector_api(void *arg);

/* The fixed part of every record. */
#define OMP_COLLECTORAPI_HEADERSIZE 16

typedef enum {
  OMP_REQ_START = 0,
  OMP_REQ_REGISTER = 1,   /* mem: int event, then void (*)(OMP_COLLECTORAPI_EVENT) */
  OMP_REQ_UNREGISTER = 2, /* mem: int event */
  OMP_REQ_STATE = 3,      /* reply: int state, then the 8-byte wait id (async-signal-safe) */
  OMP_REQ_CURRENT_PRID = 4, /* reply: uint64_t region id (async-signal-safe) */
  OMP_REQ_PARENT_PRID = 5,  /* reply: uint64_t region id (async-signal-safe in tomp) */
  OMP_REQ_STOP = 6,
  OMP_REQ_PAUSE = 7,
  OMP_REQ_RESUME = 8,
  OMP_REQ_LAST
} OMP_COLLECTORAPI_REQUEST;

typedef enum {
  OMP_ERRCODE_OK = 0,
  OMP_ERRCODE_ERROR = 1,         /* malformed request */
  OMP_ERRCODE_UNKNOWN = 2,       /* unknown request or event */
  OMP_ERRCODE_UNSUPPORTED = 3,   /* known, not supported */
  OMP_ERRCODE_SEQUENCE_ERR = 4,  /* before OMP_REQ_START, after OMP_REQ_STOP, START twice */
  OMP_ERRCODE_OBSOLETE = 5,
  OMP_ERRCODE_THREAD_ERR = 6,    /* not available on the calling thread */
  OMP_ERRCODE_MEM_TOO_SMALL = 7, /* rsz holds the size needed */
  OMP_ERRCODE_LAST
} OMP_COLLECTORAPI_EC;

typedef enum {
  OMP_EVENT_FORK = 1,
  OMP_EVENT_JOIN = 2,
  OMP_EVENT_THR_BEGIN_IDLE = 3,
  OMP_EVENT_THR_END_IDLE = 4,
  OMP_EVENT_THR_BEGIN_IBAR = 5,
  OMP_EVENT_THR_END_IBAR = 6,
  OMP_EVENT_THR_BEGIN_EBAR = 7,
  OMP_EVENT_THR_END_EBAR = 8,
  OMP_EVENT_THR_BEGIN_LKWT = 9,
  OMP_EVENT_THR_END_LKWT = 10,
  OMP_EVENT_THR_BEGIN_CTWT = 11,
  OMP_EVENT_THR_END_CTWT = 12,
  OMP_EVENT_THR_BEGIN_ODWT = 13,
  OMP_EVENT_THR_END_ODWT = 14,
  OMP_EVENT_THR_BEGIN_MASTER = 15,
  OMP_EVENT_THR_END_MASTER = 16,
  OMP_EVENT_THR_BEGIN_SINGLE = 17,
  OMP_EVENT_THR_END_SINGLE = 18,
  OMP_EVENT_THR_BEGIN_ORDERED = 19,
  OMP_EVENT_THR_END_ORDERED = 20,
  OMP_EVENT_THR_BEGIN_ATWT = 21,
  OMP_EVENT_THR_END_ATWT = 22,
  OMP_EVENT_THR_RESERVED_IMPL = 4096,
  OMP_EVENT_LAST
} OMP_COLLECTORAPI_EVENT;

typedef enum {
  THR_OVHD_STATE = 1,
  THR_WORK_STATE = 2,
  THR_IBAR_STATE = 3,
  THR_EBAR_STATE = 4,
  THR_IDLE_STATE = 5,
  THR_SERIAL_STATE = 6,
  THR_REDUC_STATE = 7,
  THR_LKWT_STATE = 8,
  THR_CTWT_STATE = 9,
  THR_ODWT_STATE = 10,
  THR_ATWT_STATE = 11,
  THR_LAST_STATE
} OMP_COLLECTOR_API_THR_STATE;

typedef void (*omp_collector_callback_t)(OMP_COLLECTORAPI_EVENT);

#ifdef __cplusplus
}
#endif

#endif
