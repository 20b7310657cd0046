/* Critical names of LLVM's ABI shared with gcc's code (critname.h).
 *
 * One process may hold clang-built and gcc-built code on this one runtime (a gcc-built
 * library called by a clang-built program).  OpenMP 5.2 15.2: "all critical constructs
 * without a name are considered to have the same unspecified name", so an unnamed critical
 * must exclude every other one whichever compiler built it.  gcc's code takes the runtime's
 * lock (GOMP_critical_start, core's tomp_unnamed_critical); clang's passes a name object of
 * its own module, `.gomp_critical_user_.var`, of which the runtime knows only the address.
 * So the first time a name object is used, its symbol tells which it is: the dynamic symbol
 * table (dladdr: a shared library's, or an executable's exported symbols) or else the
 * module's static symbol table read from its file.  A named critical with a gcc-built
 * counterpart (`.gomp_critical_user_NAME`, found among the process's global symbols) takes
 * that object's lock word, so named ones exclude across the compilers too.  Anything not
 * found (a stripped executable, a name object on the heap) keeps its own lock word, which is
 * what it was before. */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "critname.h"
#include "lock.h"

#define PREFIX ".gomp_critical_user_" /* clang's and gcc's names start so */
#define SUFFIX ".var"                 /* clang's end so */

/* ---- the symbol at an address ----------------------------------------------------------- */

/* The module a data address lies in: its file and load bias. */
typedef struct module_find {
  uintptr_t addr;
  ElfW(Addr) bias;
  char path[PATH_MAX];
  bool found;
} module_find_t;

static int module_cb(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  module_find_t *m = arg;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD) continue;
    uintptr_t lo = (uintptr_t)(info->dlpi_addr + ph->p_vaddr);
    if (m->addr < lo || m->addr - lo >= ph->p_memsz) continue;
    m->bias = info->dlpi_addr;
    /* the main program has no name here */
    snprintf(m->path, sizeof m->path, "%s",
             info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : "/proc/self/exe");
    m->found = true;
    return 1;
  }
  return 0;
}

/* The name of the object symbol at module address value in the file's static symbol table,
 * copied into out (false: none, or not an ELF file this code can read: every offset is
 * checked against the file's size). */
static bool symtab_name(const char *path, ElfW(Addr) value, char *out, size_t outsz) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  bool ok = false;
  if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(ElfW(Ehdr))) {
    close(fd);
    return false;
  }
  size_t size = (size_t)st.st_size;
  const unsigned char *f = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (f == MAP_FAILED) return false;
  const ElfW(Ehdr) *eh = (const void *)f;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_shentsize != sizeof(ElfW(Shdr)) ||
      eh->e_shoff > size || eh->e_shnum > (size - eh->e_shoff) / sizeof(ElfW(Shdr)))
    goto out;
  const ElfW(Shdr) *sh = (const void *)(f + eh->e_shoff);
  for (unsigned i = 0; i < eh->e_shnum && !ok; i++) {
    if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
    const ElfW(Shdr) *strs = &sh[sh[i].sh_link];
    if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset ||
        strs->sh_offset > size || strs->sh_size > size - strs->sh_offset)
      continue;
    const ElfW(Sym) *sym = (const void *)(f + sh[i].sh_offset);
    const char *str = (const char *)f + strs->sh_offset;
    size_t nsym = sh[i].sh_size / sizeof(ElfW(Sym));
    for (size_t k = 0; k < nsym; k++) {
      if (sym[k].st_value != value || ELF64_ST_TYPE(sym[k].st_info) != STT_OBJECT ||
          sym[k].st_name >= strs->sh_size)
        continue;
      const char *name = str + sym[k].st_name;
      size_t len = strnlen(name, strs->sh_size - sym[k].st_name);
      if (len >= outsz || len == strs->sh_size - sym[k].st_name) continue;
      memcpy(out, name, len + 1);
      ok = true;
      break;
    }
  }
out:
  munmap((void *)f, size);
  return ok;
}

/* The name of the data object at addr, if any symbol table knows it. */
static bool object_name(const void *addr, char *out, size_t outsz) {
  Dl_info info;
  if (dladdr(addr, &info) && info.dli_sname && info.dli_saddr == addr) {
    snprintf(out, outsz, "%s", info.dli_sname);
    return true;
  }
  module_find_t m = {.addr = (uintptr_t)addr};
  dl_iterate_phdr(module_cb, &m);
  return m.found && symtab_name(m.path, (ElfW(Addr))((uintptr_t)addr - m.bias), out, outsz);
}

/* ---- classification --------------------------------------------------------------------- */

/* The lock word gcc's code takes for the critical construct clang named `name`, or NULL. */
static uint32_t *gcc_word(const char *name) {
  size_t np = strlen(PREFIX), ns = strlen(SUFFIX), len = strlen(name);
  if (strncmp(name, PREFIX, np) != 0) return NULL;
  if (len == np) return &tomp_unnamed_critical; /* `.gomp_critical_user_`: an unnamed one */
  if (len < np + ns || strcmp(name + len - ns, SUFFIX) != 0) return NULL;
  if (len == np + ns) return &tomp_unnamed_critical; /* clang's unnamed critical */
  /* gcc's name object for NAME: `.gomp_critical_user_NAME`, its first bytes a lock word */
  char gname[512];
  if (len - ns >= sizeof gname) return NULL;
  memcpy(gname, name, len - ns);
  gname[len - ns] = 0;
  return dlsym(RTLD_DEFAULT, gname);
}

uint32_t *tomp_kmp_crit_classify(kmp_critical_name *crit) {
  kmp_crit_slot_t *s = (kmp_crit_slot_t *)(void *)crit;
  char name[512];
  uint32_t *other = object_name(crit, name, sizeof name) ? gcc_word(name) : NULL;
  if (other == &s->word) other = NULL; /* gcc's name object is this one (cannot be: safety) */
  /* Threads meeting the name at once all find the same answer: storing it twice is harmless. */
  if (other) {
    __atomic_store_n(&s->other, other, __ATOMIC_RELAXED);
    __atomic_store_n(&s->kind, TOMP_CRIT_SHARED, __ATOMIC_RELEASE);
    return other;
  }
  __atomic_store_n(&s->kind, TOMP_CRIT_OWN, __ATOMIC_RELEASE);
  return &s->word;
}
