/* User-model call stacks: a sample's frames cut to its task's body and spliced under the
 * stack of the context that created the task, recursively (technical report appendix B).
 *
 * Frames are leaf first, each with its CFA (the caller's stack pointer before the call, so
 * a callee's CFA is below its caller's).  An OMPT frame pointer names one procedure frame;
 * its flags say how: ompt_frame_framepointer (0x20) = that procedure's frame address
 * (__builtin_frame_address(0), the saved-rbp slot), whose CFA is 16 bytes higher on x86-64
 * (return address + saved rbp); ompt_frame_cfa (0x10) = its CFA itself;
 * ompt_frame_stackaddress (0x30) = some address inside it (treated as CFA - 1).  tomp and
 * LLVM's libomp both pass framepointer addresses of runtime procedures.  With X the named
 * procedure and cfa(X) computed that way:
 *   exit frame (X = the runtime procedure that called the task body): the body and its
 *     callees are the frames with CFA < cfa(X); X and everything above belong to the
 *     runtime or to the parent context;
 *   enter frame (X = the runtime procedure the body called into; 0 while the body runs):
 *     user frames are those with CFA > cfa(X) (>= if the flags say X is an application
 *     frame); deeper frames are the runtime's and the tool's.
 * Values that do not fit the stack (stale or not yet set, as the report warns tools) are
 * ignored.  Then module ranges decide what the OMPT frames left open: from the root, system
 * frames (_start, __libc_start_main, start_thread, clone) are dropped, then runtime frames
 * that call the body (a worker's dispatch loop when no exit frame was set), then user
 * frames are kept until the first frame of the runtime or the tool: that is where user code
 * called into the runtime, and where a wait leaf (`omp barrier wait`, ...) or, for a working
 * sample, `omp runtime` is appended. */
#include <stdlib.h>
#include <string.h>

#include "rep.h"

static uint64_t named_cfa(uint64_t ptr, uint32_t flags) {
  switch (flags & 0x30) {
  case 0x10: return ptr;     /* cfa */
  case 0x30: return ptr + 1; /* an address inside the frame */
  default: return ptr + 16;  /* framepointer (also when a runtime leaves the kind unset) */
  }
}

static uint64_t lookup_addr(const tp_frame_t *fr, uint32_t i, int exact0) {
  return i == 0 && exact0 ? fr[0].pc : fr[i].pc - 1;
}

/* The location of an MPI call's entry frame, named as the program calls it: `MPI_Allreduce`
 * for Open MPI's PMPI_Allreduce (its MPI_ symbols are aliases of the PMPI_ ones). */
static uint32_t mpi_entry(rep_file_t *f, rep_model_t *m, uint64_t addr) {
  uint32_t loc = rep_sym_loc(f->sym, addr);
  const tp_loc_t *l = &rep_profile(m)->locs[loc];
  if (strncmp(l->func, "PMPI_", 5)) return loc;
  return rep_loc(m, l->func + 1, l->file, l->line, l->kind, l->module, l->addr);
}

/* Appends the user frames of fr[] root first to out (at most max); *in_rt is set when the
 * leaf side was cut off at a runtime or tool frame. */
static uint32_t cut(rep_file_t *f, rep_model_t *m, const tp_frame_t *fr, uint32_t n, int exact0, uint64_t exit,
                    uint64_t enter, uint32_t fflags, uint32_t *out, uint32_t max, int *in_rt) {
  uint32_t a = 0, b = n;
  *in_rt = 0;
  if (exit) {
    uint64_t lim = named_cfa(exit, fflags & 0xffff);
    uint32_t i = 0;
    while (i < n && !(fr[i].cfa && fr[i].cfa >= lim)) i++;
    if (i < n) b = i; /* else the walk stopped below the exit frame: all frames are the body's */
  }
  if (enter) {
    uint32_t ef = fflags >> 16;
    uint64_t lim = named_cfa(enter, ef);
    uint32_t i = 0;
    while (i < b && !(fr[i].cfa && ((ef & 1) ? fr[i].cfa >= lim : fr[i].cfa > lim))) i++;
    if (i < b) a = i; /* else stale: no user frame above it */
  }
  if (a > 0) *in_rt = 1;
  int64_t j = (int64_t)b - 1;
  while (j >= a && rep_sym_class(f->sym, lookup_addr(fr, (uint32_t)j, exact0)) == REP_CL_SYSTEM) j--;
  int skipped = 0;
  for (; j >= a; j--) {
    int c = rep_sym_class(f->sym, lookup_addr(fr, (uint32_t)j, exact0));
    if (c != REP_CL_RUNTIME && c != REP_CL_TOOL) break;
    skipped = 1;
  }
  if (skipped && j >= a &&
      rep_sym_class(f->sym, lookup_addr(fr, (uint32_t)j, exact0)) == REP_CL_SYSTEM) {
    *in_rt = 1; /* runtime -> libc (futex, sched_yield): no user frame on this stack */
    return 0;
  }
  if (skipped) *in_rt = 1;
  uint32_t k = 0;
  int in_mpi = 0; /* inside an MPI call: its entry point is on the path, its internals are not */
  for (; j >= a && k < max; j--) {
    uint64_t addr = lookup_addr(fr, (uint32_t)j, exact0);
    int c = rep_sym_class(f->sym, addr);
    if (c == REP_CL_RUNTIME || c == REP_CL_TOOL) {
      *in_rt = 1;
      break;
    }
    if (c == REP_CL_MPI && !in_mpi) {
      in_mpi = 1;
      out[k++] = mpi_entry(f, m, addr);
      continue;
    }
    if (in_mpi && (c != REP_CL_USER || !rep_sym_in_program(f->sym, addr))) continue;
    in_mpi = 0;
    const uint32_t *chain;
    uint32_t nc = rep_sym_chain(f->sym, addr, &chain);
    for (uint32_t ci = 0; ci < nc && k < max; ci++) out[k++] = chain[ci];
  }
  return k;
}

static int ctx_cmp(const void *key, const void *elem) {
  uint64_t id = *(const uint64_t *)key, e = ((const rep_ctx_t *)elem)->rec->id;
  return id < e ? -1 : id > e;
}

static rep_ctx_t *find_ctx(rep_file_t *f, uint64_t id) {
  return f->nctx ? bsearch(&id, f->ctx, f->nctx, sizeof *f->ctx, ctx_cmp) : NULL;
}

/* The compilers' names of outlined construct bodies: gcc `fn._omp_fn.N`, clang
 * `.omp_outlined.`, `.omp_outlined..N`, `.omp_task_entry.` (which calls the task's
 * `.omp_outlined.`). */
static int outlined_name(const char *fn) {
  return strstr(fn, "._omp_fn.") || !strncmp(fn, ".omp_outlined.", 14) ||
         !strncmp(fn, ".omp_task_entry.", 16);
}

/* The location naming a construct's body: `omp parallel @ file.c:LINE` (or `omp task`), the
 * line of the construct's runtime call in its creator (the context's codeptr_ra). */
static uint32_t body_loc(rep_file_t *f, rep_model_t *m, rep_ctx_t *c) {
  if (c->body) return c->body - 1;
  const char *kind = c->rec->kind == TP_CTX_TASK ? "omp task" : "omp parallel";
  char name[512];
  const tp_loc_t *site = NULL;
  /* the index first: rep_sym_loc may grow (move) the locations array */
  if (c->rec->codeptr_ra && rep_sym_class(f->sym, c->rec->codeptr_ra - 1) == REP_CL_USER) {
    uint32_t at = rep_sym_loc(f->sym, c->rec->codeptr_ra - 1);
    site = &rep_profile(m)->locs[at];
  }
  if (site && site->file) {
    const char *b = strrchr(site->file, '/');
    snprintf(name, sizeof name, "%s @ %s:%u", kind, b ? b + 1 : site->file, site->line);
  } else if (site) {
    snprintf(name, sizeof name, "%s @ %s", kind, site->func);
  } else {
    snprintf(name, sizeof name, "%s", kind);
  }
  uint32_t loc = site ? rep_loc(m, name, site->file, site->line, TP_LOC_USER, site->module, site->addr)
                      : rep_loc(m, name, NULL, 0, TP_LOC_USER, NULL, 0);
  c->body = loc + 1;
  return loc;
}

const char *rep_ctx_construct(rep_file_t *f, rep_model_t *m, uint64_t id) {
  rep_ctx_t *c = id ? find_ctx(f, id) : NULL;
  if (!c) return NULL;
  uint32_t loc = body_loc(f, m, c); /* may add a location (and move the array): read after */
  return rep_profile(m)->locs[loc].func;
}

/* out[from..d) are a task's own frames, root first: the first is the outlined body of the
 * construct that created the task (context `id`).  Names it by its construct and line
 * instead of the compiler's name, and drops the compiler's further wrappers right below it
 * (clang's task entry calls the task's outlined function).  Returns the new depth. */
static uint32_t name_body(rep_file_t *f, rep_model_t *m, uint64_t id, uint32_t *out, uint32_t from,
                          uint32_t d) {
  if (!id || from >= d || tp_view_opts.raw_names) return d;
  const tp_profile_t *p = rep_profile(m);
  if (!outlined_name(p->locs[out[from]].func)) return d;
  rep_ctx_t *c = find_ctx(f, id);
  if (!c) return d;
  out[from] = body_loc(f, m, c);
  p = rep_profile(m); /* rep_loc may have grown the locations */
  uint32_t k = from + 1;
  while (k < d && outlined_name(p->locs[out[k]].func)) k++;
  memmove(out + from + 1, out + k, (d - k) * sizeof *out);
  return d - (k - from - 1);
}

const uint32_t *rep_ctx_stack(rep_file_t *f, rep_model_t *m, uint64_t id, uint32_t *depth) {
  static uint32_t lost;
  *depth = 0;
  if (!id) return NULL;
  rep_ctx_t *c = find_ctx(f, id);
  if (!c) {
    /* its record was not written (the program was killed): say so instead of guessing */
    lost = rep_omp_loc(m, "[unknown context]");
    *depth = 1;
    return &lost;
  }
  if (c->state == 2) {
    *depth = c->depth;
    return c->locs;
  }
  if (c->state == 1) return NULL; /* a cycle in a corrupt file */
  c->state = 1;
  uint32_t pd;
  const uint32_t *pl = rep_ctx_stack(f, m, c->rec->parent, &pd);
  uint32_t *buf = rep_alloc(REP_MAX_DEPTH * sizeof *buf);
  if (pd > REP_MAX_DEPTH / 2) pd = REP_MAX_DEPTH / 2;
  if (pd) memcpy(buf, pl, pd * sizeof *buf);
  int in_rt;
  uint32_t k = cut(f, m, c->rec->frames, c->rec->nframes, 0, c->rec->exit_frame, c->rec->enter_frame,
                   c->rec->frame_flags, buf + pd, REP_MAX_DEPTH / 2 - pd, &in_rt);
  k = name_body(f, m, c->rec->parent, buf, pd, pd + k) - pd;
  uint32_t *locs = rep_arena(m, (pd + k) * sizeof *locs + 1);
  memcpy(locs, buf, (pd + k) * sizeof *locs);
  free(buf);
  c->locs = locs;
  c->depth = pd + k;
  c->state = 2;
  *depth = c->depth;
  return locs;
}

static uint32_t splice(rep_file_t *f, rep_model_t *m, uint64_t context, uint32_t *out) {
  uint32_t d;
  const uint32_t *l = rep_ctx_stack(f, m, context, &d);
  if (d) memcpy(out, l, d * sizeof *out);
  return d;
}

/* A task other than the initial task whose exit frame is not set has no body on the stack:
 * it has not started or has returned (a master waiting in its region's closing barrier, a
 * worker between regions).  The user frames above the runtime are then its creator's, which
 * the context already holds (and, on a nested master, not even the innermost ones): they are
 * not taken again.  The initial task never has an exit frame: its stack starts at main. */
static uint32_t cut_task(rep_file_t *f, rep_model_t *m, uint64_t context, const tp_frame_t *fr, uint32_t n,
                         int exact0, uint64_t exit, uint64_t enter, uint32_t fflags, uint32_t *out,
                         uint32_t max, int *in_rt) {
  if (context && !exit) {
    *in_rt = 1;
    return 0;
  }
  return cut(f, m, fr, n, exact0, exit, enter, fflags, out, max, in_rt);
}

/* Functions whose samples are waiting whatever state the runtime reports: the runtime's own
 * wait loops (tomp names them: tomp_worker_wait_idle, tomp_barrier_wait, ...) and the C
 * library calls that block or give the CPU away (sched_yield, futex waits, sleeps). */
static int waiting_name(const char *fn) {
  if (strstr(fn, "nowait")) return 0; /* GOMP_loop_end_nowait & co. do not wait */
  static const char *const words[] = {"wait", "yield", "sleep", "futex", "suspend", "idle", "spin"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strstr(fn, words[i])) return 1;
  return !strcmp(fn, "syscall") || !strncmp(fn, "syscall@", 8) || !strcmp(fn, "pause");
}

/* Whether the leaf side of the stack, below the last user frame, is the runtime waiting:
 * a runtime frame on it, and a waiting function (runtime or C library) in the runtime's
 * part.  libomp, for one, keeps reporting work_parallel while it yields in a barrier after
 * running tasks; tomp's initial thread reports it while it waits for its workers at a
 * join.  (A user function calling sched_yield or sleeping is the user's work.) */
static int runtime_waiting(rep_file_t *f, rep_model_t *m, const tp_sample_t *s) {
  int rt = 0, wait = 0;
  int exact0 = (s->flags & TP_SAMPLE_LEAF_EXACT) != 0;
  for (uint32_t i = 0; i < s->nframes; i++) {
    uint64_t a = lookup_addr(s->frames, i, exact0);
    int c = rep_sym_class(f->sym, a);
    if (c == REP_CL_USER || c == REP_CL_UNKNOWN) break;
    if (c == REP_CL_RUNTIME) rt = 1;
    if (!wait && c != REP_CL_TOOL) {
      uint32_t at = rep_sym_loc(f->sym, a); /* may move the locations array: index first */
      wait = waiting_name(rep_profile(m)->locs[at].func);
    }
    if (rt && wait) return 1;
  }
  return 0;
}

/* Whether the sample is inside an MPI call: from the leaf, an MPI frame before any frame of
 * the program's executable (libraries the MPI library calls, libc, libevent, and unmapped
 * code are part of the call; the program's own code called back from MPI, a reduction
 * operator, is work). */
static int in_mpi_call(rep_file_t *f, const tp_sample_t *s) {
  int exact0 = (s->flags & TP_SAMPLE_LEAF_EXACT) != 0;
  for (uint32_t i = 0; i < s->nframes; i++) {
    uint64_t a = lookup_addr(s->frames, i, exact0);
    int c = rep_sym_class(f->sym, a);
    if (c == REP_CL_MPI) return 1;
    if (c == REP_CL_RUNTIME) return 0;
    /* REP_CL_UNKNOWN goes on: Open MPI unloads its components (mca_coll_tuned.so, ...) in
     * MPI_Finalize, before the memory map is saved, so their frames have no mapping */
    if (c == REP_CL_USER && rep_sym_in_program(f->sym, a)) return 0;
  }
  return 0;
}

int rep_sample_class_full(rep_file_t *f, rep_model_t *m, const tp_sample_t *s) {
  int cls = rep_sample_class(s);
  if (cls == REP_WORK && runtime_waiting(f, m, s)) return REP_RTWAIT;
  if (cls == REP_WORK && in_mpi_call(f, s)) return REP_MPI;
  return cls;
}

uint32_t rep_sample_stack(rep_file_t *f, rep_model_t *m, const tp_sample_t *s, int cls,
                          uint32_t *out) {
  if (cls == REP_IDLE) {
    out[0] = rep_omp_loc(m, "omp idle");
    return 1;
  }
  uint32_t d = splice(f, m, s->context, out);
  uint32_t from = d;
  int in_rt;
  d += cut_task(f, m, s->context, s->frames, s->nframes, (s->flags & TP_SAMPLE_LEAF_EXACT) != 0,
                s->exit_frame, s->enter_frame, s->frame_flags, out + d, REP_MAX_DEPTH - 1 - d,
                &in_rt);
  d = name_body(f, m, s->context, out, from, d);
  const char *leaf = cls == REP_RTWAIT ? "omp runtime wait"
                     : cls == REP_MPI  ? "MPI wait"
                                       : rep_wait_name(s->state);
  if (!leaf && in_rt) leaf = "omp runtime";
  if (leaf) out[d++] = rep_omp_loc(m, leaf);
  if (!d) out[d++] = rep_omp_loc(m, "[unknown]");
  return d;
}

/* A holder that releases through a tail call (`omp_set_lock(l); work(); omp_unset_lock(l);`
 * at -O2 ends with a jump to omp_unset_lock) is no longer on the stack at its release: the
 * release stack ends in its caller.  The acquire's call site (acq_codeptr) names it; when
 * the holder's stack was deeper at the acquire (its enter frame lower) and the release path
 * lacks the acquiring function, that function goes back on the path, at its acquire line. */
static uint32_t put_back_acquirer(rep_file_t *f, rep_model_t *m, const tp_blame_t *b, uint32_t *out,
                                  uint32_t from, uint32_t d) {
  if (!b->acq_codeptr || d >= REP_MAX_DEPTH - 1) return d;
  uint64_t a = b->acq_codeptr - 1;
  if (rep_sym_class(f->sym, a) != REP_CL_USER) return d;
  uint32_t rel_ef = b->frame_flags >> 16;
  if (b->acq_enter && b->enter_frame &&
      named_cfa(b->acq_enter, b->acq_flags) >= named_cfa(b->enter_frame, rel_ef))
    return d; /* released at the same depth or deeper: the release path is whole */
  uint32_t loc = rep_sym_loc(f->sym, a);
  const tp_profile_t *p = rep_profile(m);
  for (uint32_t i = from; i < d; i++)
    if (!strcmp(p->locs[out[i]].func, p->locs[loc].func)) return d;
  out[d++] = loc;
  return d;
}

uint32_t rep_blame_stack(rep_file_t *f, rep_model_t *m, const tp_blame_t *b, uint32_t *out) {
  uint32_t d = splice(f, m, b->context, out);
  uint32_t from = d;
  int in_rt;
  d += cut_task(f, m, b->context, b->frames, b->nframes, 0, b->exit_frame, b->enter_frame,
                b->frame_flags, out + d, REP_MAX_DEPTH - 1 - d, &in_rt);
  d = put_back_acquirer(f, m, b, out, from, d);
  d = name_body(f, m, b->context, out, from, d);
  if (!d) out[d++] = rep_omp_loc(m, "[unknown]");
  return d;
}
