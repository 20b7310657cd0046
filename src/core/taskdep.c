/* Task dependences between sibling tasks.
 *
 * Each parent keeps a hash table from address to an entry holding two "groups" of its
 * unfinished children that named the address: the current group and the one before it.
 * A group is either one out/inout task, or any number of consecutive tasks of the same
 * kind among in, mutexinoutset and inoutset.  A new task joins the current group when its
 * kind allows, otherwise it starts a new group and the current one becomes the previous;
 * either way it depends on the members of the previous group.  Older groups are forgotten:
 * every member of the current group already depends on them, so ordering is transitive,
 * and a group only empties after its predecessors finished.  Finished tasks unlink their
 * nodes, so the table only references live tasks.
 *
 * omp_all_memory (TOMP_DEP_OUT_ALL / INOUT_ALL) matches every list item: "The storage location
 * of a list item matches the storage location of another list item if they have the same
 * storage location, or if any of the list items is omp_all_memory" (OpenMP 5.1 2.19.11, 5.2
 * 15.9.5).  Only tasks with dependences take part: a sibling without any is not ordered.
 * Such a task depends on every node of every entry (all earlier siblings with dependences
 * that may still be unfinished) and on the previous all-memory task, then the entries are
 * forgotten, as older groups are: it follows all of them and every later task with a
 * dependence depends on it while it lives (the table's `all` entry holds it).  Its other
 * dependences add nothing, so they stay out of the table.
 *
 * mutexinoutset members additionally exclude each other: a task takes ownership of all its
 * mutexinoutset entries at once when it is about to start, or is parked on the entry that
 * is busy and re-queued when that entry is released (no hold-and-wait, so no deadlock).
 *
 * Everything here runs under the team's task lock.  Releasing successors is a loop over an
 * array, never a recursion, so a chain of any length is fine. */
#include <stdlib.h>

#include "task.h"

/* Events: the dependences of a new task (once, when it registers them) */
static void ompt_dependences_(tomp_xtask_t *x, const tomp_depend_t *deps, size_t n) {
  if (!TOMP_EV_WANTED(TOMP_EV_DEPENDENCES) || n == 0) return;
  ompt_dependence_t buf[16], *d = n <= 16 ? buf : tomp_malloc(n * sizeof *d);
  for (size_t i = 0; i < n; i++) {
    d[i].variable.ptr = deps[i].addr;
    switch (deps[i].kind) {
    case TOMP_DEP_IN: d[i].dependence_type = ompt_dependence_type_in; break;
    case TOMP_DEP_OUT: d[i].dependence_type = ompt_dependence_type_out; break;
    case TOMP_DEP_MUTEXINOUTSET: d[i].dependence_type = ompt_dependence_type_mutexinoutset; break;
    case TOMP_DEP_INOUTSET: d[i].dependence_type = ompt_dependence_type_inoutset; break;
    case TOMP_DEP_OUT_ALL: d[i].dependence_type = ompt_dependence_type_out_all_memory; break;
    case TOMP_DEP_INOUT_ALL: d[i].dependence_type = ompt_dependence_type_inout_all_memory; break;
    default: d[i].dependence_type = ompt_dependence_type_inout; break;
    }
  }
  tomp_ev_dependences_(&x->t, d, (int)n);
  if (d != buf) free(d);
}

static inline void ompt_dependences(tomp_xtask_t *x, const tomp_depend_t *deps, size_t n) {
  if (tomp_listening()) ompt_dependences_(x, deps, n);
}

/* Events: an edge between two sibling tasks; the successor may be the stand-in of a
 * `taskwait depend` (announced as a task with the ompt_task_taskwait flag) */
static inline void ompt_task_dependence(tomp_xtask_t *pred, tomp_xtask_t *succ) {
  if (tomp_listening() && TOMP_EV_WANTED(TOMP_EV_TASK_DEPENDENCE))
    tomp_ev_task_dependence_(&pred->t, &succ->t);
}

typedef struct tomp_depent {
  struct tomp_depent *hnext;
  void *addr;
  int kind;                   /* kind of the current group, 0 before any */
  tomp_depnode_t *cur, *prev; /* the current and the previous group */
  tomp_xtask_t *mowner;       /* mutexinoutset: the member running now */
  tomp_xtask_t *mwait;        /* parked members, linked through lq.next */
} tomp_depent_t;

typedef struct tomp_deptab {
  size_t nb, n;               /* buckets (power of two), entries */
  tomp_depent_t **b;
  tomp_depent_t all;          /* cur: the unfinished all-memory task, if any (not hashed) */
} tomp_deptab_t;

static size_t bucket(const tomp_deptab_t *t, const void *addr) {
  uint64_t v = (uint64_t)(uintptr_t)addr * 0x9E3779B97F4A7C15ull;
  return (size_t)(v >> 32) & (t->nb - 1);
}

static bool idle(const tomp_depent_t *e) {
  return !e->cur && !e->prev && !e->mowner && !e->mwait;
}

/* Double the table, dropping entries nobody references any more. */
static void grow(tomp_deptab_t *t) {
  size_t onb = t->nb;
  tomp_depent_t **ob = t->b;
  t->nb = onb * 2;
  t->b = tomp_calloc(t->nb, sizeof *t->b);
  t->n = 0;
  for (size_t i = 0; i < onb; i++) {
    tomp_depent_t *e = ob[i], *nx;
    for (; e; e = nx) {
      nx = e->hnext;
      if (idle(e)) {
        free(e);
        continue;
      }
      size_t h = bucket(t, e->addr);
      e->hnext = t->b[h];
      t->b[h] = e;
      t->n++;
    }
  }
  free(ob);
}

static tomp_deptab_t *table(tomp_pinfo_t *p) {
  tomp_deptab_t *t = p->deps;
  if (!t) {
    p->deps = t = tomp_calloc(1, sizeof *t);
    t->nb = 16;
    t->b = tomp_calloc(t->nb, sizeof *t->b);
  }
  return t;
}

static tomp_depent_t *lookup(tomp_deptab_t *t, void *addr) {
  size_t h = bucket(t, addr);
  for (tomp_depent_t *e = t->b[h]; e; e = e->hnext)
    if (e->addr == addr) return e;
  if (t->n >= t->nb) {
    grow(t);
    h = bucket(t, addr);
  }
  tomp_depent_t *e = tomp_calloc(1, sizeof *e);
  e->addr = addr;
  e->hnext = t->b[h];
  t->b[h] = e;
  t->n++;
  return e;
}

void tomp_dep_table_free(tomp_pinfo_t *p) {
  tomp_deptab_t *t = p->deps;
  if (!t) return;
  for (size_t i = 0; i < t->nb; i++) {
    tomp_depent_t *e = t->b[i], *nx;
    for (; e; e = nx) {
      nx = e->hnext;
      free(e);
    }
  }
  free(t->b);
  free(t);
  p->deps = NULL;
}

static void add_edge(tomp_xtask_t *pred, tomp_xtask_t *succ) {
  /* A task registers all its dependences at once under the lock, so an edge it already has
   * from pred is pred's last: one edge per pair, however many items they share (as libomp) */
  if (pred == succ || (pred->nsucc && pred->succ[pred->nsucc - 1] == succ)) return;
  if (pred->nsucc == pred->capsucc) {
    uint32_t cap = pred->capsucc * 2;
    tomp_xtask_t **a = tomp_malloc(cap * sizeof *a);
    for (uint32_t i = 0; i < pred->nsucc; i++) a[i] = pred->succ[i];
    if (pred->succ != pred->succ_inline) free(pred->succ);
    pred->succ = a;
    pred->capsucc = cap;
  }
  pred->succ[pred->nsucc++] = succ;
  succ->npred++;
  ompt_task_dependence(pred, succ);
}

static void push(tomp_depnode_t **head, tomp_depnode_t *n, uint8_t where) {
  n->prev = NULL;
  n->next = *head;
  if (*head) (*head)->prev = n;
  *head = n;
  n->where = where;
}

static void unlink_node(tomp_depnode_t *n) {
  tomp_depent_t *e = n->ent;
  tomp_depnode_t **head = n->where == 1 ? &e->cur : &e->prev;
  if (n->prev)
    n->prev->next = n->next;
  else
    *head = n->next;
  if (n->next) n->next->prev = n->prev;
  n->next = n->prev = NULL;
  n->where = 0;
}

static bool is_all(int kind) {
  return kind == TOMP_DEP_OUT_ALL || kind == TOMP_DEP_INOUT_ALL;
}

/* Edges from every node of a group, which is then forgotten (x follows its members) */
static void forget_group(tomp_depnode_t **head, tomp_xtask_t *x) {
  for (tomp_depnode_t *q = *head; q; q = q->next) {
    add_edge(q->task, x);
    q->where = 0;
  }
  *head = NULL;
}

/* x has an all-memory dependence: after every node of the table, which it then replaces. */
static void register_all(tomp_deptab_t *t, tomp_xtask_t *x, size_t n) {
  for (size_t i = 0; i < n; i++)
    x->deps[i] = (tomp_depnode_t){.task = x, .kind = TOMP_DEP_OUT_ALL};
  for (size_t i = 0; i < t->nb; i++) {
    for (tomp_depent_t **pe = &t->b[i]; *pe;) {
      tomp_depent_t *e = *pe;
      forget_group(&e->cur, x);
      forget_group(&e->prev, x);
      e->kind = 0;
      if (idle(e)) { /* mutexinoutset owners and parked members keep theirs */
        *pe = e->hnext;
        free(e);
        t->n--;
      } else {
        pe = &e->hnext;
      }
    }
  }
  forget_group(&t->all.cur, x);
  x->deps[0].ent = &t->all;
  push(&t->all.cur, &x->deps[0], 1);
}

void tomp_dep_register(tomp_pinfo_t *p, tomp_xtask_t *x, const tomp_depend_t *deps, size_t n) {
  x->ndeps = (uint32_t)n;
  ompt_dependences(x, deps, n);
  tomp_deptab_t *t = table(p);
  for (size_t i = 0; i < n; i++)
    if (tomp_unlikely(is_all(deps[i].kind))) {
      register_all(t, x, n);
      return;
    }
  if (tomp_unlikely(t->all.cur != NULL)) add_edge(t->all.cur->task, x);
  for (size_t i = 0; i < n; i++) {
    int kind = deps[i].kind == TOMP_DEP_INOUT ? TOMP_DEP_OUT : deps[i].kind;
    tomp_depent_t *e = lookup(t, deps[i].addr);
    tomp_depnode_t *nd = &x->deps[i];
    nd->task = x;
    nd->ent = e;
    nd->kind = (uint8_t)kind;
    nd->owned = 0;
    if (kind == TOMP_DEP_MUTEXINOUTSET) x->has_mutex = 1;
    if (kind == TOMP_DEP_OUT || e->kind != kind) {
      for (tomp_depnode_t *q = e->prev; q; q = q->next) q->where = 0;
      e->prev = e->cur;
      for (tomp_depnode_t *q = e->prev; q; q = q->next) q->where = 2;
      e->cur = NULL;
      e->kind = kind;
    }
    push(&e->cur, nd, 1);
    for (tomp_depnode_t *q = e->prev; q; q = q->next) add_edge(q->task, x);
  }
}

unsigned tomp_dep_complete(tomp_team_tasks_t *tt, tomp_xtask_t *x) {
  unsigned posted = 0;
  for (uint32_t i = 0; i < x->ndeps; i++) {
    tomp_depnode_t *nd = &x->deps[i];
    if (nd->where) unlink_node(nd);
    if (nd->owned) {
      tomp_depent_t *e = nd->ent;
      nd->owned = 0;
      e->mowner = NULL;
      tomp_xtask_t *w = e->mwait;
      e->mwait = NULL;
      while (w) {
        tomp_xtask_t *next = w->lq.next;
        w->lq.next = NULL;
        posted += tomp_task_make_ready(tt, w);
        w = next;
      }
    }
  }
  for (uint32_t i = 0; i < x->nsucc; i++) {
    tomp_xtask_t *s = x->succ[i];
    if (--s->npred == 0) posted += tomp_task_make_ready(tt, s);
  }
  x->nsucc = 0;
  return posted;
}

bool tomp_dep_mutex_acquire(tomp_xtask_t *x) {
  for (uint32_t i = 0; i < x->ndeps; i++) {
    tomp_depnode_t *nd = &x->deps[i];
    if (nd->kind != TOMP_DEP_MUTEXINOUTSET) continue;
    tomp_depent_t *e = nd->ent;
    if (e->mowner && e->mowner != x) {
      x->lq.next = e->mwait;
      e->mwait = x;
      tomp_store_rlx(&x->state, TOMP_XS_MUTEXWAIT);
      return false;
    }
  }
  for (uint32_t i = 0; i < x->ndeps; i++) {
    tomp_depnode_t *nd = &x->deps[i];
    if (nd->kind != TOMP_DEP_MUTEXINOUTSET || nd->ent->mowner == x) continue;
    nd->ent->mowner = x;
    nd->owned = 1;
  }
  return true;
}
