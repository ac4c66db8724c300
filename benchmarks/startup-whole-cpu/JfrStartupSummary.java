import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * benchmarks/startup-whole-cpu.sh: reduces one start's JFR recording (dumped at the first 200) to
 * what the summary reads, one "key value" per line: the compilers' time on the agent's methods
 * against the others' (jdk.Compilation's durations, by compiler and tier), the bytes allocated by
 * the agent's code against all (jdk.ObjectAllocationSample's weights; the agent's when a frame of
 * its stack is), and the collections, up to the first 200 (events that began later are left out).
 * Usage: java JfrStartupSummary.java FILE.jfr FIRST_200_EPOCH_MILLIS
 */
public final class JfrStartupSummary {

  /** The agent's classes, its bridge's and its shaded libraries', not the test applications'. */
  static boolean agents(String internalName) {
    return internalName.startsWith("io/tollgate/") || internalName.startsWith("io.tollgate.")
        ? !internalName.startsWith("io/tollgate/testapps") && !internalName.startsWith("io.tollgate.testapps")
        : false;
  }

  static String group(RecordedThread thread) {
    String name = thread == null ? "" : thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
    if (name == null) return "other";
    if (name.equals("main")) return "main";
    if (name.startsWith("tollgate")) return "agent";
    if (name.contains("exec") || name.startsWith("http-nio")) return "request";
    return "other";
  }

  public static void main(String[] args) throws Exception {
    Map<String, Double> sums = new TreeMap<>();
    Map<String, Double> agentMethods = new TreeMap<>();
    Map<String, Double> agentAllocators = new TreeMap<>();
    long first200 = Long.parseLong(args[1]);
    for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[0]))) {
      if (e.getStartTime().toEpochMilli() > first200) {
        continue;
      }
      switch (e.getEventType().getName()) {
        case "jdk.Compilation": {
          RecordedMethod m = e.getValue("method");
          String type = m.getType().getName();
          boolean ours = agents(type);
          int level = e.getInt("compileLevel");
          String compiler = level == 4 ? "c2" : "c1";
          double ms = e.getDuration().toNanos() / 1e6;
          String key = "compile." + compiler + "." + (ours ? "agent" : "others");
          add(sums, key + ".ms", ms);
          add(sums, key + ".count", 1);
          if (ours) {
            add(agentMethods, compiler + " " + type + "." + m.getName() + (e.getBoolean("isOsr") ? " (OSR)" : ""), ms);
          }
          break;
        }
        case "jdk.ObjectAllocationSample": {
          double weight = e.getLong("weight");
          String group = group(e.getThread("eventThread"));
          add(sums, "alloc.all.bytes", weight);
          add(sums, "alloc." + group + ".bytes", weight);
          RecordedStackTrace stack = e.getStackTrace();
          String ourFrame = null;
          if (stack != null) {
            List<RecordedFrame> frames = stack.getFrames();
            for (RecordedFrame f : frames) { // leaf first: the agent's frame nearest the allocation
              if (f.isJavaFrame() && agents(f.getMethod().getType().getName())) {
                ourFrame = f.getMethod().getType().getName() + "." + f.getMethod().getName();
                break;
              }
            }
          }
          if (ourFrame != null || group.equals("agent")) {
            add(sums, "alloc.agent.bytes", weight);
            add(sums, "alloc.agent-on-" + group + ".bytes", weight);
            add(agentAllocators, group + " " + (ourFrame == null ? "(no agent frame)" : ourFrame), weight);
          }
          break;
        }
        case "jdk.GarbageCollection": {
          add(sums, "gc.count", 1);
          add(sums, "gc.pause-sum.ms", e.getDuration("sumOfPauses").toNanos() / 1e6);
          add(sums, "gc.duration.ms", e.getDuration().toNanos() / 1e6);
          break;
        }
        default:
      }
    }
    sums.forEach((k, v) -> System.out.printf("%s %.3f%n", k, v));
    top(agentMethods, "compiled", 15);
    top(agentAllocators, "allocator", 10);
  }

  static void top(Map<String, Double> m, String what, int n) {
    m.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(n)
        .forEach(en -> System.out.printf("top.%s %.3f %s%n", what, en.getValue(), en.getKey().replace(' ', '|')));
  }

  static void add(Map<String, Double> m, String k, double v) {
    m.merge(k, v, Double::sum);
  }
}
