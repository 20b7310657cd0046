/* tomp-prof report internals: how load.c, model.c, symbolize.c, stacks.c and blame.c build a
 * tp_profile_t from data files.  Views never include this header: they read profile.h only. */
#ifndef TP_REP_H
#define TP_REP_H

#include <stddef.h>
#include <stdint.h>

/* tp-format.h and profile.h both name a struct tp_event (the on-disk trace record and the
 * model's slice); inside the report the on-disk one is tp_rec_event_t. */
#define tp_event tp_rec_event
#define tp_event_t tp_rec_event_t
#include "tp-format.h"
#undef tp_event
#undef tp_event_t
#include "profile.h"

/* ---- memory (model.c): the report stops with a message when memory runs out ---- */
void *rep_alloc(size_t n); /* zeroed */
void *rep_grow(void *p, size_t *cap, size_t need, size_t elem);

/* ---- the profile under construction (model.c) ----
 * Strings, locations and stacks are interned; everything the profile points to lives in an
 * arena owned by the profile (tp_profile_free releases it). */
typedef struct rep_model rep_model_t;
rep_model_t *rep_model_new(tp_profile_t *p);
void rep_model_done(rep_model_t *m); /* frees the lookup tables, not the profile */
tp_profile_t *rep_profile(rep_model_t *m);
const char *rep_str(rep_model_t *m, const char *s); /* interned copy; NULL stays NULL */
void *rep_arena(rep_model_t *m, size_t n);          /* zeroed, lives as long as the profile */
uint32_t rep_loc(rep_model_t *m, const char *func, const char *file, uint32_t line, uint32_t kind,
                 const char *module, uint64_t addr);
uint32_t rep_omp_loc(rep_model_t *m, const char *name); /* a synthetic TP_LOC_OMP frame */
tp_stack_t *rep_stack(rep_model_t *m, uint32_t proc, uint32_t thread, const uint32_t *locs,
                      uint32_t depth);

/* ---- symbolization (symbolize.c), one per process ---- */
enum {
  REP_CL_USER,    /* the program and its own libraries */
  REP_CL_RUNTIME, /* the OpenMP runtime: libgomp.so*, libtomp.so*, libomp.so*, libiomp5.so */
  REP_CL_TOOL,    /* libtomp-prof.so */
  REP_CL_SYSTEM,  /* libc, the dynamic loader, libgcc_s, vdso, _start: never a user root */
  REP_CL_UNKNOWN, /* no mapping covers the address */
  REP_CL_MPI,     /* the MPI library (libmpi*, Open MPI's libopen-pal, mca_* components, MPICH,
                     PMIx, UCX, libfabric) or a function named MPI_* / PMPI_* */
};
typedef struct rep_sym rep_sym_t;
rep_sym_t *rep_sym_new(rep_model_t *m, const char *maps, size_t len);
void rep_sym_free(rep_sym_t *s);
/* addr is the address to look up: the pc of an exact leaf, return address - 1 otherwise */
uint32_t rep_sym_loc(rep_sym_t *s, uint64_t addr);
int rep_sym_class(rep_sym_t *s, uint64_t addr);
/* Whether addr is in the program's executable (the first mapped code): inside an MPI call,
 * only such a frame (a user's reduction operator called back) is the program's work again. */
int rep_sym_in_program(rep_sym_t *s, uint64_t addr);
/* The frames of addr with inlined calls expanded, root first (the symbol's function, then
 * each inlined function at the line of the call below it; the last at addr's line); one
 * location (rep_sym_loc's) where nothing is inlined.  The array lives with the profile. */
uint32_t rep_sym_chain(rep_sym_t *s, uint64_t addr, const uint32_t **chain);

/* ---- one data file as read (load.c) ---- */
typedef struct rep_ctx {
  const tp_context_t *rec;
  const uint32_t *locs; /* user-model stack of the context, root first (stacks.c) */
  uint32_t depth;
  int state;            /* 0 not built, 1 being built (cycle guard), 2 built */
  uint32_t body;        /* the construct's location (`omp parallel @ file:line`), +1; 0 unset */
} rep_ctx_t;

typedef struct rep_file {
  const char *path;
  char *buf;
  size_t len;
  uint32_t proc;         /* index into the profile's procs */
  const tp_header_t *hdr;
  const tp_end_t *end;
  const tp_maps_t *maps;
  const tp_counters_rec_t *counters; /* NULL: none asked for */
  int truncated;         /* the last record was cut short */
  uint32_t *thread_map;  /* tool thread index -> profile thread index */
  uint32_t nthread_map;
  rep_ctx_t *ctx;        /* sorted by id */
  size_t nctx;
  const tp_sample_t **samples;
  size_t nsamples;
  const tp_blame_t **blames;
  size_t nblames;
  const tp_region_rec_t **regions;
  size_t nregions;
  const tp_rec_event_t **events;
  size_t nevents;
  uint64_t last_ns;      /* latest timestamp seen */
  rep_sym_t *sym;
} rep_file_t;

/* ---- user-model stacks (stacks.c) ---- */
#define REP_MAX_DEPTH 1024
/* The stack of a creation context (memoized in f->ctx); NULL depth 0 for the root. */
const uint32_t *rep_ctx_stack(rep_file_t *f, rep_model_t *m, uint64_t id, uint32_t *depth);
/* The sample's class (REP_*): its state's, or REP_RTWAIT for a working sample whose leaf
 * side is a runtime wait loop. */
int rep_sample_class_full(rep_file_t *f, rep_model_t *m, const tp_sample_t *s);
/* The construct a context names: `omp parallel @ file.c:LINE`, `omp task @ file.c:LINE` (or
 * `@ function` without line information); NULL for the root or an unknown context. */
const char *rep_ctx_construct(rep_file_t *f, rep_model_t *m, uint64_t id);
/* The user-model stack of a sample of class cls (with its `omp idle` / wait / runtime leaf)
 * into out[] (REP_MAX_DEPTH entries), root first; returns the depth. */
uint32_t rep_sample_stack(rep_file_t *f, rep_model_t *m, const tp_sample_t *s, int cls,
                          uint32_t *out);
/* The releaser's user-model stack of a directed-blame record (with the acquiring function
 * put back when the release came through a tail call). */
uint32_t rep_blame_stack(rep_file_t *f, rep_model_t *m, const tp_blame_t *b, uint32_t *out);

/* ---- metrics (blame.c) ---- */
/* the same values as profile.h's TP_SC_* */
enum { REP_WORK, REP_WAIT, REP_IDLE, REP_RTWAIT /* waiting in runtime code, state says work */,
       REP_MPI /* inside an MPI call */ };
int rep_state_class(uint32_t state);        /* REP_WORK / REP_WAIT / REP_IDLE (idle counts as wait) */
int rep_sample_class(const tp_sample_t *s); /* the state's class, libomp's pool wait = idle */
const char *rep_wait_name(uint32_t state);  /* the synthetic leaf of a wait state, NULL for work */
typedef struct rep_acc rep_acc_t;           /* per-region accumulation across files */
rep_acc_t *rep_acc_new(tp_profile_t *p);
void rep_account_file(rep_acc_t *a, rep_file_t *f, rep_model_t *m);
void rep_acc_finish(rep_acc_t *a, rep_model_t *m); /* fills p->regions, frees a */

/* ---- trace events (events.c) ---- */
void rep_events_file(rep_file_t *f, rep_model_t *m);

#endif
