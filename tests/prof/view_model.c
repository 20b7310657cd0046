/* Unit test of the exporters (export-speedscope.c, export-pprof.c, export-chrome.c,
 * export-html.c) on a
 * profile model built by hand, before and independently of real recordings.
 * tests/prof/views_model.sh compiles it with the exporter sources, runs
 *   view_model DIR
 * and checks the files it writes (model.speedscope.json, model.pb.gz, model.trace.json,
 * model.html, and
 * the same for an empty profile, empty.*) with python3 and `go tool pprof`.
 *
 * The model: one process (pid 4242, 200 Hz), two threads.
 *   thread 0: main;outer;work_a 1.0 s work (blame 0.5), main;outer;omp barrier wait 0.25 s,
 *             main(line 12);weird-name 0.125 s work
 *   thread 1: main;outer;work_b 0.5 s work, main;outer;omp barrier wait 0.75 s, omp idle 0.1 s
 * Trace events: a region and implicit tasks, barrier waits and one instant.
 * Samples in time (the Chrome trace's stackFrames/samples): thread 0 in work_a at 10 ms and
 * 15 ms, in the barrier at 20 ms; thread 1 in work_b at 12 ms, idle at 30 ms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "profile.h"

/* Control characters, quotes, backslash, UTF-8 and one invalid byte: the JSON writers must
 * escape them (the checker expects the \xff to come back as U+FFFD). */
#define WEIRD_NAME "weird \"q\" \\ \xc3\xa9\t\x01 \xff end"

static tp_loc_t locs[] = {
    {"main", "/src/t.c", 10, TP_LOC_USER, "/tmp/app", 0x1100},
    {"outer", "/src/t.c", 20, TP_LOC_USER, "/tmp/app", 0x1200},
    {"work_a", "/src/t.c", 30, TP_LOC_USER, "/tmp/app", 0x1300},
    {"work_b", "/src/t.c", 40, TP_LOC_USER, "/tmp/app", 0x1400},
    {"omp barrier wait", NULL, 0, TP_LOC_OMP, NULL, 0},
    {"omp idle", NULL, 0, TP_LOC_OMP, NULL, 0},
    {WEIRD_NAME, "/src/dir \"q\"/w.c", 7, TP_LOC_USER, "/tmp/lib x.so", 0x50},
    {"main", "/src/t.c", 12, TP_LOC_USER, "/tmp/app", 0x1110},
};

static const uint32_t st_a[] = {0, 1, 2}, st_wait[] = {0, 1, 4}, st_weird[] = {7, 6},
                      st_b[] = {0, 1, 3}, st_idle[] = {5};

/* v: time, work, wait, blame, cpu */
static tp_stack_t stacks[] = {
    {0, 0, 3, st_a, {1.0, 1.0, 0, 0.5, 0.75}, 200},
    {0, 0, 3, st_wait, {0.25, 0, 0.25, 0, 0.25}, 50},
    {0, 0, 2, st_weird, {0.125, 0.125, 0, 0}, 25},
    {0, 1, 3, st_b, {0.5, 0.5, 0, 0}, 100},
    {0, 1, 3, st_wait, {0.75, 0, 0.75, 0}, 150},
    {0, 1, 1, st_idle, {0.1, 0, 0.1, 0}, 20},
};

static tp_thread_t threads[] = {
    {0, 0, 4242, 1, {1.375, 1.125, 0.25, 0.5, 1.0}, 275},
    {0, 1, 4243, 2, {1.35, 0.5, 0.85, 0}, 270},
};

static tp_proc_t procs[] = {
    {4242, -1, 200, "/tmp/app -n 3", "tomp 0.1 (test)", "/tmp/tomp-prof.4242.dat", 2.0, 545, 0},
};

static const uint32_t reg_path[] = {0, 1};
static const double reg_work[] = {1.0, 0.5};
static tp_region_t regions[] = {{2, reg_path, 1, 1.5, 2, reg_work, 1.0, 1.3333333333}};

/* sorted by (proc, thread, ts); the two slices starting together are given shortest first */
static tp_event_t events[] = {
    {0, 0, 0.001, 1.25, "implicit task outer", "work", 1},
    {0, 0, 0.001, 1.5, "parallel outer", "parallel", 1},
    {0, 0, 1.001, 0.25, "barrier wait", "sync", 1},
    {0, 1, 0.0012, 1.25, "implicit task outer", "work", 1},
    {0, 1, 0.3, -1, "task create", "task", 7},
    {0, 1, 0.5012, 0.75, "barrier wait", "sync", 1},
};

static tp_psample_t psamples[] = {
    {0, 0, 0, 0.010, 0.005}, {0, 0, 0, 0.015, 0.005}, {0, 0, 1, 0.020, 0.005},
    {0, 1, 3, 0.012, 0.005}, {0, 1, 5, 0.030, 0.010},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void write_all(const tp_profile_t *p, const char *dir, const char *base) {
  static const struct {
    const char *ext;
    int (*fn)(const tp_profile_t *, FILE *);
  } views[] = {{"speedscope.json", tp_export_speedscope}, {"pb.gz", tp_export_pprof},
               {"trace.json", tp_export_chrome}, {"html", tp_export_html}};
  for (size_t i = 0; i < N(views); i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s", dir, base, views[i].ext);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    CHECK(views[i].fn(p, f) == 0);
    CHECK(fclose(f) == 0);
  }
}

int main(int argc, char **argv) {
  CHECK(argc == 2);
  tp_profile_t p = {.procs = procs, .nprocs = N(procs), .locs = locs, .nlocs = N(locs),
                    .stacks = stacks, .nstacks = N(stacks), .threads = threads,
                    .nthreads = N(threads), .regions = regions, .nregions = N(regions),
                    .events = events, .nevents = N(events), .psamples = psamples,
                    .npsamples = N(psamples)};
  write_all(&p, argv[1], "model");
  tp_profile_t empty;
  memset(&empty, 0, sizeof empty);
  write_all(&empty, argv[1], "empty");
  puts("view_model: wrote model.* and empty.*");
  return 0;
}
