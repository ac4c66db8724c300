#!/usr/bin/env bash
# Writes agent/start-path-classes.txt: the agent's classes that a start defines before the first
# 200 (Spring Boot 3 and servlet-jakarta with config-examples/quickstart.yaml, one start each, by
# startup-counts.sh's class-load logs), as entries under inst/. The agent's build stores those
# entries in the jar without deflating them, so that the agent's class loader reads them as they
# are (inflating was ~10% of the start-up thread's CPU). A class missing from the list is only
# deflated, as before; a listed class that no longer exists fails AgentJarContentsIT. Run it after
# a change that moves many classes on or off the start path.
# Usage: benchmarks/start-path-classes.sh   env: PORT=18395 RES=$(mktemp -d)
# Needs: mvn -B -q -o install -DskipTests (the agent and the test apps).
set -euo pipefail
cd "$(dirname "$0")/.."
RES=${RES:-$(mktemp -d)}
for app in spring-boot3 servlet-jakarta; do
  MODES=agent RES=$RES benchmarks/startup-counts.sh $app 1 >/dev/null
done
python3 - "$RES" agent/start-path-classes.txt <<'PY'
import glob, re, sys, zipfile
res, out = sys.argv[1], sys.argv[2]
line_re = re.compile(r'^\[\d+\.\d+s\]\[\d+\]\S*\s+(\S+) source: ')
names = set()
for log in glob.glob(f"{res}/counts-*-agent-*.classes.log"):
    for line in open(log, errors='replace'):
        m = line_re.match(line)
        # the agent's own classes under inst/ (not the bridge's at the root, nor spun or generated ones)
        if m and m.group(1).startswith('io.tollgate.') and not m.group(1).startswith(('io.tollgate.bootstrap.', 'io.tollgate.testapps.')):
            names.add(m.group(1).split('/')[0])
jar = zipfile.ZipFile('agent/target/tollgate-agent.jar')
entries = set(jar.namelist())
listed = sorted(e for e in (n.replace('.', '/') + '.classdata' for n in names) if 'inst/' + e in entries)
open(out, 'w').write(''.join(e + '\n' for e in listed))
print(f"{len(listed)} classes in {out}")
PY
