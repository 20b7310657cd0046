#!/usr/bin/env python3
"""A small lit: LLVM's OMPT tests (openmp/runtime/test/ompt), compiled by gcc, on one runtime.

    llvm-ompt-tests.py TESTROOT RUNTIME OUTDIR [PATTERN]

TESTROOT is openmp/runtime/test of an LLVM source tree; RUNTIME a directory holding a
libgomp.so.1 (tomp: build/lib) or `libomp` (LLVM's, preloaded into the gcc binaries).  Each
test's RUN lines are run through bash -o pipefail after lit's substitutions, gcc standing for
clang (with -rdynamic: the tests define ompt_start_tool in the executable, which gcc does not
export otherwise); REQUIRES / UNSUPPORTED / XFAIL are evaluated against the features lit would
give a gcc 12 build on Linux.  Prints one line per test (PASS, FAIL, XFAIL, XPASS, SKIP) and a
summary; each test's commands and output go to OUTDIR/NAME.log.  Used by
tools/llvm-ompt-tests.sh."""
import collections
import glob
import os
import re
import shutil
import subprocess
import sys

root, runtime, out = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
pattern = sys.argv[4] if len(sys.argv) > 4 else ''
features = {'ompt', 'linux', 'multicpu', 'affinity', 'gcc', 'gcc-12', 'gcc-12.2'}
here = os.path.dirname(os.path.abspath(__file__))
inc = os.path.join(out, 'include')  # omp-tools.h alone: clang's include directory confuses gcc
os.makedirs(inc, exist_ok=True)
shutil.copy('/usr/lib/llvm-14/lib/clang/14.0.6/include/omp-tools.h', inc)
flags = f'-fopenmp -O0 -rdynamic -include stdlib.h -I {root}/ompt -I {inc}'
if runtime == 'libomp':
    run_env = 'env LD_PRELOAD=/usr/lib/llvm-14/lib/libomp.so.5 '
else:
    run_env = f'env LD_LIBRARY_PATH={os.path.abspath(runtime)} '


def directives(text):
    runs, cur, kinds = [], '', collections.defaultdict(list)
    for line in text.splitlines():
        m = re.match(r'\s*//\s*RUN:(.*)$', line)
        if m:
            part = m.group(1).rstrip()
            if part.endswith('\\'):
                cur += part[:-1] + ' '
            else:
                runs.append(cur + part)
                cur = ''
            continue
        m = re.match(r'\s*//\s*(REQUIRES|UNSUPPORTED|XFAIL):(.*)$', line)
        if m:
            kinds[m.group(1)] += [f.strip() for f in m.group(2).split(',') if f.strip()]
    return runs, kinds


def substitute(cmd, src, exe, tdir):
    comp = 'g++' if src.endswith('.cpp') else 'gcc'
    subs = [('%libomp-compile-and-run', '%libomp-compile && %libomp-run'),
            ('%libomp-cxx-compile-and-run', '%libomp-cxx-compile && %libomp-run'),
            ('%libomp-c99-compile-and-run', '%libomp-c99-compile && %libomp-run'),
            ('%libomp-cxx-compile', f'g++ {flags} %s -o %t -lm'),
            ('%libomp-c99-compile', f'gcc -std=gnu99 {flags} %s -o %t -lm'),
            ('%libomp-compile', f'{comp} {flags} %s -o %t -lm'),
            ('%libomp-run', run_env + '%t'),
            ('%sort-threads', 'sort -n -s'), ('%clangXX', 'g++'), ('%clang', 'gcc'),
            ('%flags', flags), ('%no-as-needed-flag', '-Wl,--no-as-needed'),
            ('%preload-tool', 'env LD_PRELOAD=%T/tool.so'), ('%python', 'python3'),
            (' -lomp', ' -lgomp')]
    for a, b in subs:
        cmd = cmd.replace(a, b)
    cmd = cmd.replace('%s', src).replace('%S', os.path.dirname(src))
    cmd = cmd.replace('%t', exe).replace('%T', tdir)
    return re.sub(r'\bFileCheck\b', 'FileCheck-14', cmd)


results = []
sources = sorted(glob.glob(f'{root}/ompt/**/*.c', recursive=True) +
                 glob.glob(f'{root}/ompt/**/*.cpp', recursive=True))
for src in sources:
    rel = os.path.relpath(src, f'{root}/ompt')
    if pattern and pattern not in rel:
        continue
    runs, kinds = directives(open(src).read())
    if not runs:
        continue
    if any(f not in features for f in kinds['REQUIRES']):
        results.append((rel, 'SKIP'))
        continue
    note = ' (marked UNSUPPORTED for gcc)' if any(f in features for f in kinds['UNSUPPORTED']) else ''
    xfail = any(f in features or f == '*' for f in kinds['XFAIL'])
    name = rel.replace('/', '_')
    tdir = os.path.join(out, name + '.d')
    shutil.rmtree(tdir, ignore_errors=True)
    os.makedirs(tdir)
    ok, log = True, ''
    for run in runs:
        cmd = substitute(run, src, os.path.join(tdir, 'exe'), tdir)
        try:
            p = subprocess.run(['bash', '-o', 'pipefail', '-c', cmd], capture_output=True,
                               text=True, timeout=120, cwd=tdir)
            rc, text = p.returncode, p.stdout[-3000:] + p.stderr[-8000:]
        except subprocess.TimeoutExpired:
            rc, text = 124, 'TIMEOUT after 120 s'
        log += f'$ {cmd}\nrc={rc}\n{text}\n'
        if rc != 0:
            ok = False
            break
    with open(os.path.join(out, name + '.log'), 'w') as f:
        f.write(log)
    status = ('XPASS' if ok else 'XFAIL') if xfail else ('PASS' if ok else 'FAIL')
    results.append((rel, status + note))
for rel, status in results:
    print(f'{status.split()[0]:6s} {rel}{status[len(status.split()[0]):]}')
count = collections.Counter(s.split()[0] for _, s in results)
print('summary: ' + ', '.join(f'{count[k]} {k}' for k in ('PASS', 'FAIL', 'XFAIL', 'XPASS', 'SKIP')))
