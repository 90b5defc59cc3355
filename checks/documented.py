#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every command the project documents, and every file its scripts call,
still exists.

  checks/documented.py [ROOT]

Reads README.md and the READMEs beside it (every tracked *.md and
*/README), the Makefile's header and every tracked shell script, and
prints one line per reference that points nowhere:
  - "make TARGET" in a document: TARGET must be a rule of the Makefile;
  - a path of the project's own folders in a document (scripts/x.sh,
    checks/..., qemu/..., guest/..., harness/..., config/..., docs/...),
    not one under build/ or a kernel tree's own (a path right after
    another '/' or named with "the tree's"): it must be tracked;
  - "$ROOT/<path>" in a shell script: <path> must be tracked;
  - "make TARGET" of the top Makefile, run as a dry run (make -n): make
    must accept it, and every project script its recipes run must be
    executable and parse (bash -n).
Exit status 1 if any is missing, 2 if nothing was read (a check that
read nothing has checked nothing).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), '..'))
FOLDERS = 'scripts|checks|qemu|guest|harness|config|docs'
DOC_PATH = re.compile(r"(?<![\w/.$-])((?:%s)/[\w./-]*[\w/])" % FOLDERS)
ROOT_PATH = re.compile(r'"\$ROOT/([\w./-]+)"')
MAKE = re.compile(r'\bmake ((?:[a-z][a-z0-9-]*)(?: [a-z][a-z0-9-]*)*)')
# Paths that are a kernel tree's or QEMU's own, named in the documents.
FOREIGN = ('scripts/get_maintainer.pl', 'scripts/checkpatch.pl',
           'scripts/checker-valid.sh', 'scripts/get_abi.pl',
           'docs/system/arm/cpu-features.rst')


def tracked():
    out = subprocess.run(['git', '-C', ROOT, 'ls-files'], check=True,
                         capture_output=True, text=True).stdout.split('\n')
    files = {f for f in out if f}
    dirs = set()
    for f in files:
        d = os.path.dirname(f)
        while d:
            dirs.add(d)
            d = os.path.dirname(d)
    return files, dirs


def make_targets(folder):
    """The rules of FOLDER's Makefile (an empty set if it has none)."""
    try:
        with open(os.path.join(ROOT, folder, 'Makefile')) as f:
            text = f.read()
    except FileNotFoundError:
        return set()
    targets = set()
    for m in re.finditer(r'^([a-z%$(][\w%$() -]*):(?!=)', text, re.M):
        targets.update(m.group(1).split())
    return targets


def has_target(targets, word):
    if word in targets:
        return True
    # pattern rules: run-%
    return any('%' in t and re.fullmatch(re.escape(t).replace('%', '.+'), word)
               for t in targets)


def commands(doc, text):
    """The code of a document: `spans`, fenced and indented blocks of
    Markdown; the indented lines of a plain README; the "#   make" lines
    of a Makefile's header."""
    lines = text.split('\n')
    if doc.endswith('Makefile'):
        return [(n, m.group(1)) for n, line in enumerate(lines, 1)
                for m in [re.match(r'#\s+(make \S+)', line)] if m]
    if not doc.endswith('.md'):
        return [(n, line.strip()) for n, line in enumerate(lines, 1)
                if re.match(r'(  |\t)\S', line)]
    out = []
    fenced = False
    for n, line in enumerate(lines, 1):
        if line.startswith('```'):
            fenced = not fenced
            continue
        if fenced or line.startswith('    ') or line.startswith('\t'):
            out.append((n, line.strip()))
            continue
        out += [(n, c) for c in re.findall(r'`([^`]+)`', line)]
    return out


def make_words(code):
    """The folder (-C) and targets of a command line that starts with
    make (after any VAR=value), or None."""
    code = re.sub(r'^\$ ', '', code)
    m = re.match(r'(?:[A-Z_]+=\S*\s+)*make\b(.*)', code)
    if not m:
        return None
    # the command ends where its comment or description starts
    cmd = re.split(r'  |#|\(|;|&&|\|', m.group(1))[0]
    words = cmd.split()
    where, names = None, []
    while words:
        w = words.pop(0)
        if w == '-C' and words:
            where = words.pop(0)
        elif w.startswith('-') or '=' in w or w in ('...', '[...]'):
            continue
        elif re.fullmatch(r'[a-z][a-z0-9%-]*', w):
            names.append(w)
        else:
            break
    return where, names


def dry_run(target):
    """make -n TARGET in ROOT: what is wrong with the commands it would
    run, as a list of messages."""
    env = dict(os.environ, MAKEFLAGS='')
    r = subprocess.run(['make', '-n', '-C', ROOT, target], env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        return ['make -n %s: %s' % (target, (r.stderr.strip().split('\n') or [''])[-1])]
    bad = []
    for line in r.stdout.split('\n'):
        words = line.split()
        while words and re.fullmatch(r'[A-Z_]+=\S*', words[0]):
            words.pop(0)
        if not words or '/' not in words[0] or words[0].startswith('/'):
            continue
        path = os.path.join(ROOT, words[0])
        if not os.path.isfile(path):
            bad.append('make %s runs %s, which is not in the project' % (target, words[0]))
        elif not os.access(path, os.X_OK):
            bad.append('make %s runs %s, which is not executable' % (target, words[0]))
        elif path.endswith('.sh'):
            s = subprocess.run(['bash', '-n', path], capture_output=True, text=True)
            if s.returncode != 0:
                bad.append('make %s runs %s, which does not parse: %s'
                           % (target, words[0], s.stderr.strip()))
    return bad


def exists(files, dirs, folder, p):
    for q in (os.path.normpath(os.path.join(folder, p)), p):
        if q in files or q in dirs:
            return True
    return False


def main():
    files, dirs = tracked()
    docs = sorted(f for f in files if f.endswith('.md') or
                  os.path.basename(f) in ('README', 'Makefile'))
    shells = sorted(f for f in files if f.endswith('.sh') or f == '.ci/run')
    missing = []
    read = 0
    top = set()     # the top Makefile's targets the documents name

    for doc in docs:
        folder = os.path.dirname(doc)
        with open(os.path.join(ROOT, doc)) as f:
            text = f.read()
        read += 1
        for n, code in commands(doc, text):
            mw = make_words(code)
            if mw:
                where, names = mw
                if where is None:
                    where = folder if doc.endswith('Makefile') else ''
                elif where.startswith('build/') or '/build/' in where:
                    names = []  # a tree the project builds, not its own
                else:
                    where = os.path.normpath(where)  # typed at the top
                targets = make_targets(where)
                for w in names:
                    if not has_target(targets, w):
                        missing.append('%s:%d: make %s%s: no such target'
                                       % (doc, n, '-C %s ' % where if where else '', w))
                    elif where == '' and w in targets:
                        top.add(w)
            for m in DOC_PATH.finditer(code):
                p = m.group(1).rstrip('/.')
                if p in FOREIGN or '<' in p or 'build/' + p in code:
                    continue
                if code[m.end():m.end() + 2] in ('-*', '*'):
                    # a glob: qemu/patches/0001-*
                    if not any(f.startswith(p) for f in files):
                        missing.append('%s:%d: %s*: not in the project' % (doc, n, p))
                    continue
                if not exists(files, dirs, folder, p):
                    missing.append('%s:%d: %s: not in the project' % (doc, n, p))

    for sh in shells:
        with open(os.path.join(ROOT, sh)) as f:
            lines = f.read().split('\n')
        read += 1
        for n, line in enumerate(lines, 1):
            for m in ROOT_PATH.finditer(line):
                p = m.group(1).rstrip('/')
                if p.startswith('build/') or p in ('build', '...'):
                    continue
                if p not in files and p not in dirs:
                    missing.append('%s:%d: "$ROOT/%s": not in the project' % (sh, n, p))

    for t in sorted(top):
        missing.extend(dry_run(t))

    if read == 0:
        print('documented: nothing read under %s' % ROOT)
        return 2
    for m in missing:
        print(m)
    print('documented: %d documents and scripts read, %d make targets run with -n, '
          '%d references missing' % (read, len(top), len(missing)))
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
