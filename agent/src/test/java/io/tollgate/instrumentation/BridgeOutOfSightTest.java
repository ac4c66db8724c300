package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.bootstrap.TollgateBridge;
import io.tollgate.instrumentation.samples.Events;
import io.tollgate.instrumentation.samples.SampleServlet;
import io.tollgate.instrumentation.samples.TrickyFilter;
import io.tollgate.testing.StandardErrorCapture;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An entry point whose class loader does not show it the bridge (JBoss Modules' before the agent
 * could weave it: a module sees {@code java.*} and its dependencies, not the bootstrap class path)
 * is left as it is: its requests pass, instead of each failing with {@code NoClassDefFoundError},
 * and one error names the loader and the fix. The same class in a loader that shows the bridge is
 * woven and decided. The loaders run the agent's transformer as the JVM would, as they define the
 * class; the engine behind the bridge refuses every request.
 */
class BridgeOutOfSightTest {

  @RegisterExtension final StandardErrorCapture stderr = new StandardErrorCapture();

  private final RecordingGate gate = new RecordingGate();
  private final EntryPointTransformer transformer =
      new EntryPointTransformer(null, EntryPointWeaving.all());

  @BeforeEach
  void refuseEverything() {
    Events.LOG.clear();
    gate.answer = Refusal.WRITTEN;
    TollgateBridge.install(gate);
  }

  @AfterEach
  void removeGate() {
    TollgateBridge.install(null);
  }

  @Test
  void aLoaderThatHidesTheBridgeGetsItsClassesUnwovenAndOneError() throws Exception {
    ModuleLikeLoader module = new ModuleLikeLoader(transformer, false);

    service(module.loadClass(SampleServlet.class.getName()));
    service(module.loadClass(SampleServlet.class.getName()));
    module.loadClass(TrickyFilter.class.getName());

    assertEquals(List.of("body", "body end", "body", "body end"), Events.LOG,
        "both requests passed, through the servlet's own code");
    List<String> errors = lines("ERROR");
    assertEquals(1, errors.size(), "one error for the loader, whatever it loads:\n" + stderr.text());
    String error = errors.get(0);
    assertTrue(error.contains(ModuleLikeLoader.class.getName())
            && error.contains("does not show its classes the agent's bridge")
            && error.contains(SampleServlet.class.getName())
            && error.contains("requests through them pass unlimited")
            && error.contains("Fix: "),
        error);
    assertEquals(List.of(), lines("instrumented"), "nothing woven");
  }

  @Test
  void aLoaderThatShowsTheBridgeGetsItsClassesWovenAndDecided() throws Exception {
    ModuleLikeLoader module = new ModuleLikeLoader(transformer, true);

    service(module.loadClass(SampleServlet.class.getName()));

    assertEquals(List.of("started null null"), Events.LOG, "refused before the servlet's code");
    assertEquals(List.of(), lines("ERROR"), stderr.text());
    assertEquals(1, lines("instrumented " + SampleServlet.class.getName()).size(), stderr.text());
  }

  private static void service(Class<?> servlet) throws Exception {
    Object instance = servlet.getDeclaredConstructor().newInstance();
    Method service = servlet.getMethod("service",
        servlet.getClassLoader().loadClass("jakarta.servlet.ServletRequest"),
        servlet.getClassLoader().loadClass("jakarta.servlet.ServletResponse"));
    service.invoke(instance, null, null);
  }

  private List<String> lines(String text) {
    return stderr.agentLines().stream().filter(l -> l.contains(text)).collect(Collectors.toList());
  }

  /**
   * Defines the sample entry points itself, through the transformer; shows them {@code java.*},
   * the servlet API and the samples' event log (from the test class path), and the bridge's
   * package only if asked to. Every other name is refused, as a module refuses what it does not
   * import.
   */
  static final class ModuleLikeLoader extends ClassLoader {

    private final EntryPointTransformer transformer;
    private final boolean showsBridge;

    ModuleLikeLoader(EntryPointTransformer transformer, boolean showsBridge) {
      super(null);
      this.transformer = transformer;
      this.showsBridge = showsBridge;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        if (loaded != null) {
          return loaded;
        }
        if (name.startsWith("java.")
            || name.startsWith("jakarta.servlet.")
            || name.equals(Events.class.getName())
            || (showsBridge && name.startsWith("io.tollgate.bootstrap."))) {
          return BridgeOutOfSightTest.class.getClassLoader().loadClass(name);
        }
        if (name.startsWith("io.tollgate.instrumentation.samples.")) {
          return define(name);
        }
        throw new ClassNotFoundException(name + " is not visible from this module");
      }
    }

    private Class<?> define(String name) throws ClassNotFoundException {
      byte[] original;
      try (InputStream in = BridgeOutOfSightTest.class.getResourceAsStream(
          "/" + name.replace('.', '/') + ".class")) {
        if (in == null) {
          throw new ClassNotFoundException(name);
        }
        original = in.readAllBytes();
      } catch (IOException e) {
        throw new ClassNotFoundException(name, e);
      }
      byte[] woven = transformer.transform(this, name.replace('.', '/'), null, null, original);
      byte[] bytes = woven != null ? woven : original;
      return defineClass(name, bytes, 0, bytes.length);
    }
  }
}
