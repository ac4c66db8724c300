import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The main thread's CPU for loading an application's first entry-point classes, with the agent
 * started and given time to settle: what the agent's weaving costs the thread that loads them (on a
 * real application, its main thread on its way to the first request). Arguments: the classes to
 * load, in order (they must be on the class path). Prints {@code first_weave_cpu_us=N}.
 */
public final class FirstWeave {
  public static void main(String[] args) throws Exception {
    // The agent's start-up thread does its work meanwhile (rules, and what it loads ahead)
    Thread.sleep(Long.getLong("settle.ms", 2000));
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadCpuTime();
    for (String name : args) {
      Class.forName(name, true, FirstWeave.class.getClassLoader());
    }
    long cpu = threads.getCurrentThreadCpuTime() - before;
    System.out.println("first_weave_cpu_us=" + cpu / 1000);
  }
}
