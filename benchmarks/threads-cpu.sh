# Sourced by the start-up scripts (run-startup.sh, startup-counts.sh, startup-whole-cpu.sh): a
# JVM's CPU, by thread and by thread group, read from /proc.
# shellcheck shell=bash
thread_cpu_lines() { # pid -> one line per live thread: "tid cpu_ms name" (the name may hold spaces)
  local hz t s rest comm tid; hz=$(getconf CLK_TCK)
  for t in /proc/$1/task/*; do
    s=$(cat "$t/stat" 2>/dev/null) || continue
    tid=${s%% *}; comm=${s#*(}; comm=${comm%)*}; rest=${s##*) }
    read -r -a f <<<"$rest"
    echo "$tid $(( (f[11] + f[12]) * 1000 / hz )) $comm"
  done
}

threads_cpu() { # pid -> "main=MS compiler=MS request=MS gc=MS agent=MS other=MS": CPU of the live threads
  local tid ms comm group
  declare -A sum=([main]=0 [compiler]=0 [request]=0 [gc]=0 [agent]=0 [other]=0)
  while read -r tid ms comm; do
    case $comm in
      java) [ "$tid" = "$1" ] && group=other || group=main ;; # the launcher's thread, then Java's main
      C1\ *|C2\ *) group=compiler ;;
      http-nio*|*exec*) group=request ;;
      GC\ *|G1\ *) group=gc ;;
      tollgate*) group=agent ;;
      *) group=other ;;
    esac
    sum[$group]=$(( sum[$group] + ms ))
  done < <(thread_cpu_lines "$1")
  echo "main=${sum[main]} compiler=${sum[compiler]} request=${sum[request]} gc=${sum[gc]} agent=${sum[agent]} other=${sum[other]}"
}

jvm_cpu_ms() { # pid -> the process's user + system CPU so far, in ms
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($14 + $15) * 1000 / hz }' "/proc/$1/stat"
}
