package io.tollgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * When the agent's start waits for the first request, so as not to set up java.util.logging
 * before an application that installs its own manager.
 */
class ApplicationLogManagerTest {

  /** Holds one class, as the application's class path would: {@code com.example.AppLogManager}. */
  private static final ClassLoader CLASS_PATH =
      new ClassLoader(null) {
        @Override
        public java.net.URL getResource(String name) {
          try {
            return name.equals("com/example/AppLogManager.class")
                ? new java.net.URL("file:/app/com/example/AppLogManager.class")
                : null;
          } catch (java.net.MalformedURLException e) {
            throw new AssertionError(e);
          }
        }
      };

  @ParameterizedTest(name = "argument {0}, manager {1}, command {2}: waits {3}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        // argument | java.util.logging.manager  | sun.java.command                              | waits
        "-          | -                            | app.jar                                       | false",
        "-          | -                            | com.example.Main --port 8080                  | false",
        "-          | java.util.logging.LogManager | app.jar                                       | false",
        "-          | com.example.AppLogManager    | app.jar                                       | false",
        "-          | org.jboss.logmanager.LogManager | app.jar                                     | true",
        "-          | -                            | /opt/wildfly/jboss-modules.jar -mp /opt/wildfly/modules org.jboss.as.standalone | true",
        "-          | -                            | jboss-modules-2.1.0.Final.jar -mp modules x   | true",
        "-          | -                            | org.jboss.modules.Main -mp modules x          | true",
        "-          | -                            | org.jboss.modules.Main\t-mp modules x         | true",
        "-          | -                            | org.jboss.modules.Main                        | true",
        "-          | -                            | org.jboss.modules.MainX -mp modules x         | false",
        "-          | -                            | my-jboss-modules-tool.txt                     | false",
        "true       | -                            | app.jar                                       | true",
        "TRUE       | -                            | app.jar                                       | true",
        "false      | org.jboss.logmanager.LogManager | jboss-modules.jar -mp modules x            | false",
      })
  void waitsOnlyWhenTheApplicationInstallsAManagerLater(
      String argument, String manager, String command, boolean waits) {
    String reason = ApplicationLogManager.reasonToWait(argument, manager, command, CLASS_PATH);
    assertEquals(waits, reason != null, String.valueOf(reason));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        "true  | -                               | app.jar           | the argument custom-log-manager=true says",
        "-     | org.jboss.logmanager.LogManager | app.jar           | java.util.logging.manager names org.jboss.logmanager.LogManager",
        "-     | -                               | jboss-modules.jar | runs on JBoss Modules",
      })
  void theReasonIsSaid(String argument, String manager, String command, String said) {
    String reason = ApplicationLogManager.reasonToWait(argument, manager, command, CLASS_PATH);
    assertEquals(true, reason.contains(said), reason);
  }
}
