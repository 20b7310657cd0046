/* Thread handles (from the thread table), thread ids, states and wait ids. */
#include <string.h>

#include "../../src/core/state_names.h"
#include "tompd.h"

bool tompd_thread_ok(const ompd_thread_handle_t *th) {
  return th && th->magic == TOMPD_TH_MAGIC && tompd_as_ok(th->as);
}

/* The table's entry for number g (0: none), and how many numbers were handed out. */
static ompd_rc_t table_count(ompd_address_space_handle_t *as, uint32_t *n) {
  ompd_rc_t rc = tompd_u32(as, as->L.thread_table + offsetof(tomp_thread_table_t, count), n);
  if (rc == ompd_rc_ok && *n > (uint64_t)as->chunk_size * as->max_chunks) return ompd_rc_error;
  return rc;
}
static ompd_rc_t table_entry(ompd_address_space_handle_t *as, uint32_t g, uint64_t *thr) {
  uint64_t chunk;
  ompd_rc_t rc = tompd_u64(as, as->chunks_addr + 8ull * (g / as->chunk_size), &chunk);
  if (rc != ompd_rc_ok) return rc;
  *thr = 0;
  if (!chunk) return ompd_rc_ok;
  return tompd_u64(as, chunk + 8ull * (g % as->chunk_size), thr);
}

ompd_rc_t tompd_thread_make(ompd_address_space_handle_t *as, uint64_t addr,
                            ompd_thread_handle_t **out) {
  uint32_t gtid;
  ompd_rc_t rc = tompd_u32(as, addr + as->L.thread_gtid, &gtid);
  if (rc != ompd_rc_ok) return rc;
  ompd_thread_handle_t *th;
  if ((rc = tompd_alloc(sizeof *th, &th)) != ompd_rc_ok) return rc;
  th->magic = TOMPD_TH_MAGIC;
  th->as = as;
  th->addr = addr;
  th->gtid = gtid;
  *out = th;
  return ompd_rc_ok;
}

ompd_rc_t tompd_thread_check(ompd_thread_handle_t *th) {
  uint32_t n;
  uint64_t e;
  ompd_rc_t rc = table_count(th->as, &n);
  if (rc != ompd_rc_ok) return rc;
  if (th->gtid >= n) return ompd_rc_stale_handle;
  if ((rc = table_entry(th->as, th->gtid, &e)) != ompd_rc_ok) return rc;
  return e == th->addr ? ompd_rc_ok : ompd_rc_stale_handle;
}

/* Thread ids: ompd_thread_id_pthread (0, a pthread_t) and ompd_thread_id_lwp (1, the
 * kernel's thread id, 4 or 8 bytes), the kinds of the OpenMP Additional Definitions. */
enum { TID_PTHREAD = 0, TID_LWP = 1 };

static ompd_rc_t id_of(ompd_address_space_handle_t *as, uint64_t thr, ompd_thread_id_t kind,
                       uint64_t *id) {
  if (kind == TID_PTHREAD) return tompd_u64(as, thr + as->L.thread_pthread, id);
  int32_t lwp;
  ompd_rc_t rc = tompd_i32(as, thr + as->L.thread_lwp, &lwp);
  *id = (uint64_t)(int64_t)lwp;
  return rc;
}

static ompd_rc_t id_arg(ompd_thread_id_t kind, ompd_size_t size, const void *p, uint64_t *id) {
  if (!p) return ompd_rc_bad_input;
  if (kind != TID_PTHREAD && kind != TID_LWP) return ompd_rc_unsupported;
  if (kind == TID_PTHREAD && size == 8) {
    memcpy(id, p, 8);
  } else if (kind == TID_LWP && (size == 4 || size == 8)) {
    int64_t v = 0;
    if (size == 4) {
      int32_t v4;
      memcpy(&v4, p, 4);
      v = v4;
    } else {
      memcpy(&v, p, 8);
    }
    *id = (uint64_t)v;
  } else {
    return ompd_rc_bad_input;
  }
  return ompd_rc_ok;
}

TOMPD_EXPORT ompd_rc_t ompd_get_thread_handle(ompd_address_space_handle_t *handle,
                                              ompd_thread_id_t kind, ompd_size_t sizeof_thread_id,
                                              const void *thread_id,
                                              ompd_thread_handle_t **thread_handle) {
  if (!tompd_as_ok(handle)) return ompd_rc_stale_handle;
  if (!thread_handle) return ompd_rc_bad_input;
  uint64_t want;
  ompd_rc_t rc = id_arg(kind, sizeof_thread_id, thread_id, &want);
  if (rc != ompd_rc_ok) return rc;
  uint32_t n;
  if ((rc = table_count(handle, &n)) != ompd_rc_ok) return rc;
  /* a chunk of entries per read */
  uint64_t buf[256];
  for (uint32_t g = 0; g < n;) {
    uint64_t chunk;
    if ((rc = tompd_u64(handle, handle->chunks_addr + 8ull * (g / handle->chunk_size), &chunk)) !=
        ompd_rc_ok)
      return rc;
    uint32_t in_chunk = handle->chunk_size - g % handle->chunk_size;
    uint32_t k = n - g < in_chunk ? n - g : in_chunk;
    if (k > 256) k = 256;
    if (!chunk) {
      g += k;
      continue;
    }
    if ((rc = tompd_read(handle, chunk + 8ull * (g % handle->chunk_size), buf, 8ull * k)) !=
        ompd_rc_ok)
      return rc;
    for (uint32_t i = 0; i < k; i++) {
      uint64_t thr = buf[i], id;
      if (tompd_cb->device_to_host) tompd_cb->device_to_host(handle->ctx, &buf[i], 8, 1, &thr);
      if (!thr || id_of(handle, thr, kind, &id) != ompd_rc_ok || id != want) continue;
      if ((rc = tompd_thread_make(handle, thr, thread_handle)) != ompd_rc_ok) return rc;
      if (tompd_cb->get_thread_context_for_thread_id)
        if (tompd_cb->get_thread_context_for_thread_id(handle->ctx, kind, sizeof_thread_id,
                                                       thread_id,
                                                       &(*thread_handle)->tctx) != ompd_rc_ok)
          (*thread_handle)->tctx = NULL;
      return ompd_rc_ok;
    }
    g += k;
  }
  return ompd_rc_unavailable; /* not an OpenMP thread (yet, or any more) */
}

TOMPD_EXPORT ompd_rc_t ompd_get_thread_id(ompd_thread_handle_t *thread_handle,
                                          ompd_thread_id_t kind, ompd_size_t sizeof_thread_id,
                                          void *thread_id) {
  if (!tompd_thread_ok(thread_handle)) return ompd_rc_stale_handle;
  if (!thread_id) return ompd_rc_bad_input;
  if (kind != TID_PTHREAD && kind != TID_LWP) return ompd_rc_unsupported;
  if ((kind == TID_PTHREAD && sizeof_thread_id != 8) ||
      (kind == TID_LWP && sizeof_thread_id != 4 && sizeof_thread_id != 8))
    return ompd_rc_bad_input;
  ompd_rc_t rc = tompd_thread_check(thread_handle);
  if (rc != ompd_rc_ok) return rc;
  uint64_t id;
  if ((rc = id_of(thread_handle->as, thread_handle->addr, kind, &id)) != ompd_rc_ok) return rc;
  if (sizeof_thread_id == 4) {
    int32_t v = (int32_t)id;
    memcpy(thread_id, &v, 4);
  } else {
    memcpy(thread_id, &id, 8);
  }
  return ompd_rc_ok;
}

TOMPD_EXPORT ompd_rc_t ompd_rel_thread_handle(ompd_thread_handle_t *thread_handle) {
  if (!tompd_thread_ok(thread_handle)) return ompd_rc_stale_handle;
  thread_handle->magic = 0;
  tompd_free(thread_handle);
  return ompd_rc_ok;
}

static int cmp_u64(uint64_t a, uint64_t b) {
  return (a > b) - (a < b);
}

TOMPD_EXPORT ompd_rc_t ompd_thread_handle_compare(ompd_thread_handle_t *thread_handle_1,
                                                  ompd_thread_handle_t *thread_handle_2,
                                                  int *cmp_value) {
  if (!tompd_thread_ok(thread_handle_1) || !tompd_thread_ok(thread_handle_2))
    return ompd_rc_stale_handle;
  if (!cmp_value) return ompd_rc_bad_input;
  *cmp_value = cmp_u64(thread_handle_1->addr, thread_handle_2->addr);
  return ompd_rc_ok;
}

/* ---- states ------------------------------------------------------------------------------ */

/* The states, as OMPT's ompt_enumerate_states gives them (src/core/state_names.h). */
static const struct {
  int value;
  const char *name;
} states[] = {
#define TOMPD_STATE_ROW_(st) {st, #st},
    TOMP_STATE_NAMES(TOMPD_STATE_ROW_)
#undef TOMPD_STATE_ROW_
};
#define NSTATES (sizeof states / sizeof states[0])

/* Start with current_state = ompt_state_undefined. */
TOMPD_EXPORT ompd_rc_t ompd_enumerate_states(ompd_address_space_handle_t *address_space_handle,
                                             ompd_word_t current_state, ompd_word_t *next_state,
                                             const char **next_state_name,
                                             ompd_word_t *more_enums) {
  if (!tompd_as_ok(address_space_handle)) return ompd_rc_stale_handle;
  if (!next_state || !next_state_name || !more_enums) return ompd_rc_bad_input;
  size_t i;
  if (current_state == ompt_state_undefined) {
    i = 0;
  } else {
    for (i = 0; i < NSTATES && states[i].value != current_state; i++)
      continue;
    if (i == NSTATES) return ompd_rc_bad_input;
    i++;
    if (i == NSTATES) return ompd_rc_bad_input; /* nothing follows the last one */
  }
  *next_state = states[i].value;
  *next_state_name = states[i].name;
  *more_enums = i + 1 < NSTATES;
  return ompd_rc_ok;
}

/* The wait id of a wait state is what the thread waits for: a lock's, critical section's or
 * atomic's lock word (the address OMPT's mutex callbacks report), ... */
TOMPD_EXPORT ompd_rc_t ompd_get_state(ompd_thread_handle_t *thread_handle, ompd_word_t *state,
                                      ompd_wait_id_t *wait_id) {
  if (!tompd_thread_ok(thread_handle)) return ompd_rc_stale_handle;
  if (!state) return ompd_rc_bad_input;
  ompd_rc_t rc = tompd_thread_check(thread_handle);
  if (rc != ompd_rc_ok) return rc;
  ompd_address_space_handle_t *as = thread_handle->as;
  int32_t st;
  uint64_t id = 0;
  if ((rc = tompd_i32(as, thread_handle->addr + as->L.thread_state, &st)) != ompd_rc_ok) return rc;
  if (wait_id &&
      (rc = tompd_u64(as, thread_handle->addr + as->L.thread_wait_id, &id)) != ompd_rc_ok)
    return rc;
  *state = st;
  if (wait_id) *wait_id = (st >= 0x10 && st < 0x100) ? id : 0;
  return ompd_rc_ok;
}
