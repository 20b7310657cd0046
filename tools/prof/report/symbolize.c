/* Address -> location, from the process's saved /proc/self/maps text (TP_REC_MAPS), with
 * elfutils' libdwfl: every mapped ELF file is reported at its load address
 * (dwfl_linux_proc_maps_report reads the maps text), function names come from the symbol
 * tables (dwfl_module_addrinfo), file:line from DWARF line tables (dwfl_module_getsrc).  C++
 * names are demangled with libstdc++'s __cxa_demangle when that library can be loaded.
 * Without a symbol a frame is named module+offset.  Each address is resolved once (cache).
 *
 * The same maps tell which addresses belong to the OpenMP runtime, to the tool and to the
 * system libraries: stacks.c cuts on those classes when the OMPT frames do not decide. */
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rep.h"

typedef struct map {
  uint64_t start, end, base; /* base: lowest start of the same file (load address) */
  const char *path;          /* interned; NULL for anonymous */
  int cls;
} map_t;

typedef struct cache_ent {
  uint64_t addr;
  uint32_t loc;
  int cls;
  int used;
  int chained;           /* chain resolved */
  uint32_t nchain;       /* inline chain: the symbol's function then the inlined ones */
  const uint32_t *chain; /* root first; NULL when nothing is inlined there */
} cache_ent_t;

struct rep_sym {
  rep_model_t *m;
  Dwfl *dwfl;
  map_t *maps;
  size_t nmaps, mapcap;
  cache_ent_t *cache;
  size_t ncache, cachesize;
};

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static int prefixed(const char *s, const char *pre) { return !strncmp(s, pre, strlen(pre)); }

/* The MPI library and what it brings: Open MPI (libmpi, libopen-pal, libopen-rte, its mca_*
 * components), MPICH and derivatives (libmpich, libmpi), PMI/PMIx, UCX, libfabric, PSM. */
static int mpi_path(const char *b) {
  static const char *const pre[] = {"libmpi.so", "libmpi_", "libmpich", "libmpl.so", "libopen-pal.so",
                                    "libopen-rte.so", "libpmix.so", "libpmi.so", "libpmi2.so",
                                    "mca_", "libmca_common_", "libucp.so", "libucs.so", "libuct.so",
                                    "libucm.so", "libfabric.so", "libpsm", "libprrte.so"};
  for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
    if (prefixed(b, pre[i])) return 1;
  return 0;
}

static int path_class(const char *path) {
  if (!path) return REP_CL_UNKNOWN;
  const char *b = base_name(path);
  if (prefixed(b, "libtomp-prof.so")) return REP_CL_TOOL;
  if (mpi_path(b)) return REP_CL_MPI;
  if (prefixed(b, "libgomp.so") || prefixed(b, "libtomp.so") || prefixed(b, "libomp.so") ||
      prefixed(b, "libiomp5.so") || prefixed(b, "libomptarget.so"))
    return REP_CL_RUNTIME;
  if (prefixed(b, "libc.so") || prefixed(b, "ld-linux") || prefixed(b, "libpthread.so") ||
      prefixed(b, "libgcc_s.so") || prefixed(b, "libdl.so") || prefixed(b, "librt.so") ||
      !strcmp(path, "[vdso]") || !strcmp(path, "[vsyscall]"))
    return REP_CL_SYSTEM;
  if (path[0] == '[') return REP_CL_UNKNOWN; /* [stack], [heap]: not code */
  return REP_CL_USER;
}

/* Copy the line at *p (up to end) into line, NUL-terminated and cut to cap - 1 characters;
 * advance *p past it.  False at the end of the text. */
static bool next_line(const char **p, const char *end, char *line, size_t cap) {
  if (*p >= end) return false;
  const char *start = *p;
  const char *nl = memchr(start, '\n', (size_t)(end - start));
  size_t n = nl ? (size_t)(nl - start) : (size_t)(end - start);
  *p = nl ? nl + 1 : end;
  if (n >= cap) n = cap - 1;
  memcpy(line, start, n);
  line[n] = 0;
  return true;
}

static void parse_maps(rep_sym_t *s, const char *text, size_t len) {
  const char *p = text, *end = text + len;
  char line[4200];
  while (next_line(&p, end, line, sizeof line)) {
    unsigned long long a, b, off;
    char perms[8];
    int pos = 0;
    if (sscanf(line, "%llx-%llx %7s %llx %*s %*s%n", &a, &b, perms, &off, &pos) < 4) continue;
    if (perms[2] != 'x') continue; /* code only */
    const char *path = line + pos;
    while (*path == ' ') path++;
    s->maps = rep_grow(s->maps, &s->mapcap, s->nmaps + 1, sizeof *s->maps);
    map_t *m = &s->maps[s->nmaps++];
    m->start = a;
    m->end = b;
    m->base = a - off; /* refined below from the file's lowest mapping */
    m->path = *path ? rep_str(s->m, path) : NULL;
    m->cls = path_class(m->path);
  }
  /* the load address of a file is the start of its mapping at offset 0 */
  p = text;
  while (next_line(&p, end, line, sizeof line)) {
    unsigned long long a, b, off;
    int pos = 0;
    if (sscanf(line, "%llx-%llx %*s %llx %*s %*s%n", &a, &b, &off, &pos) < 3 || off) continue;
    const char *path = line + pos;
    while (*path == ' ') path++;
    if (!*path) continue;
    for (size_t i = 0; i < s->nmaps; i++)
      if (s->maps[i].path && !strcmp(s->maps[i].path, path) && a < s->maps[i].start)
        s->maps[i].base = a;
  }
}

static const map_t *find_map(const rep_sym_t *s, uint64_t addr) {
  for (size_t i = 0; i < s->nmaps; i++)
    if (addr >= s->maps[i].start && addr < s->maps[i].end) return &s->maps[i];
  return NULL;
}

static char *demangle(const char *name) {
  static char *(*fn)(const char *, char *, size_t *, int *);
  static int tried;
  if (strncmp(name, "_Z", 2)) return NULL;
  if (!tried) {
    tried = 1;
    void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
    if (h) *(void **)&fn = dlsym(h, "__cxa_demangle");
  }
  if (!fn) return NULL;
  int status = 0;
  char *r = fn(name, NULL, NULL, &status);
  if (status) {
    free(r);
    return NULL;
  }
  return r;
}

rep_sym_t *rep_sym_new(rep_model_t *m, const char *maps, size_t len) {
  static char *debuginfo_path = NULL;
  static const Dwfl_Callbacks cb = {
      .find_elf = dwfl_linux_proc_find_elf,
      .find_debuginfo = dwfl_standard_find_debuginfo,
      .debuginfo_path = &debuginfo_path,
  };
  rep_sym_t *s = rep_alloc(sizeof *s);
  s->m = m;
  if (maps && len) {
    parse_maps(s, maps, len);
    s->dwfl = dwfl_begin(&cb);
    FILE *f = s->dwfl ? fmemopen((void *)maps, len, "r") : NULL;
    if (f) {
      dwfl_report_begin(s->dwfl);
      if (dwfl_linux_proc_maps_report(s->dwfl, f) != 0)
        fprintf(stderr, "tomp-prof report: could not use the memory map: %s\n", dwfl_errmsg(-1));
      dwfl_report_end(s->dwfl, NULL, NULL);
      fclose(f);
    }
  }
  return s;
}

void rep_sym_free(rep_sym_t *s) {
  if (!s) return;
  if (s->dwfl) dwfl_end(s->dwfl);
  free(s->maps);
  free(s->cache);
  free(s);
}

/* The compilation unit holding addr.  dwfl_module_addrdie finds it through .debug_aranges,
 * which clang does not emit (elfutils 0.188 then fails): scan the units' address ranges. */
static bool cu_of(Dwfl_Module *mod, uint64_t addr, Dwarf_Die *cu, Dwarf_Addr *bias) {
  Dwarf_Die *d = dwfl_module_addrdie(mod, addr, bias);
  if (d) {
    *cu = *d;
    return true;
  }
  Dwarf *dw = dwfl_module_getdwarf(mod, bias);
  if (!dw) return false;
  Dwarf_Off off = 0, next;
  size_t hsize;
  while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
    if (dwarf_offdie(dw, off + hsize, cu)) {
      Dwarf_Addr base, lo, hi;
      ptrdiff_t o = 0;
      while ((o = dwarf_ranges(cu, o, &base, &lo, &hi)) > 0)
        if (addr - *bias >= lo && addr - *bias < hi) return true;
    }
    off = next;
  }
  return false;
}

static const char *src_by_cu_scan(Dwfl_Module *mod, uint64_t addr, int *line) {
  Dwarf_Die cu;
  Dwarf_Addr bias = 0;
  if (!cu_of(mod, addr, &cu, &bias)) return NULL;
  Dwarf_Line *l = dwarf_getsrc_die(&cu, addr - bias);
  if (!l || dwarf_lineno(l, line) != 0) return NULL;
  return dwarf_linesrc(l, NULL, NULL);
}

static void resolve(rep_sym_t *s, uint64_t addr, cache_ent_t *e) {
  const map_t *mp = find_map(s, addr);
  e->cls = mp ? mp->cls : REP_CL_UNKNOWN;
  if (!mp) {
    e->loc = rep_loc(s->m, "[unknown]", NULL, 0, TP_LOC_UNKNOWN, NULL, addr);
    return;
  }
  Dwfl_Module *mod = s->dwfl ? dwfl_addrmodule(s->dwfl, addr) : NULL;
  const char *name = NULL, *file = NULL;
  int line = 0;
  if (mod) {
    GElf_Off off = 0;
    GElf_Sym sym;
    name = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
    Dwfl_Line *l = dwfl_module_getsrc(mod, addr);
    if (l) file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
    if (!file && mp->cls == REP_CL_USER) file = src_by_cu_scan(mod, addr, &line);
  }
  uint64_t rel = addr - mp->base;
  if (!name) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s+0x%" PRIx64, mp->path ? base_name(mp->path) : "?", rel);
    e->loc = rep_loc(s->m, buf, file, file ? (uint32_t)line : 0, TP_LOC_UNKNOWN, mp->path, rel);
    return;
  }
  if (!strcmp(name, "_start") || !strcmp(name, "__libc_start_main") ||
      !strcmp(name, "__libc_start_call_main"))
    e->cls = REP_CL_SYSTEM;
  /* an MPI entry point wherever it lives (a static MPI library, an interposed PMPI layer) */
  if (prefixed(name, "MPI_") || prefixed(name, "PMPI_")) e->cls = REP_CL_MPI;
  char *dm = demangle(name);
  e->loc = rep_loc(s->m, dm ? dm : name, file, file ? (uint32_t)line : 0, TP_LOC_USER, mp->path, rel);
  free(dm);
}

static cache_ent_t *lookup(rep_sym_t *s, uint64_t addr) {
  if (s->ncache * 2 >= s->cachesize) {
    size_t ns = s->cachesize ? s->cachesize * 2 : 4096;
    cache_ent_t *nc = rep_alloc(ns * sizeof *nc);
    for (size_t i = 0; i < s->cachesize; i++) {
      if (!s->cache[i].used) continue;
      size_t j = (s->cache[i].addr * 0x9e3779b97f4a7c15ull >> 20) & (ns - 1);
      while (nc[j].used) j = (j + 1) & (ns - 1);
      nc[j] = s->cache[i];
    }
    free(s->cache);
    s->cache = nc;
    s->cachesize = ns;
  }
  size_t j = (addr * 0x9e3779b97f4a7c15ull >> 20) & (s->cachesize - 1);
  while (s->cache[j].used && s->cache[j].addr != addr) j = (j + 1) & (s->cachesize - 1);
  cache_ent_t *e = &s->cache[j];
  if (!e->used) {
    e->used = 1;
    e->addr = addr;
    s->ncache++;
    resolve(s, addr, e);
  }
  return e;
}

uint32_t rep_sym_loc(rep_sym_t *s, uint64_t addr) { return lookup(s, addr)->loc; }

/* The name of an inlined subroutine (from its abstract origin): the linkage name demangled,
 * else DW_AT_name. */
static char *inline_name(Dwarf_Die *die) {
  Dwarf_Attribute at;
  const char *ln = NULL;
  if (dwarf_attr_integrate(die, DW_AT_linkage_name, &at) ||
      dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at))
    ln = dwarf_formstring(&at);
  char *dm = ln ? demangle(ln) : NULL;
  if (dm) return dm;
  const char *n = ln ? ln : dwarf_diename(die);
  return n ? strdup(n) : NULL;
}

static const char *call_file(Dwarf_Die *cu, Dwarf_Die *die) {
  Dwarf_Attribute at;
  Dwarf_Word idx;
  Dwarf_Files *files;
  size_t nfiles;
  if (!dwarf_attr(die, DW_AT_call_file, &at) || dwarf_formudata(&at, &idx) != 0) return NULL;
  if (dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || idx >= nfiles) return NULL;
  return dwarf_filesrc(files, idx, NULL, NULL);
}

static uint32_t call_line(Dwarf_Die *die) {
  Dwarf_Attribute at;
  Dwarf_Word v;
  return dwarf_attr(die, DW_AT_call_line, &at) && dwarf_formudata(&at, &v) == 0 ? (uint32_t)v : 0;
}

/* The subprogram DIE under `die` whose code holds pc, searched through the whole tree: gcc
 * nests an outlined construct body (fn._omp_fn.N) inside its parent function's DIE, whose
 * address range does not hold it, so dwarf_getscopes (which prunes by ranges) misses it. */
static bool find_subprogram(Dwarf_Die *die, Dwarf_Addr pc, Dwarf_Die *found, int depth) {
  Dwarf_Die c;
  if (depth > 16 || dwarf_child(die, &c) != 0) return false;
  do {
    int tag = dwarf_tag(&c);
    if (tag == DW_TAG_subprogram && dwarf_haspc(&c, pc) == 1) {
      *found = c;
      return true;
    }
    if ((tag == DW_TAG_subprogram || tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
         tag == DW_TAG_structure_type || tag == DW_TAG_lexical_block) &&
        find_subprogram(&c, pc, found, depth + 1))
      return true;
  } while (dwarf_siblingof(&c, &c) == 0);
  return false;
}

/* The inlined calls around pc inside subprogram `sub`, outermost first (at most max). */
static uint32_t inlined_at(Dwarf_Die *sub, Dwarf_Addr pc, Dwarf_Die *ins, uint32_t max) {
  uint32_t n = 0;
  Dwarf_Die cur = *sub, c;
  for (int depth = 0; depth < 64 && n < max && dwarf_child(&cur, &c) == 0; depth++) {
    bool down = false;
    do {
      int tag = dwarf_tag(&c);
      if ((tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block) &&
          dwarf_haspc(&c, pc) == 1) {
        if (tag == DW_TAG_inlined_subroutine) ins[n++] = c;
        cur = c;
        down = true;
        break;
      }
    } while (dwarf_siblingof(&c, &c) == 0);
    if (!down) break;
  }
  return n;
}

/* Inline chain of a user address: each DW_TAG_inlined_subroutine around it names an inlined
 * function and the line (DW_AT_call_file/line) of its call in its caller.  So, root first:
 * the symbol's function at the line of the outermost inlined call, ..., the innermost
 * inlined function at addr's own line. */
#define MAX_INLINE 32
static void resolve_chain(rep_sym_t *s, cache_ent_t *e) {
  e->chained = 1;
  if (e->cls != REP_CL_USER || !s->dwfl) return;
  Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, e->addr);
  Dwarf_Die cu, sub;
  Dwarf_Addr bias = 0;
  if (!mod || !cu_of(mod, e->addr, &cu, &bias)) return;
  Dwarf_Addr pc = e->addr - bias;
  Dwarf_Die ins[MAX_INLINE];
  if (!find_subprogram(&cu, pc, &sub, 0)) return;
  uint32_t ni = inlined_at(&sub, pc, ins, MAX_INLINE);
  if (!ni) return;
  const tp_profile_t *p = rep_profile(s->m);
  const tp_loc_t base = p->locs[e->loc]; /* the symbol: function, module, addr's file:line */
  uint32_t *chain = rep_arena(s->m, (ni + 1) * sizeof *chain);
  /* root: the symbol's function, at the call of the outermost inlined function */
  const char *cf = call_file(&cu, &ins[0]);
  chain[0] = rep_loc(s->m, base.func, cf ? cf : base.file, call_line(&ins[0]), TP_LOC_USER,
                     base.module, base.addr);
  for (uint32_t k = 0; k < ni; k++) {
    char *name = inline_name(&ins[k]);
    const char *file = base.file;
    uint32_t line = base.line;
    if (k + 1 < ni) { /* not the innermost: at the call of the next one */
      const char *nf = call_file(&cu, &ins[k + 1]);
      if (nf) file = nf;
      line = call_line(&ins[k + 1]);
    }
    chain[k + 1] = rep_loc(s->m, name ? name : "[inlined]", file, line, TP_LOC_USER, base.module,
                           base.addr);
    free(name);
  }
  e->chain = chain;
  e->nchain = ni + 1;
}

uint32_t rep_sym_chain(rep_sym_t *s, uint64_t addr, const uint32_t **chain) {
  cache_ent_t *e = lookup(s, addr);
  if (!e->chained) resolve_chain(s, e);
  if (!e->chain) {
    *chain = &e->loc;
    return 1;
  }
  *chain = e->chain;
  return e->nchain;
}
int rep_sym_class(rep_sym_t *s, uint64_t addr) { return lookup(s, addr)->cls; }

int rep_sym_in_program(rep_sym_t *s, uint64_t addr) {
  const map_t *mp = find_map(s, addr);
  return mp && s->nmaps && mp->path && mp->path == s->maps[0].path;
}
