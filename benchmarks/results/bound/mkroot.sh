#!/bin/bash
# a copy of what run-redis-faults.sh needs, so that rebuilding the worktree does not touch a pass
set -e
R=/tmp/bound/root; rm -rf $R; mkdir -p $R/agent/target $R/test-apps/servlet-jakarta/target
cp -r /work/h-bound/benchmarks $R/
cp -r /work/h-bound/agent/target/test-classes $R/agent/target/
cp /work/h-bound/agent/target/tollgate-agent.jar $R/agent/target/
cp /work/h-bound/test-apps/servlet-jakarta/target/servlet-jakarta.jar $R/test-apps/servlet-jakarta/target/
