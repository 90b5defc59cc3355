#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The project's one KTAP/TAP parser: every RESULT line of a guest's test
output comes from here.

    ktap.py [--prefix P] FILE            one KTAP/TAP document (or a log
                                         holding one), RESULT lines named P/...
    ktap.py --console [--kunit] [--tag T] [--save-dir D] CONSOLE
                                         a guest console: with --kunit, the
                                         KUnit results guest/init.c copied
                                         from debugfs (never the KTAP KUnit
                                         printed at boot, which other kernel
                                         messages can split), then each
                                         program's TAP between its markers
    ktap.py --console ... --kunit-json J [--kunit-json J2...]
                                         also compare the KUnit counts with
                                         those of the kernel's kunit.py
                                         parse --json, one file per suite

Output: "RESULT pass|fail|skip NAME" lines; NAME is the prefix, "/", and
the path of the test through the nested (sub)tests joined with ".".
Counting:
  - only leaves count (a test with subtests is counted through them); a
    parent reported "not ok" whose subtests all passed is one fail;
  - "ok"/"not ok" with a "# SKIP" directive is a skip, never a pass;
    "# TODO"/"# XFAIL": "ok" is a pass, "not ok" a skip;
  - a document whose plan does not match its results, with no plan at all,
    with a nested document that never got its result line (a crash, a
    truncated log) or with "Bail out!" is one fail more; "1..0 # SKIP why"
    is one skip; no KTAP at all is a fail.
Exit status 0 (the RESULT lines carry the verdict); 2 for a usage error.
"""
import argparse
import collections
import json
import re

VERSION = re.compile(r"^(KTAP|TAP) version \d+\s*$")
PLAN = re.compile(r"^1\.\.(\d+)\s*(?:#\s*(.*))?$")
RESULT = re.compile(
    r"^(not ok|ok)\s+(\d+)\b(?:\s+-)?\s*(.*?)\s*(?:(?<!\\)#\s*(.*))?$")
SUBTEST = re.compile(r"^# Subtest: (.*?)\s*$")
BAIL = re.compile(r"^Bail out!\s*(.*)$")
# printk's time stamp, when the kernel adds one
STAMP = re.compile(r"^\[\s*\d+\.\d+\]\s?")

BEGIN = "==== spe-tests begin ===="
KUNIT_BEGIN = "==== kunit-debugfs begin ===="
KUNIT_END = "==== kunit-debugfs end ===="
KUNIT_SUITE = re.compile(r"^==== suite (\S+) ====$")
TEST_BEGIN = re.compile(r"^==== test (\S+) ====$")
TEST_END = re.compile(r"^==== end (\S+) rc=(\S+?)(?: secs=\d+)? ====$")


Result = collections.namedtuple("Result", "word what leaf")


class Doc:
    """One (sub)document: its plan, its result lines, and nested documents
    waiting for the result line that closes them."""

    def __init__(self, indent):
        self.indent = indent
        self.plan = None
        self.plan_directive = ""
        self.results = []	# (ok, num, name, directive, child Doc or None)
        self.pending = None	# a closed nested document
        self.subtest = None	# "# Subtest: NAME"
        self.bail = None
        self.seen = False	# any KTAP line at all
        self.orphan = False	# closed without its result line

    def empty(self):
        return self.plan is None and not self.results and self.pending is None


def directive_word(d):
    if not d:
        return None
    w = d.split(None, 1)[0].upper() if d.split() else ""
    return w if w in ("SKIP", "TODO", "XFAIL") else None


def directive_reason(d):
    parts = d.split(None, 1)
    return parts[1].strip() if len(parts) > 1 else ""


def parse(lines):
    """The top-level documents of LINES, as Doc trees."""
    docs, stack = [], []

    def orphan(doc):
        # a nested document that never got its result line: the next
        # nested document started, or the log ended (a crash, a cut log)
        if doc.pending is not None:
            doc.pending.orphan = True
            doc.results.append((False, None, doc.pending.subtest, "",
                                doc.pending))
            doc.pending = None

    def close_top():
        d = stack.pop()
        orphan(d)
        if stack:
            parent = stack[-1]
            orphan(parent)
            parent.pending = d
        else:
            docs.append(d)

    for raw in lines:
        line = STAMP.sub("", raw.rstrip("\n").replace("\r", ""))
        line = line.expandtabs(8)
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        kind = None
        m = None
        for k, rx in (("version", VERSION), ("plan", PLAN), ("result", RESULT),
                      ("subtest", SUBTEST), ("bail", BAIL)):
            m = rx.match(body)
            if m:
                kind = k
                break
        if kind is None:
            continue
        while stack and indent < stack[-1].indent:
            close_top()
        if not stack or indent > stack[-1].indent:
            stack.append(Doc(indent))
        top = stack[-1]
        if kind == "version":
            if not top.empty() and len(stack) == 1:
                # a second top-level document
                close_top()
                stack.append(Doc(indent))
                top = stack[-1]
        elif kind == "subtest":
            if top.subtest is None:
                top.subtest = m.group(1)
        elif kind == "plan":
            top.plan = int(m.group(1))
            top.plan_directive = m.group(2) or ""
        elif kind == "result":
            ok = m.group(1) == "ok"
            child, top.pending = top.pending, None
            top.results.append((ok, m.group(2), m.group(3).strip(),
                                (m.group(4) or "").strip(), child))
        elif kind == "bail":
            top.bail = m.group(1) or "bail out"
        top.seen = True
    while stack:
        close_top()
    return docs


def emit(doc, prefix, path, out, nested=False):
    """RESULT lines of DOC; returns the number of fails it emitted."""
    fails = 0
    name = lambda p: prefix + "/" + ".".join(p) if p else prefix

    def add(word, what, leaf=True):
        # leaf: a test's own result; else a fail about the document
        nonlocal fails
        out.append(Result(word, what, leaf))
        if word == "fail":
            fails += 1

    where = name(path)
    for ok, num, rname, d, child in doc.results:
        rpath = path + [rname or (child.subtest if child is not None else None)
                        or f"#{num}"]
        word = directive_word(d)
        if child is not None and child.orphan:
            f = emit(child, prefix, rpath, out, True)
            fails += f
            add("fail", f"{name(rpath)}: no result line (crashed or truncated)", False)
            continue
        if child is not None and child.results:
            f = emit(child, prefix, rpath, out, True)
            fails += f
            if not ok and word is None and f == 0:
                add("fail", f"{name(rpath)}: not ok, with no failing subtest", False)
            continue
        if child is not None:
            fails += emit(child, prefix, rpath, out, True)	# plan/bail problems
        if word == "SKIP":
            why = directive_reason(d)
            add("skip", name(rpath) + (f" ({why})" if why else ""))
        elif word in ("TODO", "XFAIL"):
            add("pass" if ok else "skip", f"{name(rpath)} ({d})")
        else:
            add("pass" if ok else "fail", name(rpath))
    n = sum(1 for r in doc.results if r[4] is None or not r[4].orphan)
    if doc.bail is not None:
        add("fail", f"{where}: Bail out! {doc.bail}".rstrip(), False)
    if doc.bail is not None:
        pass	# one fail is enough
    elif doc.plan is None and nested:
        pass	# KUnit's parameterised tests print no plan: their
        #	  parent's result line closes them (or its absence fails)
    elif doc.plan is None:
        if n == 0 and not doc.bail:
            add("fail", f"{where}: no plan and no results", False)
        elif not doc.bail:
            add("fail", f"{where}: no plan line (crashed or truncated after {n} results)", False)
    elif doc.plan == 0 and n == 0:
        why = directive_reason(doc.plan_directive) if directive_word(doc.plan_directive) == "SKIP" else ""
        add("skip", where + (f" ({why})" if why else " (empty plan)"), False)
    elif doc.plan != n:
        add("fail", f"{where}: plan 1..{doc.plan} but {n} results", False)
    return fails


def results_of(lines, prefix):
    """RESULT lines of the KTAP in LINES; a fail when there is none."""
    out = []
    docs = [d for d in parse(lines) if d.seen]
    if not docs:
        return [Result("fail", f"{prefix}: no KTAP output", False)]
    for d in docs:
        path = [d.subtest] if d.subtest and len(docs) > 1 else []
        emit(d, prefix, path, out)
    return out


def kunit_json_counts(paths):
    c = {"pass": 0, "fail": 0, "skip": 0}

    def walk(g):
        for s in g.get("sub_groups", []):
            walk(s)
        for case in g.get("test_cases", []):
            c[{"PASS": "pass", "SKIP": "skip"}.get(case.get("status"), "fail")] += 1
    for path in paths:
        walk(json.load(open(path)))
    return c


def kunit_section(lines):
    """The lines of the KUnit results init copied from debugfs, or None
    when the console has no such section (a cut one counts: its
    documents then lack their result lines)."""
    try:
        first = lines.index(KUNIT_BEGIN)
    except ValueError:
        return None
    body = []
    for line in lines[first + 1:]:
        if line == KUNIT_END or line == BEGIN:
            break
        if not KUNIT_SUITE.match(line):
            body.append(line)
    return body


def console(text, kunit, tag, save_dir, kunit_json, kunit_name):
    lines = text.splitlines()
    out = []
    tag = tag + ":" if tag else ""
    try:
        first = lines.index(BEGIN)
    except ValueError:
        first = len(lines)
    if kunit:
        klines = kunit_section(lines)
        if klines is None:
            kout = [Result("fail", "kunit: no KUnit results from debugfs on the "
                           "console (CONFIG_KUNIT_DEBUGFS, guest/init.c)", False)]
        else:
            kout = results_of(klines, "kunit")
        out += kout
        if kunit_json:
            mine = {w: sum(1 for r in kout if r.word == w and r.leaf)
                    for w in ("pass", "fail", "skip")}
            try:
                theirs = kunit_json_counts(kunit_json)
            except Exception as e:
                theirs = f"unreadable ({e})"
            if mine != theirs:
                out.append(Result("fail", f"kunit/{kunit_name}: ktap.py counted {mine}, "
                                   f"kunit.py {theirs}", False))
    cur, buf = None, []
    for line in lines[first:]:
        m = TEST_BEGIN.match(line)
        if m:
            if cur is not None:
                out += results_of(buf, tag + cur)
                out.append(Result("fail", f"{tag}{cur}: did not finish", False))
            cur, buf = m.group(1), []
            continue
        m = TEST_END.match(line)
        if m and cur == m.group(1):
            rc = m.group(2)
            if save_dir:
                open(f"{save_dir}/{cur}.log", "w").write("\n".join(buf) + "\n")
            has_ktap = any(d.seen for d in parse(buf))
            if not has_ktap and rc == "4":
                out.append(Result("skip", f"{tag}{cur}: exit status 4 (skip), no KTAP", False))
            else:
                res = results_of(buf, tag + cur)
                out += res
                if rc not in ("0", "4") and not any(r.word == "fail" for r in res):
                    out.append(Result("fail", f"{tag}{cur}: exit status {rc}", False))
            cur = None
            continue
        if cur is not None:
            buf.append(line)
    if cur is not None:
        if save_dir:
            open(f"{save_dir}/{cur}.log", "w").write("\n".join(buf) + "\n")
        out += results_of(buf, tag + cur)
        out.append(Result("fail", f"{tag}{cur}: did not finish", False))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--prefix", default="ktap")
    ap.add_argument("--console", action="store_true")
    ap.add_argument("--kunit", action="store_true")
    ap.add_argument("--kunit-json", action="append")
    ap.add_argument("--kunit-name", default="console")
    ap.add_argument("--tag", default="")
    ap.add_argument("--save-dir")
    ap.add_argument("file")
    a = ap.parse_args()
    text = open(a.file, errors="replace").read().replace("\r", "")
    if a.console:
        out = console(text, a.kunit, a.tag, a.save_dir, a.kunit_json, a.kunit_name)
    else:
        out = results_of(text.splitlines(), a.prefix)
    for r in out:
        print(f"RESULT {r.word} {r.what}")


if __name__ == "__main__":
    main()
