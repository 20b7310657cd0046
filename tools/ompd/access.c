/* The library's set-up and its only way to the target: the debugger's callbacks.  Address
 * spaces: the layout check (tompd.h, "the layout contract"). */
#include <string.h>

#include "tompd.h"

const ompd_callbacks_t *tompd_cb;

/* ---- reads ------------------------------------------------------------------------------ */

ompd_rc_t tompd_read(ompd_address_space_handle_t *as, uint64_t addr, void *buf, size_t n) {
  if (!tompd_cb) return ompd_rc_error;
  if (addr < 4096 || addr + n < addr) return ompd_rc_error; /* a corrupt pointer */
  ompd_address_t a = {ompd_segment_none, addr};
  ompd_rc_t rc = tompd_cb->read_memory(as->ctx, NULL, &a, n, buf);
  return rc == ompd_rc_ok ? rc : ompd_rc_device_read_error;
}

/* A scalar of the target, in the host's byte order (the debugger converts). */
static ompd_rc_t read_scalar(ompd_address_space_handle_t *as, uint64_t addr, void *v, size_t n) {
  unsigned char raw[8];
  ompd_rc_t rc = tompd_read(as, addr, raw, n);
  if (rc != ompd_rc_ok) return rc;
  if (tompd_cb->device_to_host) {
    rc = tompd_cb->device_to_host(as->ctx, raw, n, 1, v);
    return rc == ompd_rc_ok ? rc : ompd_rc_callback_error;
  }
  memcpy(v, raw, n);
  return ompd_rc_ok;
}
ompd_rc_t tompd_u64(ompd_address_space_handle_t *as, uint64_t addr, uint64_t *v) {
  return read_scalar(as, addr, v, 8);
}
ompd_rc_t tompd_u32(ompd_address_space_handle_t *as, uint64_t addr, uint32_t *v) {
  return read_scalar(as, addr, v, 4);
}
ompd_rc_t tompd_i32(ompd_address_space_handle_t *as, uint64_t addr, int32_t *v) {
  return read_scalar(as, addr, v, 4);
}
ompd_rc_t tompd_u8(ompd_address_space_handle_t *as, uint64_t addr, uint8_t *v) {
  return tompd_read(as, addr, v, 1);
}

ompd_rc_t tompd_string(ompd_address_space_handle_t *as, uint64_t addr, char *buf, size_t size) {
  if (size == 0) return ompd_rc_bad_input;
  if (addr < 4096) return ompd_rc_error;
  ompd_address_t a = {ompd_segment_none, addr};
  memset(buf, 0, size);
  ompd_callback_memory_read_fn_t rs =
      tompd_cb->read_string ? tompd_cb->read_string : tompd_cb->read_memory;
  /* read_string stops at the NUL; read_memory may fail across the end of a mapping, so
   * shrink until a read succeeds */
  size_t n = size - 1;
  ompd_rc_t rc;
  while ((rc = rs(as->ctx, NULL, &a, n, buf)) != ompd_rc_ok && n > 16)
    n /= 2;
  if (rc != ompd_rc_ok) return ompd_rc_device_read_error;
  buf[size - 1] = 0;
  return ompd_rc_ok;
}

ompd_rc_t tompd_alloc(size_t n, void *pp) {
  if (!tompd_cb || !tompd_cb->alloc_memory) return ompd_rc_error;
  void *p = NULL;
  if (tompd_cb->alloc_memory(n, &p) != ompd_rc_ok || !p) return ompd_rc_nomem;
  memset(p, 0, n);
  *(void **)pp = p;
  return ompd_rc_ok;
}

void tompd_free(void *p) {
  if (p && tompd_cb && tompd_cb->free_memory) tompd_cb->free_memory(p);
}

ompd_rc_t tompd_strdup(const char *s, const char **out) {
  char *p;
  size_t n = strlen(s) + 1;
  ompd_rc_t rc = tompd_alloc(n, &p);
  if (rc != ompd_rc_ok) return rc;
  memcpy(p, s, n);
  *out = p;
  return ompd_rc_ok;
}

bool tompd_as_ok(const ompd_address_space_handle_t *as) {
  return as && as->magic == TOMPD_AS_MAGIC && tompd_cb;
}

/* ---- the library ------------------------------------------------------------------------- */

TOMPD_EXPORT ompd_rc_t ompd_initialize(ompd_word_t api_version, const ompd_callbacks_t *callbacks) {
  if (!callbacks) return ompd_rc_bad_input;
  /* OMPD as of 5.0 (201811) through 5.2: the entry points this library offers kept their
   * signatures */
  if (api_version < 201811 || api_version > TOMPD_API_VERSION) return ompd_rc_unsupported;
  if (!callbacks->alloc_memory || !callbacks->free_memory || !callbacks->read_memory ||
      !callbacks->symbol_addr_lookup || !callbacks->sizeof_type)
    return ompd_rc_bad_input;
  tompd_cb = callbacks;
  return ompd_rc_ok;
}

TOMPD_EXPORT ompd_rc_t ompd_get_api_version(ompd_word_t *version) {
  if (!version) return ompd_rc_bad_input;
  *version = TOMPD_API_VERSION;
  return ompd_rc_ok;
}

static const char version_string[] =
    "tomp libtompd 0.1 (OpenMP 5.2 OMPD, host only; tomp layout versions 1 and 2)";

TOMPD_EXPORT ompd_rc_t ompd_get_version_string(const char **string) {
  if (!string) return ompd_rc_bad_input;
  *string = version_string;
  return ompd_rc_ok;
}

TOMPD_EXPORT ompd_rc_t ompd_finalize(void) {
  if (!tompd_cb) return ompd_rc_unsupported;
  tompd_cb = NULL;
  return ompd_rc_ok;
}

/* ---- address spaces ------------------------------------------------------------------------ */

/* The layout at addr: known magic and version, sane sizes and offsets. */
static ompd_rc_t layout_check(const tomp_ompd_layout_t *L) {
  if (L->magic != TOMP_OMPD_MAGIC || L->version < 1 || L->version > TOMP_OMPD_LAYOUT_VERSION ||
      L->layout_size < (L->version == 1 ? TOMP_OMPD_LAYOUT_V1_SIZE : sizeof *L) ||
      L->pointer_size != 8)
    return ompd_rc_incompatible;
  if (L->thread_size > 65536 || L->team_size > 65536 || L->task_size > 65536 ||
      L->icv_size > 4096 || L->global_size > 65536 || L->task_size == 0)
    return ompd_rc_incompatible;
    /* every field inside its structure (8 bytes: the largest type a field has) */
#define TOMPD_FIELD_IN_(s, f, t)                                                                   \
  if ((uint64_t)L->s##_##f + 8 > (uint64_t)L->s##_size + 8) return ompd_rc_incompatible;
  TOMP_OMPD_ALL_FIELDS(TOMPD_FIELD_IN_)
  TOMP_OMPD_V2_FIELDS(TOMPD_FIELD_IN_) /* zero in a version 1 layout: inside */
#undef TOMPD_FIELD_IN_
  /* runners: whole entries of the size version 2 has, a table of sane length (tompd_entry) */
  if (L->runners &&
      (L->runner_size != 16 || L->runners_end < L->runners ||
       (L->runners_end - L->runners) % 16 || (L->runners_end - L->runners) / 16 > TOMPD_MAX_RUNNERS))
    return ompd_rc_incompatible;
  return ompd_rc_ok;
}

TOMPD_EXPORT ompd_rc_t ompd_process_initialize(ompd_address_space_context_t *context,
                                               ompd_address_space_handle_t **handle) {
  if (!tompd_cb) return ompd_rc_error;
  if (!context || !handle) return ompd_rc_bad_input;
  ompd_device_type_sizes_t sz;
  /* the debugger's own answer that it does not know the context (LLVM's plug-in says
   * stale_handle) makes the context a bad argument; any other failure is the callback's */
  ompd_rc_t crc = tompd_cb->sizeof_type(context, &sz);
  if (crc == ompd_rc_bad_input || crc == ompd_rc_stale_handle) return ompd_rc_bad_input;
  if (crc != ompd_rc_ok) return ompd_rc_callback_error;
  if (sz.sizeof_pointer != 8 || sz.sizeof_int != 4 || sz.sizeof_long_long != 8)
    return ompd_rc_incompatible;
  ompd_address_t sym;
  if (tompd_cb->symbol_addr_lookup(context, NULL, "tomp_ompd_layout", &sym, NULL) != ompd_rc_ok)
    return ompd_rc_incompatible; /* not tomp (or a tomp without OMPD) */
  ompd_address_space_handle_t probe = {.magic = TOMPD_AS_MAGIC, .ctx = context};
  tomp_ompd_layout_t L;
  /* the version first: a later layout may be shorter or longer than ours */
  uint64_t magic;
  uint32_t version;
  ompd_rc_t rc = tompd_u64(&probe, sym.address, &magic);
  if (rc == ompd_rc_ok) rc = tompd_u32(&probe, sym.address + 8, &version);
  if (rc != ompd_rc_ok) return rc;
  if (magic != TOMP_OMPD_MAGIC || version < 1 || version > TOMP_OMPD_LAYOUT_VERSION)
    return ompd_rc_incompatible;
  /* all 64- and 32-bit words: convert each; version 1 ends where version 2's runners begin
   * (what it lacks stays zero: no runners) */
  memset(&L, 0, sizeof L);
  size_t have = version == 1 ? TOMP_OMPD_LAYOUT_V1_SIZE : sizeof L;
  uint32_t *w = (uint32_t *)&L;
  for (size_t i = 0; i < have / 4; i++)
    if ((rc = tompd_u32(&probe, sym.address + 4 * i, &w[i])) != ompd_rc_ok) return rc;
  if (version > 1 &&
      ((rc = tompd_u64(&probe, sym.address + offsetof(tomp_ompd_layout_t, runners),
                       &L.runners)) != ompd_rc_ok ||
       (rc = tompd_u64(&probe, sym.address + offsetof(tomp_ompd_layout_t, runners_end),
                       &L.runners_end)) != ompd_rc_ok))
    return rc;
  if ((rc = tompd_u64(&probe, sym.address, &L.magic)) != ompd_rc_ok) return rc;
  if ((rc = tompd_u64(&probe, sym.address + offsetof(tomp_ompd_layout_t, version_string),
                      &L.version_string)) != ompd_rc_ok ||
      (rc = tompd_u64(&probe, sym.address + offsetof(tomp_ompd_layout_t, thread_table),
                      &L.thread_table)) != ompd_rc_ok ||
      (rc = tompd_u64(&probe, sym.address + offsetof(tomp_ompd_layout_t, global), &L.global)) !=
          ompd_rc_ok)
    return rc;
  if ((rc = layout_check(&L)) != ompd_rc_ok) return rc;
  /* the thread table's header */
  tomp_thread_table_t hdr;
  if ((rc = tompd_u32(&probe, L.thread_table + offsetof(tomp_thread_table_t, version),
                      &hdr.version)) != ompd_rc_ok ||
      (rc = tompd_u32(&probe, L.thread_table + offsetof(tomp_thread_table_t, chunk_size),
                      &hdr.chunk_size)) != ompd_rc_ok ||
      (rc = tompd_u32(&probe, L.thread_table + offsetof(tomp_thread_table_t, max_chunks),
                      &hdr.max_chunks)) != ompd_rc_ok ||
      (rc = tompd_u32(&probe, L.thread_table + offsetof(tomp_thread_table_t, thread_size),
                      &hdr.thread_size)) != ompd_rc_ok)
    return rc;
  if (hdr.version != TOMP_THREAD_TABLE_VERSION || hdr.chunk_size == 0 ||
      hdr.chunk_size > (1u << 20) || (hdr.chunk_size & (hdr.chunk_size - 1)) ||
      hdr.max_chunks == 0 || hdr.max_chunks > (1u << 16) || hdr.thread_size != L.thread_size)
    return ompd_rc_incompatible;
  ompd_address_space_handle_t *as;
  if ((rc = tompd_alloc(sizeof *as, &as)) != ompd_rc_ok) return rc;
  as->magic = TOMPD_AS_MAGIC;
  as->ctx = context;
  as->L = L;
  as->chunk_size = hdr.chunk_size;
  as->max_chunks = hdr.max_chunks;
  as->chunks_addr = L.thread_table + offsetof(tomp_thread_table_t, chunks);
  *handle = as;
  return ompd_rc_ok;
}

/* tomp runs target regions on the host: there is no device address space to describe. */
TOMPD_EXPORT ompd_rc_t ompd_device_initialize(ompd_address_space_handle_t *process_handle,
                                              ompd_address_space_context_t *device_context,
                                              ompd_device_t kind, ompd_size_t sizeof_id, void *id,
                                              ompd_address_space_handle_t **device_handle) {
  if (!tompd_as_ok(process_handle)) return ompd_rc_stale_handle;
  if (!device_context || !device_handle || (sizeof_id && !id)) return ompd_rc_bad_input;
  return ompd_rc_unsupported;
}

TOMPD_EXPORT ompd_rc_t ompd_rel_address_space_handle(ompd_address_space_handle_t *handle) {
  if (!tompd_as_ok(handle)) return ompd_rc_stale_handle;
  handle->magic = 0;
  tompd_free(handle);
  return ompd_rc_ok;
}

TOMPD_EXPORT ompd_rc_t ompd_get_omp_version(ompd_address_space_handle_t *address_space,
                                            ompd_word_t *omp_version) {
  if (!tompd_as_ok(address_space)) return ompd_rc_stale_handle;
  if (!omp_version) return ompd_rc_bad_input;
  *omp_version = address_space->L.openmp_version;
  return ompd_rc_ok;
}

/* The runtime's own description, copied from the target; the debugger frees it
 * (free_memory). */
TOMPD_EXPORT ompd_rc_t ompd_get_omp_version_string(ompd_address_space_handle_t *address_space,
                                                   const char **string) {
  if (!tompd_as_ok(address_space)) return ompd_rc_stale_handle;
  if (!string) return ompd_rc_bad_input;
  char buf[256];
  ompd_rc_t rc = tompd_string(address_space, address_space->L.version_string, buf, sizeof buf);
  if (rc != ompd_rc_ok) return rc;
  return tompd_strdup(buf, string);
}
