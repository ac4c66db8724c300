import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * An application whose main does nothing but say what ran before it: the main thread's CPU when
 * main begins (the JVM's boot, and an agent's premain), then it sleeps ARGS[0] ms (default 1500) so
 * that an agent's start-up thread can finish and log its "ready" line. Linux only (/proc).
 */
public class MainEntry {
  public static void main(String[] args) throws Exception {
    String schedstat = new String(Files.readAllBytes(Paths.get("/proc/thread-self/schedstat")));
    long mainNanos = Long.parseLong(schedstat.split(" ")[0]);
    Thread.sleep(args.length > 0 ? Long.parseLong(args[0]) : 1500);
    System.out.println("main_cpu_ms=" + mainNanos / 1_000_000);
  }
}
