# Sourced by the end-to-end scripts. jit_ticks: the CPU ticks (1/CLK_TCK s, user + system) used so
# far by the JIT compiler threads ("C1 CompilerThre", "C2 CompilerThre") of the JVM whose pid is
# in $PID. A JIT still compiling costs more per request than anything these scripts measure, so
# they warm up until it has settled and report its share apart.
jit_ticks() {
  local t sum=0
  for t in /proc/$PID/task/*; do
    if grep -q Compiler "$t/comm" 2>/dev/null; then
      sum=$((sum + $(awk '{print $14 + $15}' "$t/stat" 2>/dev/null || echo 0)))
    fi
  done
  echo $sum
}
