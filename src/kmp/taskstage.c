/* Staging of clang tasks.  clang allocates a task, fills it and submits it in two calls, and
 * before the submit the runtime cannot know whether the task will be queued or run at once.
 * Without a tool, cancellation, detach or proxy, __kmpc_omp_task_alloc hands out an area of
 * the calling thread's staging stack instead of a core task: the submit then runs the task
 * at once in place (core's tiny task, as GOMP_task does) or defers it with one copy of the
 * area into core's block (tomp_task_defer), and releases the area; anything else (a
 * dependence, a tool that attached meanwhile) gets a core task and a copy (unstage), and an
 * if(0) task a core task that runs on the staged area in place.
 *
 * Areas are used last in, first out: a task's area is released at its submit, or after its
 * body when it runs at once, before the task that created it goes on.  An out-of-order
 * release only leaves its space in use until the thread has no staged task left.  A full
 * stack (deep recursion of tasks run at once) falls back to core tasks. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ktask.h"

__thread tomp_kmp_stage_t tomp_kmp_stage __attribute__((tls_model("initial-exec")));
static pthread_key_t stage_key;
static pthread_once_t stage_once = PTHREAD_ONCE_INIT;

static void stage_free(void *base) {
  free(base);
}
static void stage_key_init(void) {
  if (pthread_key_create(&stage_key, stage_free)) stage_key = (pthread_key_t)-1;
}

tomp_kmp_thdr_t *tomp_kmp_stage_first(size_t n) {
  tomp_kmp_stage_t *s = &tomp_kmp_stage;
  if (s->base) return NULL; /* full */
  pthread_once(&stage_once, stage_key_init);
  if (stage_key == (pthread_key_t)-1) return NULL;
  s->base = aligned_alloc(TOMP_CACHELINE, TOMP_KMP_STAGE_BYTES);
  if (!s->base) return NULL;
  pthread_setspecific(stage_key, s->base); /* freed when the thread ends */
  return tomp_kmp_stage_alloc(n);
}

void tomp_kmp_task_relocate(void *area, void *from) {
  tomp_kmp_thdr_t *h = area, *o = from;
  kmp_task_t *t = tomp_kmp_task_of(h), *ot = tomp_kmp_task_of(o);
  h->core = NULL;
  h->staged = 0;
  if (ot->shareds) t->shareds = (char *)t + ((char *)ot->shareds - (char *)ot);
}

tomp_task_spec_t tomp_kmp_task_spec(const tomp_kmp_thdr_t *h) {
  tomp_task_spec_t s = {0};
  s.fn = tomp_kmp_task_run;
  s.arg_size = h->size;
  s.arg_align = _Alignof(tomp_kmp_thdr_t);
  s.flags = ((h->kflags & KMP_TASK_TIED) ? 0 : TOMP_TF_UNTIED) |
            ((h->kflags & KMP_TASK_FINAL) ? TOMP_TF_FINAL : 0);
  /* a proxy task (an offloading runtime's) completes when __kmpc_proxy_task_completed says so,
   * as a detached task does when its event is fulfilled */
  s.detach = (h->kflags & (KMP_TASK_DETACHABLE | KMP_TASK_PROXY)) != 0;
  return s;
}

kmp_task_t *tomp_kmp_task_unstage(tomp_thread_t *thr, kmp_task_t *task, size_t ndeps) {
  tomp_kmp_thdr_t *h = tomp_kmp_thdr(task);
  if (!h->staged) return task;
  tomp_task_spec_t s = tomp_kmp_task_spec(h);
  s.ndeps = ndeps;
  void *area;
  tomp_task_t *ct = tomp_task_alloc(thr, &s, &area);
  memcpy(area, h, h->size);
  tomp_kmp_task_relocate(area, h);
  ((tomp_kmp_thdr_t *)area)->core = ct;
  tomp_kmp_stage_release(h);
  return tomp_kmp_task_of(area);
}

bool tomp_kmp_stage_submit(tomp_thread_t *thr, kmp_task_t *task, bool now) {
  tomp_kmp_thdr_t *h = tomp_kmp_thdr(task);
  if (tomp_unlikely(TOMP_LISTENING())) return false;
  unsigned tf = ((h->kflags & KMP_TASK_TIED) ? 0 : TOMP_TF_UNTIED) |
                ((h->kflags & KMP_TASK_FINAL) ? TOMP_TF_FINAL : 0);
  if (now || tomp_task_runs_at_once(thr, 0)) {
    /* an untied body finds itself by its task's data (tomp_kmp_task_submit), which the tiny
     * task leaves as the block's last user set it */
    if (tf & TOMP_TF_UNTIED)
      tomp_task_undeferred_quiet(thr, tomp_kmp_task_run, h, h->size, tf);
    else
      tomp_task_tiny(thr, tomp_kmp_task_run, h, h->size, tf);
  } else if ((tf & TOMP_TF_UNTIED) ||
             !tomp_task_try_short(thr, (void (*)(void *))(uintptr_t)task->routine,
                                  tomp_kmp_task_run, h, h->size, tf)) {
    /* deferred, unless its routine's tasks are short (as GOMP_task's by their function):
     * handing a tiny task to another thread costs more than running it */
    tomp_task_defer(thr, tomp_kmp_task_run, h, h->size, _Alignof(tomp_kmp_thdr_t), tf,
                    tomp_kmp_task_priority(task), tomp_kmp_task_relocate, h);
  }
  tomp_kmp_stage_release(h);
  return true;
}

tomp_task_t *tomp_kmp_stage_included(tomp_thread_t *thr, kmp_task_t *task) {
  tomp_kmp_thdr_t *h = tomp_kmp_thdr(task);
  tomp_task_spec_t s = tomp_kmp_task_spec(h);
  s.flags |= TOMP_TF_UNDEFERRED;
  s.in_place = h;
  void *area;
  tomp_task_t *ct = tomp_task_alloc(thr, &s, &area);
  if (area != (void *)h) tomp_fatal("core did not run an if(0) task in place");
  return ct;
}
