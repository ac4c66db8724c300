import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.lang.management.*;
import java.nio.file.Paths;

public class LoadAnatomy {
  static java.util.Map<String,Long> threads() throws Exception {
    java.util.Map<String,Long> m = new java.util.TreeMap<>();
    for (java.io.File d : new java.io.File("/proc/self/task").listFiles()) {
      String s; try { s = new String(java.nio.file.Files.readAllBytes(new java.io.File(d, "stat").toPath())); } catch (Exception e) { continue; }
      String comm = s.substring(s.indexOf('(')+1, s.lastIndexOf(')'));
      String[] f = s.substring(s.lastIndexOf(')')+2).split(" ");
      String g = comm.startsWith("C1") ? "C1" : comm.startsWith("C2") ? "C2" : comm.startsWith("G1") || comm.startsWith("GC") ? "GC" : comm.equals("main")||comm.equals("java") ? "main" : "other";
      m.merge(g, (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10, Long::sum);
    }
    return m;
  }
  public static void main(String[] a) throws Exception {
    com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    ClassLoadingMXBean cl = ManagementFactory.getClassLoadingMXBean();
    long gcN0 = 0, gcT0 = 0; for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) { gcN0 += g.getCollectionCount(); gcT0 += g.getCollectionTime(); }
    long pc0 = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    long j0 = jit.getTotalCompilationTime(); int c0 = cl.getLoadedClassCount();
    long al0 = t.getCurrentThreadAllocatedBytes();
    java.util.Map<String,Long> th0 = threads();
    long w = System.nanoTime(), cpu = t.getCurrentThreadCpuTime();
    RuleSetFactory f = new RuleSetFactory(Clock.system());
    long p0 = System.nanoTime(), pcpu0 = t.getCurrentThreadCpuTime();
    RulesConfig config = RulesFileParser.parse(Paths.get(a[0]));
    long p1 = System.nanoTime(), pcpu1 = t.getCurrentThreadCpuTime();
    RuleSet rs = f.build(config, null); f.applied();
    long wall = (System.nanoTime() - w) / 1000000, tc = (t.getCurrentThreadCpuTime() - cpu) / 1000000;
    long gcN = 0, gcT = 0; for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) { gcN += g.getCollectionCount(); gcT += g.getCollectionTime(); }
    long pc = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    java.util.Map<String,Long> th1 = threads(); StringBuilder sb = new StringBuilder(); for (String k : th1.keySet()) sb.append(k).append('=').append(th1.get(k) - th0.getOrDefault(k, 0L)).append(' ');
    System.out.println(sb);
    System.out.printf("rules %d wall %d cpu %d | parse wall %d cpu %d | build wall %d | alloc %d MB | gc %d x %d ms | jit %d ms | classes +%d | process-cpu during %d ms | load %s%n",
      rs.size(), wall, tc, (p1-p0)/1000000, (pcpu1-pcpu0)/1000000, (System.nanoTime()-p1)/1000000,
      (t.getCurrentThreadAllocatedBytes()-al0)>>20, gcN-gcN0, gcT-gcT0, jit.getTotalCompilationTime()-j0, cl.getLoadedClassCount()-c0, (pc-pc0)/1000000,
      new String(java.nio.file.Files.readAllBytes(Paths.get("/proc/loadavg"))).split(" ")[0]);
  }
}
