package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.opentest4j.TestAbortedException;

/**
 * Where the suite finds JDK 25, and what a test on it does where there is none: runs, is skipped
 * with the reason (a machine with JDK 17 only, nothing asked for), or fails (a place was named and
 * holds no JDK, or CI's -Dtollgate.test.require-jdk25=true).
 */
class JdkTest {

  @TempDir Path dir;

  @ParameterizedTest(name = "named {0}, default {1}, required {2}: {3}")
  @CsvSource({
    // named place, default place, require flag, outcome
    "jdk,     none,   false, runs",
    "jdk,     jdk,    true,  runs",
    "-,       jdk,    false, runs",
    "-,       jdk,    true,  runs",
    "-,       none,   false, skipped",
    "-,       none,   true,  fails",
    "none,    jdk,    false, fails",
    "none,    none,   false, fails",
  })
  void jdk25(String named, String defaultHome, boolean required, String outcome)
      throws IOException {
    Jdk jdk = Jdk.jdk25("-".equals(named) ? null : place(named), place(defaultHome), required);
    assertEquals(25, jdk.feature());
    assertEquals("JDK 25", jdk.toString());
    switch (outcome) {
      case "runs":
        assertTrue(jdk.installed());
        assertEquals(new File(place("jdk"), "bin/java").getAbsolutePath(), jdk.javaExecutable());
        break;
      case "skipped":
        TestAbortedException skipped =
            assertThrows(TestAbortedException.class, jdk::javaExecutable);
        assertTrue(skipped.getMessage().contains("the JDK 25 leg was not run: no JDK 25 at "
            + place("none")), skipped.getMessage());
        break;
      default:
        IllegalStateException failed =
            assertThrows(IllegalStateException.class, jdk::javaExecutable);
        assertTrue(failed.getMessage().contains("JAVA25_HOME"), failed.getMessage());
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    // values in order                | first that is set
    "a     | b | c                    | a",
    "''    | b | c                    | b",
    "'  '  | '' | c                   | c",
    "''    | '' | ''                  | -",
  })
  void theFirstPlaceGivenWins(String property, String shortProperty, String env, String first) {
    assertEquals("-".equals(first) ? null : first,
        Jdk.firstNonEmpty(property, shortProperty, env));
  }

  /** "jdk": a directory with an executable bin/java; "none": an empty one. */
  private String place(String what) throws IOException {
    Path home = dir.resolve(what);
    if ("jdk".equals(what) && !Files.exists(home)) {
      Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
      Files.write(java, new byte[0]);
      assertTrue(java.toFile().setExecutable(true));
    }
    Files.createDirectories(home);
    return home.toString();
  }
}
