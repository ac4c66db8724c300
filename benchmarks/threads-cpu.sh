# Sourced by the start-up scripts (run-startup.sh, startup-counts.sh): a JVM's CPU by thread group.
# shellcheck shell=bash
threads_cpu() { # pid -> "main=MS compiler=MS request=MS gc=MS agent=MS other=MS": CPU of the live threads
  local hz t s rest comm tid group; hz=$(getconf CLK_TCK)
  declare -A sum=([main]=0 [compiler]=0 [request]=0 [gc]=0 [agent]=0 [other]=0)
  for t in /proc/$1/task/*; do
    s=$(cat "$t/stat" 2>/dev/null) || continue
    tid=${s%% *}; comm=${s#*(}; comm=${comm%)*}; rest=${s##*) }
    read -r -a f <<<"$rest"
    case $comm in
      java) [ "$tid" = "$1" ] && group=other || group=main ;; # the launcher's thread, then Java's main
      C1\ *|C2\ *) group=compiler ;;
      http-nio*|*exec*) group=request ;;
      GC\ *|G1\ *) group=gc ;;
      tollgate*) group=agent ;;
      *) group=other ;;
    esac
    sum[$group]=$(( sum[$group] + (f[11] + f[12]) * 1000 / hz ))
  done
  echo "main=${sum[main]} compiler=${sum[compiler]} request=${sum[request]} gc=${sum[gc]} agent=${sum[agent]} other=${sum[other]}"
}
