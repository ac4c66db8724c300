#!/usr/bin/env bash
# Builds the empty agents into OUT_DIR (run-startup.sh, startup-whole-cpu.sh):
#   empty-agent.jar                  a transformer that changes nothing, able to retransform as
#                                    Tollgate's is (mode "empty")
#   empty-agent-plain.jar            the same, unable to retransform: no Can-Retransform-Classes,
#                                    registered with canRetransform false (mode "empty-plain";
#                                    start it with the argument "plain")
#   empty-agent-in-tollgate-jar.jar  the empty agent inside a copy of AGENT_JAR, Tollgate's manifest
#                                    capabilities, which it appends to the bootstrap class path as
#                                    Tollgate does (mode "empty-jar"; the argument "boot"): the
#                                    jar's part of a start, none of Tollgate's code run
# Usage: benchmarks/empty-agent/build.sh OUT_DIR AGENT_JAR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1; agent=$2
mkdir -p "$out/empty-agent-classes"
javac --release 11 -d "$out/empty-agent-classes" "$here/EmptyAgent.java"
jar cfm "$out/empty-agent.jar" "$here/MANIFEST.MF" -C "$out/empty-agent-classes" .
jar cfm "$out/empty-agent-plain.jar" "$here/MANIFEST-plain.MF" -C "$out/empty-agent-classes" .
# AGENT_JAR's entries as they are (the stored ones stored), its manifest the empty agent's
python3 - "$agent" "$out/empty-agent-in-tollgate-jar.jar" "$out/empty-agent-classes" <<'PY'
import os, sys, zipfile
src, dst, classes = sys.argv[1:]
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, 'w') as zout:
    zout.writestr('META-INF/MANIFEST.MF', 'Manifest-Version: 1.0\nPremain-Class: EmptyAgent\n'
                  'Can-Redefine-Classes: true\nCan-Retransform-Classes: true\n')
    for name in sorted(os.listdir(classes)):
        zout.write(os.path.join(classes, name), name, zipfile.ZIP_DEFLATED)
    for info in zin.infolist():
        if info.filename != 'META-INF/MANIFEST.MF':
            zout.writestr(info, zin.read(info.filename), info.compress_type)
PY
