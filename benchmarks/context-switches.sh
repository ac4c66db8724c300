# Sourced by run-end-to-end.sh. context_switches: the context switches (voluntary + involuntary)
# of all threads of the JVM whose pid is in $PID so far. How often the server's threads hand a
# request to each other and give up the core is a cost the engine's own figures (JMH) cannot
# show; per request, it tells apart two runs whose throughputs differ for that reason.
context_switches() {
  cat /proc/$PID/task/*/status 2>/dev/null \
    | awk '/^(voluntary|nonvoluntary)_ctxt_switches:/ { n += $2 } END { print n + 0 }'
}
