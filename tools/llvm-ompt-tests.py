#!/usr/bin/env python3
"""LLVM's OMPT tests (openmp/runtime/test/ompt) under LLVM's own lit configuration, on one runtime.

    llvm-ompt-tests.py [--compiler=gcc|clang] LLVMVER TESTROOT NAME LIBDIR INCDIR OUTDIR [PATTERN]

TESTROOT is openmp/runtime/test of an LLVM LLVMVER source tree (14 or 19).  LIBDIR is the
runtime's library directory as LLVM's build tree lays it out: a libgomp.so there is what gcc's
-fopenmp links and a libomp.so what clang's -fopenmp=libomp links, so the test binaries are
linked against the candidate runtime itself (libomp's own directory has libgomp.so ->
libomp.so; tomp's build/lib has both names for tomp).  INCDIR holds that runtime's omp.h and
omp-tools.h.  OUTDIR gets a lit.site.cfg written the way LLVM's CMake writes it for a
standalone build whose test compiler is gcc 12 (the default) or clang-14 (--compiler=clang)
(openmp/cmake/OpenMPTesting.cmake, DetectTestCompiler, runtime/test/CMakeLists.txt: the gcc
values were checked against the file CMake 3.25 generates for LLVM 19 with gcc 12; for clang,
FindOpenMP's first flag for Clang is -fopenmp=libomp and the features are `clang clang-14
clang-14.0 clang-14.0.6`, the lowercased compiler id and its versions), then LLVM's
lit (llvm-14's, with psutil, so that --timeout kills a hung test's whole process tree) runs
the test's own lit.cfg.  REQUIRES / UNSUPPORTED / XFAIL are lit's.

Prints one line per test (lit's result code: PASS FAIL XFAIL XPASS UNSUPPORTED TIMEOUT) and a
summary; lit's output (each failing test's commands and output) goes to OUTDIR/lit.log.  Used
by tools/llvm-ompt-tests.sh."""
import collections
import json
import os
import re
import shutil
import subprocess
import sys

args = sys.argv[1:]
compiler = 'gcc'
if args and args[0].startswith('--compiler='):
    compiler = args.pop(0).split('=', 1)[1]
if compiler not in ('gcc', 'clang'):
    sys.exit(f'llvm-ompt-tests.py: unknown compiler {compiler} (gcc or clang)')
ver, root, name, libdir, incdir, out = args[0:6]
pattern = args[6] if len(args) > 6 else ''
out = os.path.abspath(out)
LIT = '/usr/lib/llvm-14/build/utils/lit/lit.py'
TIMEOUT = int(os.environ.get('LIT_TIMEOUT', '120'))
JOBS = os.environ.get('LIT_JOBS', '2')

if compiler == 'gcc':
    cc, cxx, omp_flags = 'gcc', 'g++', '-fopenmp '
    full = subprocess.run(['gcc', '-dumpfullversion'], capture_output=True, text=True).stdout
else:
    # DetectTestCompiler: FindOpenMP's flag for Clang; glibc needs no separate thread flag
    cc, cxx, omp_flags = 'clang-14', 'clang++-14', '-fopenmp=libomp '
    full = subprocess.run(['clang-14', '-dumpversion'], capture_output=True, text=True).stdout
full = full.strip()
major, minor = full.split('.')[0], '.'.join(full.split('.')[:2])
# set_test_compiler_features(): the compiler id and its versions; LLVM 19 adds the target arch.
features = [compiler, f'{compiler}-{major}', f'{compiler}-{minor}', f'{compiler}-{full}']
if int(ver) >= 19:
    features.append(os.uname().machine)
values = {
    'AUTO_GEN_COMMENT': f'## Written by tools/llvm-ompt-tests.py as CMake would (test compiler {cc})',
    'OPENMP_TEST_C_COMPILER': cc,
    'OPENMP_TEST_CXX_COMPILER': cxx,
    'OPENMP_TEST_COMPILER_FEATURES': repr(features),
    'OPENMP_TEST_COMPILER_HAS_OMP_H': 'True',
    'OPENMP_FILECHECK_EXECUTABLE': '/usr/lib/llvm-14/bin/FileCheck',
    'OPENMP_NOT_EXECUTABLE': '/usr/lib/llvm-14/bin/not',
    'OPENMP_TEST_OPENMP_FLAGS': omp_flags,
    'OPENMP_TEST_FLAGS': '',
    'CMAKE_CURRENT_BINARY_DIR': out,
    'LIBOMP_LIBRARY_DIR': os.path.abspath(libdir),
    'CMAKE_SYSTEM_NAME': 'Linux',
    'LIBOMP_HWLOC_LIBRARY_DIR': '',
    'LIBOMP_USE_HWLOC': 'False',
    'LIBOMP_OMPT_SUPPORT': 'True',
    'LIBOMP_OMPT_OPTIONAL': 'True',
    'LIBOMP_OMPX_TASKGRAPH': 'False',
    'LIBOMP_HAVE_LIBM': 'True',
    'LIBOMP_HAVE_LIBATOMIC': 'True',
    'OPENMP_STANDALONE_BUILD': 'True',
    'OPENMP_TEST_COMPILER_HAS_OMIT_FRAME_POINTER_FLAGS': 'True',
    'LIBOMP_ARCH': 'x86_64' if os.uname().machine == 'x86_64' else os.uname().machine,
    'LIBOMP_BASE_DIR': os.path.dirname(os.path.abspath(root)),
}
template = open(os.path.join(root, 'lit.site.cfg.in')).read()


def subst(m):
    key = m.group(1)
    if key == 'LIBOMP_BINARY_DIR':  # omp_header_directory = LIBOMP_BINARY_DIR/src
        return '@LIBOMP_BINARY_DIR@'
    if key not in values:
        sys.exit(f'llvm-ompt-tests.py: no value for @{key}@ in {root}/lit.site.cfg.in')
    return values[key]


site = re.sub(r'@([A-Z_0-9]+)@', subst, template)
site = site.replace('"@LIBOMP_BINARY_DIR@/src"', repr(os.path.abspath(incdir)))
if '@' in re.sub(r'#.*', '', site):
    sys.exit('llvm-ompt-tests.py: lit.site.cfg.in has a substitution this script does not know')
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
with open(os.path.join(out, 'lit.site.cfg'), 'w') as f:
    f.write(site)

cmd = ['/usr/bin/python3', LIT, '-v', f'-j{JOBS}', f'--timeout={TIMEOUT}',
       '-o', os.path.join(out, 'results.json'), os.path.join(out, 'ompt')]
if pattern:
    cmd[3:3] = ['--filter', re.escape(pattern)]
os.makedirs(os.path.join(out, 'ompt'), exist_ok=True)
with open(os.path.join(out, 'lit.log'), 'w') as log:
    subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT)
try:
    tests = json.load(open(os.path.join(out, 'results.json')))['tests']
except (OSError, ValueError, KeyError):
    sys.exit(f'llvm-ompt-tests.py: lit produced no results (see {out}/lit.log)')
results = sorted((t['name'].split(' :: ', 1)[1].removeprefix('ompt/'), t['code']) for t in tests)
for rel, code in results:
    print(f'{code:11s} {rel}')
count = collections.Counter(code for _, code in results)
print('summary: ' + ', '.join(f'{n} {k}' for k, n in sorted(count.items())))
