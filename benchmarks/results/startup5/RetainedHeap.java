import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.lang.management.ManagementFactory;
import java.nio.file.Paths;

/** The heap a built RuleSet keeps (after full GCs), the rules file given: a throwaway measurement. */
public class RetainedHeap {
  static RuleSet kept;
  public static void main(String[] a) throws Exception {
    long before = used();
    RuleSetFactory factory = new RuleSetFactory(Clock.system());
    RulesConfig config = RulesFileParser.parse(Paths.get(a[0]));
    kept = factory.build(config, null);
    factory.applied();
    config = null;
    long after = used();
    long t0 = System.nanoTime();
    RuleSet again = factory.build(RulesFileParser.parse(Paths.get(a[0])), kept);
    long reloadMs = (System.nanoTime() - t0) / 1_000_000;
    System.out.println("retained_kb=" + (after - before) / 1024 + " first_reload_ms=" + reloadMs + " rules=" + again.hashCode() % 1);
  }
  static long used() {
    for (int i = 0; i < 4; i++) System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
