/* OMPD API test (ompd_api.sh): the debugger's side of OMPD without a debugger.  It starts the
 * target (ompd_api_target.c) as its child, loads the OMPD library the target names in
 * ompd_dll_locations, and gives it callbacks of its own: memory through /proc/PID/mem,
 * symbols from the ELF dynamic symbol table of the libtomp the target mapped (the script
 * runs it on a stripped copy).  It calls every entry point and asserts real values of the
 * known state (team sizes, thread numbers, states, wait ids, task functions = the compiler's
 * outlined bodies, ICVs from the environment and from API calls), first from a core file of
 * the target (gcore: segments from the core, the rest from the mapped files its NT_FILE note
 * names), then live; then the error codes: a NULL, released, foreign or stale handle is
 * ompd_rc_stale_handle, a bad argument other than a handle (a NULL output, a wrong context or
 * scope) ompd_rc_bad_input (tools/ompd/tompd.h says why); a foreign and a corrupt address
 * space.  Run with
 * OMP_DEBUG=enabled (breakpoints on, the runtime names the library) and without (the state is
 * read all the same; the library is $OMPD_LIB; an undeferred task took the no-tool tiny
 * path, whose function the library must not claim to know).
 *
 *   ompd_api TARGET outer_fn inner_fn task_fn phase   (addresses in the non-PIE target, from
 *                                                      nm: the outlined bodies, `phase`) */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../../src/ompd/ompd_layout.h"
#include <unistd.h>

#include "omp-tools.h"

static int fails, checks;
#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    checks++;                                                                                      \
    if (!(cond)) {                                                                                 \
      fails++;                                                                                     \
      printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                       \
      printf(__VA_ARGS__);                                                                         \
      printf("\n");                                                                                \
    }                                                                                              \
  } while (0)
#define RC(call, want)                                                                             \
  do {                                                                                             \
    ompd_rc_t rc_ = (call);                                                                        \
    CHECK(rc_ == (want), "%s returned %d, expected %d", #call, rc_, (want));                       \
  } while (0)

/* ---- the target ---------------------------------------------------------------------------- */

/* an address-space context: the target process, or (foreign) this process's own memory with
 * a symbol table of our choosing */
struct filemap {
  uint64_t start, end, off;
  char path[512];
};
struct _ompd_aspace_cont {
  pid_t pid;
  int mem;        /* /proc/PID/mem, or -1 for a core file */
  int core;       /* the core file */
  Elf64_Phdr *ph; /* its segments */
  int nph;
  struct filemap *maps; /* its NT_FILE note: where file-backed pages not in it come from */
  int nmaps;
  char lib[4096]; /* the libtomp file the target mapped */
  uint64_t base;  /* its load address */
  const char *fake_sym;
  uint64_t fake_addr;
};
struct _ompd_thread_cont {
  uint64_t lwp;
};
static struct _ompd_thread_cont tctx_any;

static ompd_rc_t cb_alloc(ompd_size_t n, void **p) {
  *p = malloc(n ? n : 1);
  return *p ? ompd_rc_ok : ompd_rc_nomem;
}
/* released memory is kept (and counted): the test then reads a released handle's magic
 * without touching freed memory */
static int nfree;
static ompd_rc_t cb_free(void *p) {
  (void)p;
  nfree++;
  return ompd_rc_ok;
}
static ompd_rc_t cb_print(const char *s, int category) {
  (void)category;
  fputs(s, stdout);
  return ompd_rc_ok;
}
/* a context this debugger side never made: its callbacks say so, as LLVM's gdb plug-in's do */
static struct _ompd_aspace_cont unknown_ctx;
static ompd_rc_t cb_sizes(ompd_address_space_context_t *c, ompd_device_type_sizes_t *s) {
  if (c == &unknown_ctx) return ompd_rc_stale_handle;
  *s = (ompd_device_type_sizes_t){1, 2, 4, 8, 8, 8};
  return ompd_rc_ok;
}

/* a symbol of the ELF file's dynamic symbol table, 0 if absent */
static uint64_t elf_dynsym(const char *file, const char *name) {
  FILE *f = fopen(file, "rb");
  if (!f) return 0;
  uint64_t found = 0;
  Elf64_Ehdr eh;
  if (fread(&eh, sizeof eh, 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG)) goto out;
  Elf64_Shdr *sh = calloc(eh.e_shnum, sizeof *sh);
  if (!sh || fseek(f, (long)eh.e_shoff, SEEK_SET) ||
      fread(sh, sizeof *sh, eh.e_shnum, f) != eh.e_shnum)
    goto out2;
  for (int i = 0; i < eh.e_shnum && !found; i++) {
    if (sh[i].sh_type != SHT_DYNSYM) continue;
    Elf64_Shdr *st = &sh[sh[i].sh_link];
    char *str = malloc(st->sh_size);
    Elf64_Sym *sym = malloc(sh[i].sh_size);
    if (str && sym && !fseek(f, (long)st->sh_offset, SEEK_SET) &&
        fread(str, 1, st->sh_size, f) == st->sh_size &&
        !fseek(f, (long)sh[i].sh_offset, SEEK_SET) &&
        fread(sym, 1, sh[i].sh_size, f) == sh[i].sh_size)
      for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++)
        if (sym[k].st_shndx != SHN_UNDEF && sym[k].st_name < st->sh_size &&
            !strcmp(str + sym[k].st_name, name))
          found = sym[k].st_value;
    free(str);
    free(sym);
  }
out2:
  free(sh);
out:
  fclose(f);
  return found;
}

static ompd_rc_t cb_symbol(ompd_address_space_context_t *c, ompd_thread_context_t *t,
                           const char *name, ompd_address_t *addr, const char *file) {
  (void)t;
  (void)file;
  if (c->fake_sym) {
    if (strcmp(name, c->fake_sym)) return ompd_rc_error;
    addr->segment = 0;
    addr->address = c->fake_addr;
    return ompd_rc_ok;
  }
  uint64_t v = elf_dynsym(c->lib, name);
  if (!v) return ompd_rc_error;
  addr->segment = 0;
  addr->address = c->base + v;
  return ompd_rc_ok;
}

/* n bytes at addr of a core file: from its segment, else (pages the kernel or gcore left
 * out: unwritten file-backed ones) from the mapped file */
static int core_read(struct _ompd_aspace_cont *c, uint64_t addr, size_t n, char *buf) {
  while (n) {
    size_t k = 0;
    for (int i = 0; i < c->nph && !k; i++) {
      Elf64_Phdr *p = &c->ph[i];
      if (p->p_type != PT_LOAD || addr < p->p_vaddr || addr >= p->p_vaddr + p->p_filesz) continue;
      k = p->p_vaddr + p->p_filesz - addr < n ? p->p_vaddr + p->p_filesz - addr : n;
      if (pread(c->core, buf, k, (off_t)(p->p_offset + addr - p->p_vaddr)) != (ssize_t)k) return -1;
    }
    for (int i = 0; i < c->nmaps && !k; i++) {
      struct filemap *m = &c->maps[i];
      if (addr < m->start || addr >= m->end) continue;
      k = m->end - addr < n ? m->end - addr : n;
      int fd = open(m->path, O_RDONLY);
      ssize_t r = fd >= 0 ? pread(fd, buf, k, (off_t)(m->off + addr - m->start)) : -1;
      if (fd >= 0) close(fd);
      if (r != (ssize_t)k) return -1;
    }
    if (!k) return -1;
    addr += k, buf += k, n -= k;
  }
  return 0;
}

static int nreads;
static ompd_rc_t cb_read(ompd_address_space_context_t *c, ompd_thread_context_t *t,
                         const ompd_address_t *a, ompd_size_t n, void *buf) {
  (void)t;
  nreads++;
  if (c->mem < 0) return core_read(c, a->address, n, buf) ? ompd_rc_error : ompd_rc_ok;
  ssize_t r = pread(c->mem, buf, n, (off_t)a->address);
  return r == (ssize_t)n ? ompd_rc_ok : ompd_rc_error;
}
static ompd_rc_t cb_read_string(ompd_address_space_context_t *c, ompd_thread_context_t *t,
                                const ompd_address_t *a, ompd_size_t n, void *buf) {
  char *s = buf;
  for (ompd_size_t i = 0; i < n; i++) {
    ompd_address_t b = {0, a->address + i};
    if (cb_read(c, t, &b, 1, s + i) != ompd_rc_ok) return ompd_rc_error;
    if (!s[i]) return ompd_rc_ok;
  }
  return ompd_rc_ok;
}
static ompd_rc_t cb_write(ompd_address_space_context_t *c, ompd_thread_context_t *t,
                          const ompd_address_t *a, ompd_size_t n, const void *buf) {
  (void)c, (void)t, (void)a, (void)n, (void)buf;
  return ompd_rc_unsupported;
}
static ompd_rc_t cb_convert(ompd_address_space_context_t *c, const void *in, ompd_size_t unit,
                            ompd_size_t count, void *out) {
  (void)c;
  memcpy(out, in, unit * count);
  return ompd_rc_ok;
}
static int nctx;
static ompd_rc_t cb_thread_ctx(ompd_address_space_context_t *c, ompd_thread_id_t kind,
                               ompd_size_t size, const void *id, ompd_thread_context_t **tc) {
  (void)c, (void)kind, (void)size, (void)id;
  nctx++;
  *tc = &tctx_any;
  return ompd_rc_ok;
}

static const ompd_callbacks_t callbacks = {cb_alloc,   cb_free,    cb_print,     cb_sizes,
                                           cb_symbol,  cb_read,    cb_write,     cb_read_string,
                                           cb_convert, cb_convert, cb_thread_ctx};

/* the file and load address of the libtomp.so the target mapped */
static int find_lib(pid_t pid, struct _ompd_aspace_cont *c) {
  char path[64], line[8192];
  snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int ok = -1;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, off;
    char file[4096] = "";
    if (sscanf(line, "%lx-%*x %*s %lx %*s %*s %4095s", &lo, &off, file) < 2) continue;
    const char *b = strrchr(file, '/');
    if (!b || strcmp(b + 1, "libtomp.so") || off != 0) continue;
    snprintf(c->lib, sizeof c->lib, "%s", file);
    c->base = lo;
    ok = 0;
    break;
  }
  fclose(f);
  return ok;
}

/* A core file of the target (gcore), as an address space: its segments, and its NT_FILE note
 * for the libtomp mapping (load address) and for file-backed pages it does not hold. */
static int core_open(const char *file, struct _ompd_aspace_cont *c) {
  Elf64_Ehdr eh;
  c->mem = -1;
  c->core = open(file, O_RDONLY);
  if (c->core < 0 || pread(c->core, &eh, sizeof eh, 0) != sizeof eh || eh.e_type != ET_CORE)
    return -1;
  c->nph = eh.e_phnum;
  c->ph = calloc(c->nph, sizeof *c->ph);
  if (pread(c->core, c->ph, sizeof *c->ph * c->nph, (off_t)eh.e_phoff) !=
      (ssize_t)(sizeof *c->ph * c->nph))
    return -1;
  for (int i = 0; i < c->nph; i++) {
    if (c->ph[i].p_type != PT_NOTE) continue;
    char *note = malloc(c->ph[i].p_filesz);
    if (pread(c->core, note, c->ph[i].p_filesz, (off_t)c->ph[i].p_offset) !=
        (ssize_t)c->ph[i].p_filesz)
      return -1;
    for (size_t at = 0; at + sizeof(Elf64_Nhdr) <= c->ph[i].p_filesz;) {
      Elf64_Nhdr *nh = (Elf64_Nhdr *)(note + at);
      char *desc = note + at + sizeof *nh + ((nh->n_namesz + 3) & ~3u);
      if (nh->n_type == 0x46494c45 /* NT_FILE */) {
        uint64_t *w = (uint64_t *)desc, count = w[0], page = w[1];
        char *name = (char *)(w + 2 + 3 * count);
        c->maps = calloc(count, sizeof *c->maps);
        for (uint64_t k = 0; k < count; k++) {
          struct filemap *m = &c->maps[c->nmaps++];
          m->start = w[2 + 3 * k], m->end = w[3 + 3 * k], m->off = w[4 + 3 * k] * page;
          snprintf(m->path, sizeof m->path, "%s", name);
          name += strlen(name) + 1;
          const char *b = strrchr(m->path, '/');
          if (b && !strcmp(b + 1, "libtomp.so") && m->off == 0 && !c->base) {
            c->base = m->start;
            snprintf(c->lib, sizeof c->lib, "%s", m->path);
          }
        }
      }
      at += sizeof *nh + ((nh->n_namesz + 3) & ~3u) + ((nh->n_descsz + 3) & ~3u);
    }
    free(note);
  }
  return c->base ? 0 : -1;
}

/* ---- what the target said ------------------------------------------------------------------- */

typedef struct {
  int lwp;
  uint64_t pthread;
} role_t;
static role_t roles[128]; /* by letter */
static uint64_t lock_addr;
static FILE *from_target;
static pid_t target;

static void read_until(const char *stop) {
  char line[256];
  while (fgets(line, sizeof line, from_target)) {
    char r;
    int lwp;
    unsigned long pt;
    void *p;
    if (!strncmp(line, stop, strlen(stop))) return;
    if (sscanf(line, "LOCK %p", &p) == 1)
      lock_addr = (uint64_t)(uintptr_t)p;
    else if (sscanf(line, "%c %d %lu", &r, &lwp, &pt) == 3)
      roles[(unsigned char)r] = (role_t){lwp, pt};
  }
  printf("FAIL: the target ended before %s\n", stop);
  kill(target, SIGKILL);
  exit(1);
}

static void set_phase(struct _ompd_aspace_cont *c, uint64_t phase_addr, int v) {
  if (pwrite(c->mem, &v, sizeof v, (off_t)phase_addr) != sizeof v) {
    printf("FAIL: cannot write the target's phase\n");
    kill(target, SIGKILL);
    exit(1);
  }
}

/* ---- the OMPD library ------------------------------------------------------------------------ */

#define F(name) static __typeof__(ompd_##name) *p_##name;
#define OMPD_FUNCS(X)                                                                              \
  X(initialize)                                                                                    \
  X(get_api_version)                                                                               \
  X(get_version_string)                                                                            \
  X(finalize) X(process_initialize) X(device_initialize) X(rel_address_space_handle)               \
      X(get_omp_version) X(get_omp_version_string) X(get_thread_in_parallel) X(get_thread_handle)  \
          X(rel_thread_handle) X(thread_handle_compare) X(get_thread_id)                           \
              X(get_curr_parallel_handle) X(get_enclosing_parallel_handle)                         \
                  X(get_task_parallel_handle) X(rel_parallel_handle) X(parallel_handle_compare)    \
                      X(get_curr_task_handle) X(get_generating_task_handle)                        \
                          X(get_scheduling_task_handle) X(get_task_in_parallel) X(rel_task_handle) \
                              X(task_handle_compare) X(get_task_function) X(get_task_frame)        \
                                  X(enumerate_states) X(get_state) X(get_display_control_vars)     \
                                      X(rel_display_control_vars) X(enumerate_icvs)                \
                                          X(get_icv_from_scope) X(get_icv_string_from_scope)       \
                                              X(get_tool_data)
OMPD_FUNCS(F)
#undef F

static ompd_address_space_handle_t *as;

static ompd_thread_handle_t *thread_of(char role) {
  ompd_thread_handle_t *th = NULL;
  int lwp = roles[(unsigned char)role].lwp;
  ompd_rc_t rc = p_get_thread_handle(as, 1 /* lwp */, sizeof lwp, &lwp, &th);
  CHECK(rc == ompd_rc_ok && th, "thread %c (lwp %d): rc %d", role, lwp, rc);
  return th;
}

static ompd_icv_id_t icv_id(const char *name, ompd_scope_t *scope) {
  ompd_icv_id_t cur = ompd_icv_undefined, next;
  const char *n;
  int more = 1;
  while (more && p_enumerate_icvs(as, cur, &next, &n, scope, &more) == ompd_rc_ok) {
    if (!strcmp(n, name)) return next;
    cur = next;
  }
  CHECK(0, "no ICV %s", name);
  return 0;
}
static int64_t icv(void *h, const char *name, ompd_scope_t scope) {
  ompd_scope_t s;
  ompd_icv_id_t id = icv_id(name, &s);
  ompd_word_t v = -999;
  ompd_rc_t rc = p_get_icv_from_scope(h, scope, id, &v);
  CHECK(rc == ompd_rc_ok, "%s: rc %d", name, rc);
  return v;
}
static int icv_str_is(void *h, const char *name, ompd_scope_t scope, const char *want) {
  ompd_scope_t s;
  ompd_icv_id_t id = icv_id(name, &s);
  const char *str = NULL;
  ompd_rc_t rc = p_get_icv_string_from_scope(h, scope, id, &str);
  CHECK(rc == ompd_rc_ok && str && !strcmp(str, want), "%s: rc %d, '%s', expected '%s'", name, rc,
        str ? str : "(null)", want);
  free((void *)str);
  return 0;
}

static int cmp_task(ompd_task_handle_t *a, ompd_task_handle_t *b) {
  int c = 99;
  RC(p_task_handle_compare(a, b, &c), ompd_rc_ok);
  return c;
}
static int cmp_par(ompd_parallel_handle_t *a, ompd_parallel_handle_t *b) {
  int c = 99;
  RC(p_parallel_handle_compare(a, b, &c), ompd_rc_ok);
  return c;
}
static int64_t team_size(ompd_parallel_handle_t *p) {
  return icv(p, "team-size-var", ompd_scope_parallel);
}
static int64_t levels(ompd_parallel_handle_t *p) {
  return icv(p, "levels-var", ompd_scope_parallel);
}

/* Phase 1: the known state, read through as (the live process, or its core file). */
static ompd_thread_handle_t *tA, *tB, *tC, *tD;
static ompd_parallel_handle_t *pA, *pC, *root;
static ompd_task_handle_t *kC;
static ompd_address_t fn;
static uint64_t outer_fn, inner_fn, task_fn;
static int debug;
/* a clang-built target: its undeferred task has a task of its own (LLVM's if(0) tasks are
 * never the no-tool tiny path), so its function is known without OMP_DEBUG too */
static int clang_target;

static void phase1(void) {
  /* ---- threads, ids, states ------------------------------------------------------------ */
  tA = thread_of('A'), tB = thread_of('B'), tC = thread_of('C'), tD = thread_of('D');
  if (!tA || !tB || !tC || !tD) return;
  CHECK(nctx >= 4, "thread contexts asked for");
  {
    ompd_thread_handle_t *t2 = NULL;
    uint64_t pt = roles['A'].pthread;
    RC(p_get_thread_handle(as, 0 /* pthread */, 8, &pt, &t2), ompd_rc_ok);
    int c = 99;
    RC(p_thread_handle_compare(tA, t2, &c), ompd_rc_ok);
    CHECK(c == 0, "pthread and lwp name the same thread");
    RC(p_thread_handle_compare(tA, tB, &c), ompd_rc_ok);
    CHECK(c != 0, "different threads compare unequal");
    int c2 = 99;
    RC(p_thread_handle_compare(tB, tA, &c2), ompd_rc_ok);
    CHECK(c2 == -c, "compare is antisymmetric");
    RC(p_thread_handle_compare(tA, NULL, &c), ompd_rc_stale_handle);
    RC(p_rel_thread_handle(t2), ompd_rc_ok);
    RC(p_rel_thread_handle(t2), ompd_rc_stale_handle); /* released */
    RC(p_get_state(t2, &(ompd_word_t){0}, NULL), ompd_rc_stale_handle);
    uint64_t id = 0;
    int lwp = 0;
    RC(p_get_thread_id(tB, 0, 8, &id), ompd_rc_ok);
    CHECK(id == roles['B'].pthread, "pthread id of B");
    RC(p_get_thread_id(tB, 1, 4, &lwp), ompd_rc_ok);
    CHECK(lwp == roles['B'].lwp, "lwp of B");
    RC(p_get_thread_id(tB, 2, 8, &id), ompd_rc_unsupported);
    RC(p_get_thread_id(tB, 0, 4, &id), ompd_rc_bad_input);
    RC(p_get_thread_id(tB, 0, 8, NULL), ompd_rc_bad_input);
    /* a thread that never used OpenMP, and ids that name no thread */
    int plwp = roles['P'].lwp, nolwp = 1;
    RC(p_get_thread_handle(as, 1, 4, &plwp, &t2), ompd_rc_unavailable);
    RC(p_get_thread_handle(as, 1, 4, &nolwp, &t2), ompd_rc_unavailable);
    RC(p_get_thread_handle(as, 7, 4, &nolwp, &t2), ompd_rc_unsupported);
    RC(p_get_thread_handle(as, 0, 3, &nolwp, &t2), ompd_rc_bad_input);
    RC(p_get_thread_handle(NULL, 1, 4, &nolwp, &t2), ompd_rc_stale_handle);
    RC(p_get_thread_handle(as, 1, 4, NULL, &t2), ompd_rc_bad_input);
  }
  ompd_word_t st = -1;
  ompd_wait_id_t wid = 1;
  RC(p_get_state(tA, &st, &wid), ompd_rc_ok);
  CHECK(st == ompt_state_work_parallel && wid == 0, "A: state %#lx wait id %#lx", (long)st,
        (long)wid);
  RC(p_get_state(tB, &st, &wid), ompd_rc_ok);
  CHECK(st == ompt_state_wait_lock && wid == lock_addr,
        "B: state %#lx wait id %#lx, expected wait_lock on %#lx", (long)st, (long)wid,
        (long)lock_addr);
  RC(p_get_state(tD, &st, &wid), ompd_rc_ok);
  CHECK(st == ompt_state_wait_barrier_explicit, "D: state %#lx", (long)st);
  RC(p_get_state(tC, &st, NULL), ompd_rc_ok);
  CHECK(st == ompt_state_work_parallel, "C: state %#lx", (long)st);
  RC(p_get_state(tA, NULL, &wid), ompd_rc_bad_input);
  {
    /* every state, in order, once; the wait states of this test among them */
    ompd_word_t cur = ompt_state_undefined, next, more = 1;
    const char *name;
    int n = 0, seen_lock = 0;
    while (more && p_enumerate_states(as, cur, &next, &name, &more) == ompd_rc_ok && n < 100) {
      n++;
      if (next == ompt_state_wait_lock) seen_lock = !strcmp(name, "ompt_state_wait_lock");
      cur = next;
    }
    CHECK(n >= 19 && seen_lock && !more, "%d states enumerated", n);
    RC(p_enumerate_states(as, cur, &next, &name, &more), ompd_rc_bad_input); /* past the last */
    RC(p_enumerate_states(as, 0x7777, &next, &name, &more), ompd_rc_bad_input);
    RC(p_enumerate_states(NULL, ompt_state_undefined, &next, &name, &more), ompd_rc_stale_handle);
  }
  /* the idle worker: a thread of the target that is an OpenMP thread but in no role */
  {
    int idle = 0;
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%d/task", (int)target);
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
      int lwp = atoi(e->d_name);
      ompd_thread_handle_t *t = NULL;
      if (lwp <= 0) continue;
      if (p_get_thread_handle(as, 1, 4, &lwp, &t) != ompd_rc_ok) continue;
      ompd_word_t s;
      ompd_parallel_handle_t *ph = NULL;
      ompd_task_handle_t *tk = NULL;
      if (getenv("OMPD_API_VERBOSE") && p_get_state(t, &s, NULL) == ompd_rc_ok)
        printf("lwp %d state %#lx\n", lwp, (long)s);
      if (p_get_state(t, &s, NULL) == ompd_rc_ok && s == ompt_state_idle) {
        idle++;
        RC(p_get_curr_parallel_handle(t, &ph), ompd_rc_unavailable);
        RC(p_get_curr_task_handle(t, &tk), ompd_rc_unavailable);
      }
      p_rel_thread_handle(t);
    }
    if (d) closedir(d);
    CHECK(idle >= 1, "%d idle workers", idle);
  }

  /* ---- parallel regions ------------------------------------------------------------------ */
  ompd_parallel_handle_t *pB = NULL, *pD = NULL, *outer = NULL, *outer2 = NULL, *none = NULL;
  pA = pC = root = NULL;
  RC(p_get_curr_parallel_handle(tA, &pA), ompd_rc_ok);
  RC(p_get_curr_parallel_handle(tB, &pB), ompd_rc_ok);
  RC(p_get_curr_parallel_handle(tC, &pC), ompd_rc_ok);
  RC(p_get_curr_parallel_handle(tD, &pD), ompd_rc_ok);
  if (!pA || !pB || !pC || !pD) return;
  CHECK(cmp_par(pA, pB) == 0 && cmp_par(pC, pD) == 0 && cmp_par(pA, pC) != 0,
        "A,B share a team; C,D share another");
  CHECK(team_size(pA) == 2 && levels(pA) == 2 &&
            icv(pA, "active-levels-var", ompd_scope_parallel) == 2,
        "inner region: 2 threads, level 2");
  RC(p_get_enclosing_parallel_handle(pA, &outer), ompd_rc_ok);
  RC(p_get_enclosing_parallel_handle(pC, &outer2), ompd_rc_ok);
  if (!outer || !outer2) return;
  CHECK(cmp_par(outer, outer2) == 0, "both inner regions are nested in one outer region");
  CHECK(team_size(outer) == 2 && levels(outer) == 1, "outer region: 2 threads, level 1");
  RC(p_get_enclosing_parallel_handle(outer, &root), ompd_rc_ok);
  if (!root) return;
  CHECK(team_size(root) == 1 && levels(root) == 0, "the initial thread's implicit region");
  RC(p_get_enclosing_parallel_handle(root, &none), ompd_rc_unavailable);
  RC(p_get_enclosing_parallel_handle(NULL, &none), ompd_rc_stale_handle);
  RC(p_get_enclosing_parallel_handle(root, NULL), ompd_rc_bad_input);
  {
    /* thread numbers: thread i of each team */
    ompd_thread_handle_t *t = NULL;
    int c = 99;
    RC(p_get_thread_in_parallel(pA, 1, &t), ompd_rc_ok);
    if (t) RC(p_thread_handle_compare(t, tB, &c), ompd_rc_ok);
    CHECK(c == 0, "thread 1 of A's team is B");
    RC(p_get_thread_in_parallel(pC, 0, &t), ompd_rc_ok);
    if (t) RC(p_thread_handle_compare(t, tC, &c), ompd_rc_ok);
    CHECK(c == 0, "thread 0 of C's team is C");
    RC(p_get_thread_in_parallel(outer, 0, &t), ompd_rc_ok);
    if (t) RC(p_thread_handle_compare(t, tA, &c), ompd_rc_ok);
    CHECK(c == 0, "thread 0 of the outer team is A");
    RC(p_get_thread_in_parallel(outer, 1, &t), ompd_rc_ok);
    if (t) RC(p_thread_handle_compare(t, tC, &c), ompd_rc_ok);
    CHECK(c == 0, "thread 1 of the outer team is C");
    RC(p_get_thread_in_parallel(root, 0, &t), ompd_rc_ok);
    if (t) RC(p_thread_handle_compare(t, tA, &c), ompd_rc_ok);
    CHECK(c == 0, "the initial thread is A");
    RC(p_get_thread_in_parallel(pA, 2, &t), ompd_rc_bad_input);
    RC(p_get_thread_in_parallel(pA, -1, &t), ompd_rc_bad_input);
    RC(p_get_thread_in_parallel(root, 1, &t), ompd_rc_bad_input);
    RC(p_get_thread_in_parallel(NULL, 0, &t), ompd_rc_stale_handle);
  }

  /* ---- tasks ------------------------------------------------------------------------------ */
  ompd_task_handle_t *kA = NULL, *kB = NULL, *gen = NULL, *sched = NULL, *imp = NULL,
                     *none_t = NULL, *init = NULL;
  kC = NULL;
  RC(p_get_curr_task_handle(tA, &kA), ompd_rc_ok);
  RC(p_get_curr_task_handle(tB, &kB), ompd_rc_ok);
  RC(p_get_curr_task_handle(tC, &kC), ompd_rc_ok);
  if (!kA || !kB || !kC) return;
  RC(p_get_generating_task_handle(kC, &gen), ompd_rc_ok);
  RC(p_get_scheduling_task_handle(kC, &sched), ompd_rc_ok);
  RC(p_get_task_in_parallel(pC, 0, &imp), ompd_rc_ok);
  if (!gen || !sched || !imp) return;
  CHECK(cmp_task(gen, imp) == 0, "C's task was generated by C's implicit task");
  CHECK(cmp_task(sched, imp) == 0, "an undeferred task's scheduling task is its generator");
  CHECK(cmp_task(kC, imp) != 0, "C runs an explicit task");
  fn = (ompd_address_t){0, 0};
  RC(p_get_task_function(kC, &fn), debug || clang_target ? ompd_rc_ok : ompd_rc_unavailable);
  CHECK(!(debug || clang_target) || fn.address == task_fn,
        "explicit task function %#lx, expected spawn_task's body %#lx", (long)fn.address,
        (long)task_fn);
  RC(p_get_task_function(imp, &fn), ompd_rc_ok);
  CHECK(fn.address == inner_fn, "implicit task function %#lx, expected inner_region's body %#lx",
        (long)fn.address, (long)inner_fn);
  RC(p_get_task_function(kB, &fn), ompd_rc_ok);
  CHECK(fn.address == inner_fn, "B's implicit task function");
  {
    ompd_task_handle_t *o0 = NULL, *o1 = NULL, *g = NULL;
    RC(p_get_task_in_parallel(outer, 0, &o0), ompd_rc_ok);
    RC(p_get_task_in_parallel(outer, 1, &o1), ompd_rc_ok);
    if (o0 && o1) {
      RC(p_get_task_function(o0, &fn), ompd_rc_ok);
      CHECK(fn.address == outer_fn, "outer implicit task 0's function %#lx, expected %#lx",
            (long)fn.address, (long)outer_fn);
      RC(p_get_task_function(o1, &fn), ompd_rc_ok);
      CHECK(fn.address == outer_fn, "outer implicit task 1's function");
      RC(p_get_generating_task_handle(imp, &g), ompd_rc_ok);
      CHECK(g && cmp_task(g, o1) == 0, "C's inner implicit task was generated by outer task 1");
    }
  }
  RC(p_get_task_in_parallel(root, 0, &init), ompd_rc_ok);
  if (!init) return;
  RC(p_get_task_function(init, &fn), ompd_rc_unavailable); /* an initial task */
  RC(p_get_generating_task_handle(init, &none_t), ompd_rc_unavailable);
  RC(p_get_scheduling_task_handle(imp, &none_t), ompd_rc_unavailable);
  RC(p_get_task_in_parallel(pC, 2, &none_t), ompd_rc_bad_input);
  RC(p_get_task_in_parallel(pC, 0, NULL), ompd_rc_bad_input);
  {
    ompd_parallel_handle_t *tp = NULL;
    RC(p_get_task_parallel_handle(kC, &tp), ompd_rc_ok);
    CHECK(tp && cmp_par(tp, pC) == 0, "C's explicit task binds to C's region");
    RC(p_get_task_parallel_handle(init, &tp), ompd_rc_ok);
    CHECK(tp && cmp_par(tp, root) == 0, "the initial task binds to the implicit region");
    RC(p_get_task_parallel_handle(NULL, &tp), ompd_rc_stale_handle);
  }
  {
    ompd_frame_info_t ex, en;
    RC(p_get_task_frame(kC, &ex, &en), ompd_rc_ok);
    CHECK(!debug || (ex.frame_address.address != 0 &&
                     ex.frame_flag == (ompt_frame_runtime | ompt_frame_framepointer)),
          "a running task's exit frame (runtime) %#lx", (long)ex.frame_address.address);
    RC(p_get_task_frame(imp, &ex, &en), ompd_rc_ok);
    CHECK(!debug || en.frame_address.address != 0,
          "C's implicit task, suspended in the task: enter frame");
    RC(p_get_task_frame(kC, NULL, &en), ompd_rc_bad_input);
  }
  CHECK(cmp_task(kA, kB) != 0, "A and B run different implicit tasks");
  RC(p_task_handle_compare(kA, NULL, &(int){0}), ompd_rc_stale_handle);

  /* ---- ICVs ------------------------------------------------------------------------------ */
  {
    ompd_icv_id_t cur = ompd_icv_undefined, next;
    const char *name;
    ompd_scope_t sc;
    int more = 1, n = 0;
    while (more && p_enumerate_icvs(as, cur, &next, &name, &sc, &more) == ompd_rc_ok && n < 200) {
      n++;
      cur = next;
    }
    CHECK(n >= 20 && !more, "%d ICVs", n);
    RC(p_enumerate_icvs(as, cur, &next, &name, &sc, &more), ompd_rc_bad_input);
    RC(p_enumerate_icvs(NULL, 0, &next, &name, &sc, &more), ompd_rc_stale_handle);
  }
  /* from the environment (OMP_SCHEDULE=dynamic,3 OMP_NUM_THREADS=2,2 ...) and the API */
  icv_str_is(kB, "run-sched-var", ompd_scope_task, "dynamic,3");
  icv_str_is(kA, "run-sched-var", ompd_scope_task, "guided,7"); /* omp_set_schedule */
  CHECK(icv(kA, "run-sched-var", ompd_scope_task) == 3, "guided");
  icv_str_is(init, "nthreads-var", ompd_scope_task, "2,2");
  icv_str_is(kA, "nthreads-var", ompd_scope_implicit_task, "2");
  CHECK(icv(kA, "max-active-levels-var", ompd_scope_task) == 4, "OMP_MAX_ACTIVE_LEVELS");
  CHECK(icv(kA, "thread-limit-var", ompd_scope_task) == 16, "OMP_THREAD_LIMIT");
  CHECK(icv(kB, "thread-num-var", ompd_scope_task) == 1, "B's thread number");
  CHECK(icv(kC, "dyn-var", ompd_scope_task) == 1 && icv(kB, "dyn-var", ompd_scope_task) == 0,
        "omp_set_dynamic(1) in C's implicit task, inherited by its task");
  CHECK(icv(kC, "explicit-task-var", ompd_scope_task) == 1 &&
            icv(kC, "implicit-task-var", ompd_scope_task) == 0 &&
            icv(imp, "implicit-task-var", ompd_scope_task) == 1,
        "implicit/explicit-task-var");
  CHECK(icv(kC, "final-task-var", ompd_scope_task) == 0, "final-task-var");
  CHECK(icv(as, "debug-var", ompd_scope_global) == debug, "debug-var");
  CHECK(icv(as, "cancel-var", ompd_scope_global) == 0, "cancel-var");
  CHECK(icv(as, "wait-policy-var", ompd_scope_address_space) == 0, "OMP_WAIT_POLICY=passive");
  icv_str_is(as, "wait-policy-var", ompd_scope_address_space, "passive");
  icv_str_is(as, "debug-var", ompd_scope_global, debug ? "enabled" : "disabled");
  {
    ompd_scope_t s;
    ompd_word_t v;
    const char *str = NULL;
    ompd_icv_id_t af = icv_id("affinity-format-var", &s), ts = icv_id("team-size-var", &s);
    RC(p_get_icv_from_scope(as, ompd_scope_address_space, af, &v), ompd_rc_incompatible);
    RC(p_get_icv_string_from_scope(as, ompd_scope_address_space, af, &str), ompd_rc_ok);
    CHECK(str && strstr(str, "%"), "affinity format '%s'", str ? str : "");
    RC(p_get_icv_from_scope(kA, ompd_scope_task, ts, &v), ompd_rc_bad_input); /* wrong scope */
    RC(p_get_icv_from_scope(kC, ompd_scope_implicit_task, icv_id("dyn-var", &s), &v),
       ompd_rc_bad_input); /* not an implicit task */
    RC(p_get_icv_from_scope(pA, ompd_scope_parallel, 999, &v), ompd_rc_bad_input);
    RC(p_get_icv_from_scope(pA, ompd_scope_parallel, ts, NULL), ompd_rc_bad_input);
    RC(p_get_icv_from_scope(NULL, ompd_scope_parallel, ts, &v), ompd_rc_stale_handle);
    RC(p_get_icv_string_from_scope(pA, ompd_scope_parallel, ts, NULL), ompd_rc_bad_input);
  }
  {
    const char *const *vars = NULL;
    RC(p_get_display_control_vars(as, &vars), ompd_rc_ok);
    int sched = 0, dvar = 0, n = 0;
    for (; vars && vars[n]; n++) {
      sched |= !strcmp(vars[n], "OMP_SCHEDULE='dynamic,3'");
      dvar |= !strcmp(vars[n], debug ? "OMP_DEBUG='enabled'" : "OMP_DEBUG='disabled'");
    }
    CHECK(sched && dvar && n > 10, "display control vars (%d)", n);
    RC(p_rel_display_control_vars(&vars), ompd_rc_ok);
    CHECK(vars == NULL, "released");
    RC(p_rel_display_control_vars(&vars), ompd_rc_bad_input);
    RC(p_get_display_control_vars(NULL, &vars), ompd_rc_stale_handle);
  }
  /* ---- tool data (no tool: zero) ----------------------------------------------------------- */
  {
    ompd_word_t v = -1;
    ompd_address_t a = {0, 0};
    RC(p_get_tool_data(tA, ompd_scope_thread, &v, &a), ompd_rc_ok);
    CHECK(v == 0 && a.address, "thread data");
    RC(p_get_tool_data(pA, ompd_scope_parallel, &v, &a), ompd_rc_ok);
    RC(p_get_tool_data(root, ompd_scope_parallel, &v, &a), ompd_rc_ok);
    RC(p_get_tool_data(kC, ompd_scope_task, &v, &a), ompd_rc_ok);
    RC(p_get_tool_data(imp, ompd_scope_implicit_task, &v, &a), ompd_rc_ok);
    RC(p_get_tool_data(as, ompd_scope_address_space, &v, &a), ompd_rc_bad_input);
    RC(p_get_tool_data(tA, ompd_scope_thread, NULL, &a), ompd_rc_bad_input);
    RC(p_get_tool_data(kC, ompd_scope_thread, &v, &a), ompd_rc_stale_handle); /* not a thread */
  }
}

int main(int argc, char **argv) {
  if (argc != 6 && !(argc == 7 && !strcmp(argv[6], "clang"))) {
    fprintf(stderr, "usage: ompd_api TARGET outer_fn inner_fn task_fn phase [clang]\n");
    return 2;
  }
  clang_target = argc == 7;
  outer_fn = strtoull(argv[2], NULL, 16), inner_fn = strtoull(argv[3], NULL, 16),
  task_fn = strtoull(argv[4], NULL, 16);
  uint64_t phase_addr = strtoull(argv[5], NULL, 16);
  int fd[2];
  if (pipe(fd)) return 2;
  target = fork();
  if (target == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    execl(argv[1], argv[1], (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  from_target = fdopen(fd[0], "r");
  read_until("READY");

  struct _ompd_aspace_cont ctx = {.pid = target};
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/mem", (int)target);
  ctx.mem = open(path, O_RDWR);
  CHECK(ctx.mem >= 0 && find_lib(target, &ctx) == 0, "target memory / libtomp mapping");
  if (fails) goto end;

  /* ---- the library the target names --------------------------------------------------- */
  uint64_t locs_addr = elf_dynsym(ctx.lib, "ompd_dll_locations"), locs, p;
  CHECK(locs_addr && elf_dynsym(ctx.lib, "ompd_dll_locations_valid") &&
            elf_dynsym(ctx.lib, "ompd_bp_parallel_begin") &&
            elf_dynsym(ctx.lib, "ompd_bp_task_end") && elf_dynsym(ctx.lib, "ompd_bp_thread_end"),
        "runtime-side symbols in the dynamic symbol table");
  CHECK(elf_dynsym(ctx.lib, "omp_get_thread_num") && !elf_dynsym(ctx.lib, "tomp_fork"),
        "a stripped libtomp");
  pread(ctx.mem, &locs, 8, (off_t)(ctx.base + locs_addr));
  char lib[4096] = "";
  const char *dbg = getenv("OMP_DEBUG");
  debug = dbg && !strcmp(dbg, "enabled");
  CHECK(debug ? locs != 0 : locs == 0, "ompd_dll_locations is set with OMP_DEBUG=enabled only");
  if (!debug && getenv("OMPD_LIB")) snprintf(lib, sizeof lib, "%s", getenv("OMPD_LIB"));
  for (int i = 0; locs && i < 4; i++) {
    ompd_address_t a = {0, 0};
    pread(ctx.mem, &p, 8, (off_t)(locs + 8 * i));
    if (!p) break;
    a.address = p;
    char name[4096];
    cb_read_string(&ctx, NULL, &a, sizeof name, name);
    if (name[0] == '/') snprintf(lib, sizeof lib, "%s", name);
    if (i == 0) CHECK(!strcmp(name, "libtompd.so"), "first location %s", name);
  }
  void *dl = lib[0] ? dlopen(lib, RTLD_NOW) : NULL;
  CHECK(dl != NULL, "dlopen(%s): %s", lib, dlerror());
  if (!dl) goto end;
  int nsyms = 0;
#define F(name)                                                                                    \
  p_##name = (__typeof__(p_##name))dlsym(dl, "ompd_" #name);                                       \
  nsyms += p_##name != NULL;
  OMPD_FUNCS(F)
#undef F
  CHECK(nsyms == 35, "%d of 35 entry points", nsyms);
  if (nsyms != 35) goto end;

  /* ---- set-up ---------------------------------------------------------------------------- */
  ompd_word_t ver = 0;
  const char *vs = NULL;
  RC(p_get_api_version(&ver), ompd_rc_ok);
  CHECK(ver == 202111, "api version %ld", (long)ver);
  RC(p_get_version_string(&vs), ompd_rc_ok);
  CHECK(vs && strstr(vs, "tomp"), "version string");
  RC(p_get_api_version(NULL), ompd_rc_bad_input);
  RC(p_get_version_string(NULL), ompd_rc_bad_input);
  RC(p_finalize(), ompd_rc_unsupported); /* not initialized yet */
  RC(p_process_initialize(&ctx, &as), ompd_rc_error);
  RC(p_initialize(202111, NULL), ompd_rc_bad_input);
  RC(p_initialize(199900, &callbacks), ompd_rc_unsupported);
  RC(p_initialize(202111, &callbacks), ompd_rc_ok);
  RC(p_process_initialize(NULL, &as), ompd_rc_bad_input);
  RC(p_process_initialize(&ctx, NULL), ompd_rc_bad_input);
  RC(p_process_initialize(&unknown_ctx, &as), ompd_rc_bad_input); /* a wrong context */
  RC(p_process_initialize(&ctx, &as), ompd_rc_ok);
  if (!as) goto end;
  ompd_word_t omp_ver = 0;
  const char *omp_vs = NULL;
  RC(p_get_omp_version(as, &omp_ver), ompd_rc_ok);
  CHECK(omp_ver == 202111, "_OPENMP %ld", (long)omp_ver);
  RC(p_get_omp_version_string(as, &omp_vs), ompd_rc_ok);
  CHECK(omp_vs && strstr(omp_vs, "tomp") && strstr(omp_vs, "5.2"), "omp version string %s",
        omp_vs ? omp_vs : "");
  RC(p_get_omp_version(NULL, &omp_ver), ompd_rc_stale_handle);
  RC(p_get_omp_version_string(as, NULL), ompd_rc_bad_input);
  ompd_address_space_handle_t *dev = NULL;
  uint64_t devid = 0;
  RC(p_device_initialize(as, &ctx, 1, sizeof devid, &devid, &dev), ompd_rc_unsupported);
  RC(p_device_initialize(NULL, &ctx, 1, sizeof devid, &devid, &dev), ompd_rc_stale_handle);
  RC(p_device_initialize(as, &ctx, 1, sizeof devid, &devid, NULL), ompd_rc_bad_input);

  /* the same state from a core file of the target (gcore), then live */
  char core[4200], cmd[13000];
  snprintf(core, sizeof core, "%s.core", argv[1]);
  snprintf(cmd, sizeof cmd, "gcore -o '%s' %d >/dev/null 2>&1 && mv '%s.%d' '%s'", core,
           (int)target, core, (int)target, core);
  static struct _ompd_aspace_cont corectx;
  ompd_address_space_handle_t *live = as;
  if (system(cmd) == 0 && core_open(core, &corectx) == 0) {
    int before = fails, n = checks;
    corectx.pid = target;
    RC(p_process_initialize(&corectx, &as), ompd_rc_ok);
    if (as != live) phase1();
    printf("core file: %d checks, %d failed\n", checks - n, fails - before);
    as = live;
    unlink(core);
  } else {
    printf("core file: skipped (gcore failed or the core is unreadable)\n");
  }
  phase1();
  if (fails) goto end;

  /* ---- phase 2: the regions end, every worker ends: stale handles -------------------------- */
  set_phase(&ctx, phase_addr, 1);
  read_until("PHASE2");
  {
    ompd_parallel_handle_t *ph = NULL;
    ompd_task_handle_t *tk = NULL;
    ompd_word_t s;
    RC(p_get_state(tB, &s, NULL), ompd_rc_stale_handle); /* B was a worker: it has ended */
    RC(p_get_curr_task_handle(tC, &tk), ompd_rc_stale_handle);
    RC(p_get_thread_in_parallel(pA, 0, &(ompd_thread_handle_t *){0}), ompd_rc_stale_handle);
    RC(p_get_enclosing_parallel_handle(pC, &ph), ompd_rc_stale_handle);
    if (debug) RC(p_get_task_function(kC, &fn), ompd_rc_stale_handle); /* (tiny: unknown) */
    RC(p_get_state(tA, &s, NULL), ompd_rc_ok); /* the initial thread goes on */
    CHECK(s == ompt_state_work_serial, "A after the regions: %#lx", (long)s);
    RC(p_get_curr_parallel_handle(tA, &ph), ompd_rc_ok);
    CHECK(ph && cmp_par(ph, root) == 0, "A is back in its implicit region");
    RC(p_rel_parallel_handle(pA), ompd_rc_ok);
    RC(p_rel_parallel_handle(pA), ompd_rc_stale_handle); /* released */
    RC(p_rel_task_handle(kC), ompd_rc_ok);
    RC(p_rel_task_handle(kC), ompd_rc_stale_handle); /* released */
    RC(p_get_task_frame(kC, &(ompd_frame_info_t){0}, &(ompd_frame_info_t){0}),
       ompd_rc_stale_handle);
  }

  /* ---- foreign and corrupt address spaces --------------------------------------------------- */
  {
    struct _ompd_aspace_cont foreign = ctx;
    ompd_address_space_handle_t *fas = NULL;
    foreign.fake_sym = "no such symbol";
    RC(p_process_initialize(&foreign, &fas), ompd_rc_incompatible); /* not tomp */
    /* a layout of an unknown version, then a corrupt one, in this process's memory */
    static unsigned char fake[4096];
    uint64_t lay = ctx.base + elf_dynsym(ctx.lib, "tomp_ompd_layout");
    pread(ctx.mem, fake, sizeof fake, (off_t)lay);
    char self[64];
    snprintf(self, sizeof self, "/proc/%d/mem", (int)getpid());
    foreign.mem = open(self, O_RDONLY);
    foreign.fake_sym = "tomp_ompd_layout";
    foreign.fake_addr = (uint64_t)(uintptr_t)fake;
    uint32_t v;
    memcpy(&v, fake + 8, 4);
    CHECK(v == 2, "layout version %u", v);
    v = 99;
    memcpy(fake + 8, &v, 4);
    RC(p_process_initialize(&foreign, &fas), ompd_rc_incompatible);
    /* a version 1 layout (as an older libtomp's: no runners) is still accepted: the library
     * goes on to the thread table (at the target's address, which this process's memory,
     * where the copy is, does not have), where version 99 stopped */
    v = 1;
    memcpy(fake + 8, &v, 4);
    uint32_t size1 = (uint32_t)TOMP_OMPD_LAYOUT_V1_SIZE, size2;
    memcpy(&size2, fake + 12, 4);
    memcpy(fake + 12, &size1, 4);
    ompd_rc_t rc1 = p_process_initialize(&foreign, &fas);
    CHECK(rc1 != ompd_rc_incompatible, "a version 1 layout refused: %d", rc1);
    if (rc1 == ompd_rc_ok) RC(p_rel_address_space_handle(fas), ompd_rc_ok);
    /* version 2 cut short to version 1's size: refused */
    v = 2;
    memcpy(fake + 8, &v, 4);
    RC(p_process_initialize(&foreign, &fas), ompd_rc_incompatible);
    memcpy(fake + 12, &size2, 4);
    v = 2;
    memcpy(fake + 8, &v, 4);
    /* the thread table at an address nothing is mapped at */
    uint64_t bad = 0x10000;
    memcpy(fake + 32, &bad, 8); /* thread_table (layout.h: after magic, version, sizes, string) */
    ompd_rc_t rc = p_process_initialize(&foreign, &fas);
    CHECK(rc == ompd_rc_device_read_error || rc == ompd_rc_incompatible, "unmapped table: %d", rc);
    /* a table whose header is right but whose count and chunks are garbage */
    static uint64_t table[4096 / 8 + 8];
    pread(ctx.mem, table, 32, (off_t)(ctx.base + elf_dynsym(ctx.lib, "tomp_thread_table")));
    uint32_t *w = (uint32_t *)table;
    w[3] = 5000; /* count */
    for (int i = 4; i < 512; i++)
      table[i] = 0x1000 + 8 * (uint64_t)i; /* chunk pointers */
    bad = (uint64_t)(uintptr_t)table;
    memcpy(fake + 32, &bad, 8);
    RC(p_process_initialize(&foreign, &fas), ompd_rc_ok);
    if (fas) {
      ompd_thread_handle_t *t = NULL;
      int lwp = roles['A'].lwp;
      rc = p_get_thread_handle(fas, 1, 4, &lwp, &t);
      CHECK(rc != ompd_rc_ok, "garbage thread table: %d", rc);
      w[3] = 0xffffffffu; /* more numbers than the table can hold */
      rc = p_get_thread_handle(fas, 1, 4, &lwp, &t);
      CHECK(rc == ompd_rc_error, "impossible thread count: %d", rc);
      RC(p_rel_address_space_handle(fas), ompd_rc_ok);
    }
    RC(p_rel_address_space_handle(NULL), ompd_rc_stale_handle);
  }
  RC(p_rel_thread_handle(tA), ompd_rc_ok);
  RC(p_rel_address_space_handle(as), ompd_rc_ok);
  RC(p_rel_address_space_handle(as), ompd_rc_stale_handle); /* released */
  RC(p_finalize(), ompd_rc_ok);
  CHECK(nfree > 10, "the library released memory through the callback (%d)", nfree);
  printf("%d reads\n", nreads);

end:
  if (target > 0) {
    kill(target, SIGKILL);
    waitpid(target, NULL, 0);
  }
  printf("%d checks, %d failed\n", checks, fails);
  return fails != 0;
}
