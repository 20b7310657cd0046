/* tomp-prof report test: data files written by hand (no recording), so that the loader's and
 * the stack builder's answers are known exactly.  Writes DIR/tomp-prof.1001.dat (complete)
 * and DIR/tomp-prof.1002.dat (no END record, last record cut short, an unknown record type).
 * `rep_fake DIR mpi` writes three MPI ranks instead (0, 10 and 2: files in version order)
 * whose stacks go through a fake MPI library (libmpi.so.40, and code unmapped by the end).
 * Frames are the addresses of this program's fake_* functions (+1: return addresses) and of
 * fake runtime, tool and libc modules added to the saved memory map; CFAs are made up but
 * ordered like a real stack (a callee's CFA below its caller's).  The test
 * tests/prof/report_fake.sh checks the folded output line by line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp-format.h"

#define RT 0x7f0000001000ull   /* "libgomp.so.1" */
#define TOOL 0x7f0000201000ull /* "libtomp-prof.so" */
#define LIBC 0x7f0000401000ull /* "libc.so.6" */
#define MPI 0x7f0000601000ull  /* "libmpi.so.40" */
#define GONE 0x7f0000801000ull /* unmapped: an MPI component unloaded before the end */

__attribute__((noinline)) void fake_leaf(void) { __asm__ volatile(""); }
__attribute__((noinline)) void fake_body(void) { fake_leaf(); __asm__ volatile(""); }
__attribute__((noinline)) void fake_creator(void) { fake_body(); __asm__ volatile(""); }
__attribute__((noinline)) void fake_main(void) { fake_creator(); __asm__ volatile(""); }

static uint64_t ra(void (*fn)(void)) { return (uint64_t)(uintptr_t)fn + 2; }

static char buf[1 << 16];
static size_t len;
static int32_t hdr_rank = -1;

static void *rec(uint32_t type, size_t size) {
  size = (size + 7) & ~(size_t)7;
  tp_rec_t *r = (tp_rec_t *)(buf + len);
  memset(r, 0, size);
  r->type = type;
  r->size = (uint32_t)size;
  len += size;
  return r;
}

static void header(int64_t pid) {
  const char cmd[] = "./fake\0arg";
  tp_header_t *h = rec(TP_REC_HEADER, sizeof *h + sizeof cmd);
  memcpy(h->magic, TP_MAGIC, 8);
  h->version = TP_VERSION;
  h->sample_hz = 100;
  h->pid = pid;
  h->rank = hdr_rank;
  h->start_ns = 1000000000ull;
  strcpy(h->runtime, "fake runtime 1.0");
  memcpy(h + 1, cmd, sizeof cmd);
}

static void thread(uint32_t t, uint32_t kind) {
  tp_thread_rec_t *r = rec(TP_REC_THREAD, sizeof *r);
  r->thread = t;
  r->kind = kind;
  r->tid = 5000 + t;
}

static tp_sample_t *sample(uint32_t t, uint32_t state, uint64_t ctx, const tp_frame_t *f, uint32_t n) {
  tp_sample_t *s = rec(TP_REC_SAMPLE, sizeof *s + n * sizeof *f);
  s->thread = t;
  s->state = state;
  s->ts_ns = 1000000000ull + 5000000ull * len;
  s->context = ctx;
  s->team_size = 1;
  s->frame_flags = 0x20 | 0x20 << 16; /* framepointer */
  s->flags = TP_SAMPLE_LEAF_EXACT;
  s->nframes = n;
  memcpy(s->frames, f, n * sizeof *f);
  return s;
}

static void maps(void) {
  char text[32768];
  FILE *f = fopen("/proc/self/maps", "r");
  size_t n = f ? fread(text, 1, sizeof text - 512, f) : 0;
  if (f) fclose(f);
  n += (size_t)snprintf(text + n, sizeof text - n,
                        "7f0000000000-7f0000100000 r-xp 00000000 00:00 0    /fake/lib/libgomp.so.1\n"
                        "7f0000200000-7f0000300000 r-xp 00000000 00:00 0    /fake/lib/libtomp-prof.so\n"
                        "7f0000400000-7f0000500000 r-xp 00000000 00:00 0    /fake/lib/libc.so.6\n"
                        "7f0000600000-7f0000700000 r-xp 00000000 00:00 0    /fake/lib/libmpi.so.40\n");
  tp_maps_t *m = rec(TP_REC_MAPS, sizeof *m + n);
  m->len = n;
  memcpy(m->text, text, n);
}

static void save(const char *dir, int64_t pid, size_t cut) {
  char path[4096];
  if (hdr_rank >= 0)
    snprintf(path, sizeof path, "%s/tomp-prof.r%d.%lld.dat", dir, hdr_rank, (long long)pid);
  else
    snprintf(path, sizeof path, "%s/tomp-prof.%lld.dat", dir, (long long)pid);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(buf, 1, len - cut, f) != len - cut || fclose(f)) {
    perror(path);
    exit(1);
  }
  len = 0;
}

/* MPI ranks: rank 0 waits inside MPI_Allreduce (libmpi -> unmapped component -> libc), once
 * of it inside a parallel region whose other thread waits at the barrier (the MPI call is
 * blamed), and runs a user reduction operator called back from MPI (the program's code:
 * work); ranks 10 and 2 compute. */
static void mpi_ranks(const char *dir) {
  static const int32_t ranks[] = {0, 10, 2};
  tp_frame_t serial[] = {{(uint64_t)(uintptr_t)fake_leaf, 0x1000}, {ra(fake_creator), 0x1100},
                         {ra(fake_main), 0x1200}, {LIBC + 0x10, 0x1300}};
  tp_frame_t wait[] = {{LIBC + 0x40, 0x0f00}, {GONE + 0x10, 0x0f80}, {MPI + 0x10, 0x1000},
                       {MPI + 0x20, 0x1100}, {ra(fake_main), 0x1200}, {LIBC + 0x10, 0x1300}};
  tp_frame_t op[] = {{(uint64_t)(uintptr_t)fake_leaf, 0x0f00}, {GONE + 0x20, 0x0f80},
                     {MPI + 0x20, 0x1100}, {ra(fake_main), 0x1200}, {LIBC + 0x10, 0x1300}};
  for (int i = 0; i < 3; i++) {
    hdr_rank = ranks[i];
    header(2001 + i);
    thread(0, 1);
    if (ranks[i] == 0) {
      thread(1, 2);
      sample(0, 0x000, 0, wait, 6);
      tp_sample_t *s = sample(0, 0x000, 0, wait, 6);
      s->region = 9; /* in a region (MPI_THREAD_MULTIPLE) while thread 1 waits at its barrier */
      s->team_size = 2;
      s->team_waiting = 1;
      sample(0, 0x000, 0, op, 5);
      tp_frame_t bar[] = {{LIBC + 0x30, 0x8050}, {RT + 0x30, 0x8100}, {ra(fake_main), 0x8300},
                          {LIBC + 0x20, 0x8400}};
      s = sample(1, 0x011, 0, bar, 4);
      s->region = 9;
      s->team_size = 2;
      s->team_waiting = 1;
    } else {
      sample(0, 0x000, 0, serial, 4);
    }
    maps();
    tp_end_t *e = rec(TP_REC_END, sizeof *e);
    e->end_ns = 1500000000ull;
    e->samples = ranks[i] == 0 ? 4 : 1;
    e->threads = ranks[i] == 0 ? 2 : 1;
    save(dir, 2001 + i, 0);
  }
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[2], "mpi")) {
    mpi_ranks(argv[1]);
    return 0;
  }
  if (argc != 2) return 2;
  fake_main();
  /* ---- process 1001: complete ---- */
  header(1001);
  thread(0, 1);
  thread(1, 2);
  /* initial thread in serial code: _start-side libc frames are dropped */
  tp_frame_t serial[] = {{(uint64_t)(uintptr_t)fake_leaf, 0x1000}, {ra(fake_creator), 0x1100},
                         {ra(fake_main), 0x1200}, {LIBC + 0x10, 0x1300}};
  sample(0, 0x000, 0, serial, 4);
  /* context 1: a parallel region created by fake_creator (enter frame = GOMP_parallel) */
  tp_frame_t cf[] = {{TOOL + 0x10, 0x0f00}, {RT + 0x10, 0x0f80}, {ra(fake_creator), 0x1100},
                     {ra(fake_main), 0x1200}, {LIBC + 0x10, 0x1300}};
  tp_context_t *c = rec(TP_REC_CONTEXT, sizeof *c + sizeof cf);
  c->id = 1;
  c->kind = TP_CTX_PARALLEL;
  c->enter_frame = 0x0f80 - 16;
  c->frame_flags = 0x20 | 0x20 << 16;
  c->nframes = 5;
  memcpy(c->frames, cf, sizeof cf);
  /* worker in the body: frames up to the runtime's dispatcher (exit frame) are the body's */
  tp_frame_t body[] = {{(uint64_t)(uintptr_t)fake_leaf, 0x8100}, {ra(fake_body), 0x8200}, {RT + 0x20, 0x8300},
                       {LIBC + 0x20, 0x8400}};
  tp_sample_t *s = sample(1, 0x001, 1, body, 4);
  s->exit_frame = 0x8300 - 16;
  s->region = 7;
  s->region_context = 1;
  s->team_size = 2;
  s->team_waiting = 1; /* undirected blame: 1 waiting of 2 -> 1 sample period */
  /* the same worker waiting for a lock called from the body (enter frame set) */
  tp_frame_t lk[] = {{LIBC + 0x30, 0x8050}, {RT + 0x30, 0x8080}, {ra(fake_body), 0x8200},
                     {RT + 0x20, 0x8300}, {LIBC + 0x20, 0x8400}};
  s = sample(1, 0x041, 1, lk, 5);
  s->exit_frame = 0x8300 - 16;
  s->enter_frame = 0x8080 - 16;
  s->region = 7;
  s->region_context = 1;
  s->team_size = 2;
  /* the worker in the region's closing barrier after its body returned: no exit frame */
  tp_frame_t bar[] = {{LIBC + 0x30, 0x8050}, {RT + 0x30, 0x8300}, {LIBC + 0x20, 0x8400}};
  s = sample(1, 0x011, 1, bar, 3);
  s->region = 7;
  s->region_context = 1;
  s->team_size = 2;
  /* idle between regions */
  sample(1, 0x100, 0, bar, 3);
  /* directed blame: 3 waiting samples charged to the releaser in the body */
  tp_frame_t rel[] = {{TOOL + 0x20, 0x0100}, {RT + 0x40, 0x0180}, {ra(fake_body), 0x0200},
                      {RT + 0x20, 0x0300}};
  tp_blame_t *b = rec(TP_REC_BLAME, sizeof *b + sizeof rel);
  b->thread = 0;
  b->kind = 1;
  b->samples = 3;
  b->context = 1;
  b->exit_frame = 0x0300 - 16;
  b->frame_flags = 0x20 | 0x20 << 16;
  b->nframes = 4;
  memcpy(b->frames, rel, sizeof rel);
  tp_region_rec_t *r = rec(TP_REC_REGION, sizeof *r);
  r->context = 1;
  r->instances = 2;
  r->wall_ns = 30000000;
  r->max_team = 2;
  rec(99, 24); /* a record type from the future: skipped */
  maps();
  tp_end_t *e = rec(TP_REC_END, sizeof *e);
  e->end_ns = 1500000000ull;
  e->samples = 5;
  e->threads = 2;
  save(argv[1], 1001, 0);

  /* ---- process 1002: killed: no END, the last record cut short, a lost context ---- */
  header(1002);
  maps();
  sample(0, 0x000, 0, serial, 4);
  sample(3, 0x001, 42, body, 4); /* thread 3 without a THREAD record, unknown context 42 */
  sample(0, 0x000, 0, serial, 4);
  save(argv[1], 1002, 40);
  return 0;
}
