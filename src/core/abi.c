/* Which compilers' OpenMP code the process has loaded (abi.h): for what ompt_set_callback
 * answers (src/ompt/entry.c: gcc inlines some constructs that clang compiles to runtime calls,
 * so the runtime sees every such event only when no gcc-built OpenMP code is loaded) and for
 * the implementation-defined choices that follow the program's compiler (display.c).
 *
 * An object's version needs tell its compiler: gcc-built code binds to libgomp's version
 * nodes (GOMP_*, OMP_*), clang-built code to libomp's single node `VERSION` (LLVM's
 * exports_so.txt; tomp has both, src/gomp/libgomp.map and src/kmp/libomp.map).  An object
 * that needs libgomp.so.1 but none of its versions (gcc code whose only OpenMP constructs
 * are inlined ones) is gcc's too, unless it needs `VERSION` (clang code linked against tomp,
 * whose soname is libgomp.so.1).  The answer
 * covers the objects loaded when it is first asked (a tool asks from its initialize, before
 * main): an object dlopen'ed later is not seen. */
#include <link.h>
#include <string.h>

#include "abi.h"

/* An address from an object's dynamic section: glibc relocates some entries in place, not
 * others (and none in read-only dynamic sections): an unrelocated one is below the base. */
static uintptr_t dyn_addr(const struct dl_phdr_info *info, ElfW(Addr) v) {
  return v < info->dlpi_addr ? info->dlpi_addr + v : v;
}

static int scan_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  int *abis = arg;
  const ElfW(Dyn) *dyn = NULL;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  if (!dyn) return 0;
  ElfW(Addr) strtab = 0, verneed = 0;
  unsigned long nneed = 0;
  for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++) {
    if (d->d_tag == DT_STRTAB) strtab = d->d_un.d_ptr;
    if (d->d_tag == DT_VERNEED) verneed = d->d_un.d_ptr;
    if (d->d_tag == DT_VERNEEDNUM) nneed = d->d_un.d_val;
  }
  if (!strtab) return 0;
  const char *str = (const char *)dyn_addr(info, strtab);
  int mine = 0; /* this object's */
  const char *vn = verneed ? (const char *)dyn_addr(info, verneed) : NULL;
  for (unsigned long i = 0; vn && i < nneed; i++) {
    const ElfW(Verneed) *need = (const ElfW(Verneed) *)vn;
    const char *file = str + need->vn_file;
    if (strstr(file, "omp")) { /* libgomp.so.1, libomp.so.5, libomp.so, libiomp5.so */
      const char *va = vn + need->vn_aux;
      for (unsigned k = 0; k < need->vn_cnt; k++) {
        const ElfW(Vernaux) *aux = (const ElfW(Vernaux) *)va;
        const char *name = str + aux->vna_name;
        if (!strncmp(name, "GOMP_", 5) || !strncmp(name, "OMP_", 4))
          mine |= TOMP_ABI_GNU;
        else if (!strcmp(name, "VERSION"))
          mine |= TOMP_ABI_LLVM;
        if (!aux->vna_next) break;
        va += aux->vna_next;
      }
    }
    if (!need->vn_next) break;
    vn += need->vn_next;
  }
  if (!mine)
    for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++)
      if (d->d_tag == DT_NEEDED && !strcmp(str + d->d_un.d_val, "libgomp.so.1"))
        mine = TOMP_ABI_GNU;
  *abis |= mine;
  return 0;
}

enum { ABI_KNOWN = 4 };

int tomp_loaded_abis(void) {
  static int known; /* TOMP_ABI_* | ABI_KNOWN once scanned */
  int a = __atomic_load_n(&known, __ATOMIC_RELAXED);
  if (!a) {
    a = ABI_KNOWN;
    dl_iterate_phdr(scan_object, &a);
    __atomic_store_n(&known, a, __ATOMIC_RELAXED);
  }
  return a & ~ABI_KNOWN;
}
