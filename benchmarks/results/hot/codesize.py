#!/usr/bin/env python3
"""Sums the request path's compiled code from `jcmd Compiler.codelist`: the nmethods of the agent's
request-path packages and Tomcat's host valve, by tier, and the tier-4 ones largest first.
Usage: codesize.py CODELIST"""
import re, sys, collections

# the packages an allowed request runs through (start-up's class-file walk and ASM left out)
PATH = re.compile(r'^(io\.tollgate\.(bootstrap|engine|instrumentation\.(EntryPointDispatch|container|servlet)|'
                  r'keys|rules|stores|limiters|http)\.|org\.apache\.catalina\.core\.StandardHostValve\.invoke)')
rows = []
for line in open(sys.argv[1]):
    m = re.match(r'\s*(\d+)\s+(\d)\s+(\d)\s+(\S+?)(\(.*?\)\S*)\s+\[0x([0-9a-f]+), 0x([0-9a-f]+) - 0x([0-9a-f]+)\]', line)
    if not m:
        continue
    _, level, state, name, sig, start, code, end = m.groups()
    if state != '0':  # in use only (not entrant / zombie code left out)
        continue
    rows.append((int(level), name, sig, int(end, 16) - int(start, 16), int(end, 16) - int(code, 16)))
path = [r for r in rows if PATH.match(r[1])]
for level in (4, 3, 2, 1):
    sel = [r for r in path if r[0] == level]
    print(f'tier {level}: {len(sel)} nmethods on the path, {sum(r[3] for r in sel)} bytes '
          f'(code {sum(r[4] for r in sel)})')
print('tier 4 nmethods on the path, largest first (bytes, code bytes):')
for r in sorted((r for r in path if r[0] == 4), key=lambda r: -r[3]):
    print(f'  {r[3]:7d} {r[4]:7d}  {r[1]}{r[2]}')
