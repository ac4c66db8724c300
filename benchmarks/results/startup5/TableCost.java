import io.tollgate.config.CountedState;
import io.tollgate.config.RuleConfig;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import java.lang.management.ManagementFactory;
import java.nio.file.Paths;

/** The thread CPU of the first fingerprints of a file, once its rules are built (this branch's code: the table is made then). */
public class TableCost {
  public static void main(String[] a) throws Exception {
    RulesConfig config = RulesFileParser.parse(Paths.get(a[0]));
    new RuleSetFactory(Clock.system()).build(config, null);
    var t = ManagementFactory.getThreadMXBean();
    long c0 = t.getCurrentThreadCpuTime();
    CountedState.OfFile f = CountedState.ofFile(config);
    for (RuleConfig r : config.rules()) {
      f.ofBudget(r, "", r.limits().get(0));
      f.carriedOverBy(r, "");
    }
    System.out.println("first_fingerprints_cpu_us=" + (t.getCurrentThreadCpuTime() - c0) / 1000);
  }
}
