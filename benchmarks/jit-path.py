#!/usr/bin/env python3
"""The request path as the JIT compiled it, read from a benchmarks/jit-path.sh run (issue 29 item 2).

usage: jit-path.py RUN_DIR [RUN_DIR...]    (each holds compilation.log and codelist.txt)
       jit-path.py --compare BEFORE_DIR AFTER_DIR

The path is followed from the entry point's compiled code (ROOT, default Tomcat's
StandardHostValve.invoke) through every call the JIT did not inline into a method of the agent
(io.tollgate, its shaded libraries included): each such callee's live tier-4 nmethod is a part of
the path in its own right, and its calls are followed in turn. For each part: its bytecode size,
the nmethod's size (all of it, and its instructions), how many methods C2 inlined into it, and
every call it did not inline with C2's reason; calls made through a virtual call C2 could not
bind (no profile, or more than two receivers: megamorphic); uncommon traps that fired in the path's
code while it ran, and its nmethods made not entrant (deoptimizations). Counts only, no timing:
a later change is checked by the same counts.
"""
import collections
import os
import re
import sys

ROOT = os.environ.get("ROOT", "org.apache.catalina.core.StandardHostValve.invoke")
AGENT = "io.tollgate."
ATTR = re.compile(r"(\w+)='([^']*)'")


def attrs(line):
    return dict(ATTR.findall(line))


def task_name(method_attr):
    """'a.b.C name (sig)R' -> ('a.b.C.name', '(sig)R')"""
    holder, name, sig = method_attr.split(" ", 2)
    return holder + "." + name, sig


class Call:
    __slots__ = ("caller", "bci", "callee", "callee_bytes", "count", "decision", "reason",
                 "virtual", "receivers", "depth", "kind")

    def __init__(self, caller, bci, callee, callee_bytes, count, virtual, receivers, depth):
        self.caller, self.bci, self.callee, self.callee_bytes = caller, bci, callee, callee_bytes
        self.count, self.virtual, self.receivers, self.depth = count, virtual, receivers, depth
        self.decision, self.reason, self.kind = None, "", ""


class Task:
    def __init__(self, a):
        self.id = int(a["compile_id"])
        self.name, self.sig = task_name(a["method"])
        self.bytes = int(a.get("bytes", 0))
        self.level = int(a.get("level", 4))  # C2's tasks name no level
        self.calls = []          # every call C2 looked at, in parse order
        self.inlined = 0
        self.failure = None      # a compilation that failed (or bailed out)


def read_log(path):
    """Tasks by compile id, nmethods by compile id, and the runtime events (traps, not entrant)."""
    tasks, nmethods, not_entrant, traps = {}, {}, [], []
    task = None
    ids = {}                     # a task's own ids: klass and method names
    stack = []                   # the methods being parsed (C2's inlining tree)
    pending = None               # the last <call> (a virtual call names the declared one first)
    bci = None
    runtime_trap = None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("<task "):
                a = attrs(line)
                task = Task(a)
                tasks[task.id] = task
                ids, stack, pending = {}, [], None
                continue
            if task is not None:
                if line.startswith("</task>"):
                    task = None
                elif line.startswith("<klass ") or line.startswith("<type "):
                    a = attrs(line)
                    ids[a["id"]] = a["name"]
                elif line.startswith("<method "):
                    a = attrs(line)
                    ids[a["id"]] = (ids.get(a["holder"], "?") + "." + a["name"], int(a.get("bytes", 0)))
                elif line.startswith("<parse "):
                    a = attrs(line)
                    stack.append(ids.get(a["method"], ("?", 0))[0])
                    if len(stack) > 1:
                        task.inlined += 1
                elif line.startswith("</parse>"):
                    stack.pop()
                elif line.startswith("<bc "):
                    bci = attrs(line).get("bci")
                elif line.startswith("<call "):
                    a = attrs(line)
                    name, size = ids.get(a["method"], ("?", 0))
                    receivers = sum(1 for k in ("receiver", "receiver2") if k in a)
                    if pending is not None and pending.decision is None and pending.bci == bci \
                            and pending.caller == (stack[-1] if stack else task.name):
                        # the same site: the declared method, then the one profiled or bound
                        pending.callee, pending.callee_bytes = name, size
                        continue
                    pending = Call(stack[-1] if stack else task.name, bci, name, size,
                                   int(float(a.get("count", 0))), a.get("virtual") == "1",
                                   receivers, len(stack))
                    task.calls.append(pending)
                elif line.startswith("<inline_success ") and pending is not None:
                    pending.decision, pending.reason = True, attrs(line).get("reason", "")
                elif line.startswith("<inline_fail ") and pending is not None:
                    pending.decision, pending.reason = False, attrs(line).get("reason", "")
                elif line.startswith("<intrinsic ") and pending is not None:
                    pending.decision, pending.reason = True, "intrinsic"
                elif line.startswith("<direct_call ") and pending is not None:
                    pending.kind = "direct"
                elif line.startswith("<virtual_call ") and pending is not None:
                    pending.kind = "virtual"
                    if pending.decision is None:
                        pending.decision = False
                        pending.reason = ("no receiver profiled" if pending.receivers == 0
                                          else "virtual call")
                elif line.startswith("<failure "):
                    task.failure = attrs(line).get("reason", "?")
                continue
            if line.startswith("<nmethod "):
                a = attrs(line)
                if "compile_id" in a:
                    cid = int(a["compile_id"])
                    insts = int(a.get("stub_offset", 0)) - int(a.get("insts_offset", 0))
                    nmethods[cid] = (int(a.get("size", 0)), insts, int(a.get("level", 0)))
            elif line.startswith("<make_not_entrant ") and "thread=" in line:
                a = attrs(line)
                not_entrant.append((int(a["compile_id"]), a.get("level"), float(a.get("stamp", 0))))
            elif line.startswith("<uncommon_trap thread="):
                a = attrs(line)
                runtime_trap = [a.get("reason"), a.get("action"), int(a.get("compile_id", -1)),
                                float(a.get("stamp", 0)), None]
            elif runtime_trap is not None and line.startswith("<jvms "):
                a = attrs(line)
                if runtime_trap[4] is None:
                    runtime_trap[4] = task_name(a["method"])[0] + "@" + a.get("bci", "?")
            elif runtime_trap is not None and line.startswith("</uncommon_trap>"):
                traps.append(tuple(runtime_trap))
                runtime_trap = None
    return tasks, nmethods, not_entrant, traps


def read_codelist(path):
    """Live nmethods: name -> [(compile_id, level)] (state 0, in use)."""
    live = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            parts = line.split(" ", 4)
            if len(parts) < 4 or not parts[0].isdigit():
                continue
            cid, level, state, method = int(parts[0]), int(parts[1]), parts[2], parts[3]
            if state != "0":
                continue
            name = method.split("(", 1)[0]
            live[name].append((cid, level))
    return live


def on_path(name):
    return name.startswith(AGENT)


class Run:
    def __init__(self, d):
        self.dir = d
        self.tasks, self.nmethods, self.not_entrant, self.traps = read_log(
            os.path.join(d, "compilation.log"))
        self.live = read_codelist(os.path.join(d, "codelist.txt"))
        info = os.path.join(d, "run.txt")
        self.info = open(info).read().strip() if os.path.exists(info) else ""

    def live_c2(self, name):
        """The live tier-4 tasks of a method name (all its overloads)."""
        return [self.tasks[cid] for cid, level in self.live.get(name, ())
                if level == 4 and cid in self.tasks]

    def path(self):
        """The path's parts, from ROOT through every agent callee not inlined, in order found."""
        parts, seen, todo = [], set(), [ROOT]
        while todo:
            name = todo.pop(0)
            for task in self.live_c2(name):
                if task.id in seen:
                    continue
                seen.add(task.id)
                parts.append(task)
                for call in task.calls:
                    if call.decision is False and on_path(call.callee) and call.count > 0:
                        todo.append(call.callee)
        return parts

    def path_calls(self, task):
        """The calls of a part that the table reports: every call not inlined where the caller or
        the callee is the agent's (Tomcat's own calls in Tomcat's frames are Tomcat's business),
        and every call the caller reached with a count of 0 is left out (never run)."""
        out = []
        for call in task.calls:
            if call.decision is not False:
                continue
            if not (on_path(call.caller) or on_path(call.callee)):
                continue
            out.append(call)
        return out


def short(name):
    return (name.replace("io.tollgate.", "").replace("org.apache.catalina.", "catalina.")
            .replace("java.lang.", "").replace("shaded.com.github.benmanes.", ""))


def report(run, out=sys.stdout):
    p = lambda *a: print(*a, file=out)
    p("## " + run.dir)
    if run.info:
        p(run.info)
    parts = run.path()
    if not parts:
        p("no live tier-4 nmethod of " + ROOT)
        return {}
    p("")
    p("| part (live tier-4 nmethod) | id | bytecode | nmethod B | insts B | inlined | not inlined on the path |")
    p("|---|---|---|---|---|---|---|")
    totals = collections.Counter()
    summary = {"parts": 0, "nmethod": 0, "insts": 0, "fails": collections.Counter(),
               "megamorphic": 0, "hot_fails": 0}
    for task in parts:
        size, insts, _ = run.nmethods.get(task.id, (0, 0, 0))
        calls = run.path_calls(task)
        p(f"| {short(task.name)} | {task.id} | {task.bytes} | {size} | {insts} | {task.inlined} | {len(calls)} |")
        summary["parts"] += 1
        summary["nmethod"] += size
        summary["insts"] += insts
    p(f"| **all {summary['parts']} parts** | | | **{summary['nmethod']}** | **{summary['insts']}** | | |")
    p("")
    p("Calls not inlined on the path (caller or callee the agent's; count = the profile's calls at the site, -1 or 0: not reached while profiled):")
    p("")
    p("| in part | caller@bci | callee (bytecode) | count | reason |")
    p("|---|---|---|---|---|")
    for task in parts:
        for call in run.path_calls(task):
            reason = call.reason + (" (virtual, %d receiver%s)" % (call.receivers, "" if call.receivers == 1 else "s")
                                    if call.kind == "virtual" else "")
            p(f"| {short(task.name)} | {short(call.caller)}@{call.bci} | {short(call.callee)} ({call.callee_bytes}) | {call.count} | {reason} |")
            summary["fails"][call.reason] += 1
            if call.count > 0:
                summary["hot_fails"] += 1
            if call.kind == "virtual" and call.receivers == 0 and call.count > 0:
                summary["megamorphic"] += 1
    ids = {t.id for t in parts}
    names = {t.name for t in parts}
    p("")
    p(f"Calls not inlined on the path: {sum(summary['fails'].values())}, of which run while"
      f" profiled (count > 0): {summary['hot_fails']}")
    p("By reason: " + ", ".join(f"{r} {n}" for r, n in summary["fails"].most_common()))
    p(f"Virtual calls run while profiled but with no receiver profiled (megamorphic): {summary['megamorphic']}")
    # every compilation of the path's methods: recompilations and deoptimizations
    compiled = collections.Counter()
    for t in run.tasks.values():
        if t.name in names or t.name == ROOT:
            compiled[(t.name, t.level)] += 1
    recompiled = {n: c for (n, lvl), c in compiled.items() if lvl == 4 and c > 1}
    p("C2 compilations of a part's method more than once: "
      + (", ".join(f"{short(n)} ×{c}" for n, c in sorted(recompiled.items())) or "none"))
    all_ids_of = collections.defaultdict(set)
    for t in run.tasks.values():
        all_ids_of[t.name].add(t.id)
    path_ids = set().union(*(all_ids_of[n] for n in names)) if names else set()
    ne = sorted({(cid, lvl) for cid, lvl, _ in run.not_entrant if cid in path_ids and lvl == "4"})
    p(f"Tier-4 nmethods of the path's methods made not entrant: {len(ne)}"
      + (" (" + ", ".join(f"{short(run.tasks[c].name)}#{c}" for c, _ in ne) + ")" if ne else ""))
    traps = [t for t in run.traps if t[2] in path_ids or (t[4] and on_path(t[4]))]
    trapc = collections.Counter((t[4], t[0], t[1]) for t in traps)
    p(f"Uncommon traps fired in the path's compiled code (or in agent frames): {len(traps)}")
    for (where, reason, action), n in sorted(trapc.items(), key=lambda kv: -kv[1])[:15]:
        p(f"  {n} × {short(where or '?')} {reason} → {action}")
    summary["not_entrant"] = len(ne)
    summary["traps"] = len(traps)
    summary["root"] = [t for t in parts if t.name == ROOT]
    return summary


def root_line(run, summary):
    r = summary["root"]
    if not r:
        return "-"
    t = r[0]
    size, insts, _ = run.nmethods.get(t.id, (0, 0, 0))
    return f"{t.bytes} B bytecode, nmethod {size} B ({insts} B insts), {t.inlined} inlined"


def main(argv):
    if argv and argv[0] == "--compare":
        runs = [Run(d) for d in argv[1:]]
        sums = [report(r) for r in runs]
        print("\n## Compared")
        print("| | " + " | ".join(r.dir for r in runs) + " |")
        print("|---" * (len(runs) + 1) + "|")
        for key in ("parts", "nmethod", "insts", "hot_fails", "megamorphic", "not_entrant", "traps"):
            print(f"| {key} | " + " | ".join(str(s.get(key, '-')) for s in sums) + " |")
        print("| calls not inlined (all) | " + " | ".join(str(sum(s['fails'].values())) for s in sums) + " |")
        print(f"| {short(ROOT)} | " + " | ".join(root_line(r, s) for r, s in zip(runs, sums)) + " |")
        return
    for d in argv:
        report(Run(d))
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
