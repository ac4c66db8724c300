package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which class files declare an entry point: only those are parsed by the weaving, every other
 * class the application loads is passed over at the cost of a scan of its constant pool (and, for
 * the few that mention an entry point's types, of their method headers). A class wrongly judged
 * "no" would never be instrumented (its requests would pass unlimited); a wrong "yes" only costs a
 * parse.
 */
class EntryPointClassFilesTest {

  private static final EntryPointClassFiles CLASS_FILES = AllEntryPoints.WEAVING.classFiles();

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    // Servlets and filters, both namespaces: their service/doFilter take (ServletRequest, ServletResponse...)
    "jakarta.servlet.http.HttpServlet,                             true",
    "jakarta.servlet.http.HttpFilter,                              true",
    "javax.servlet.http.HttpServlet,                               true",
    "javax.servlet.http.HttpFilter,                                true",
    // their service is abstract: nothing to weave
    "jakarta.servlet.GenericServlet,                               false",
    "javax.servlet.GenericServlet,                                 false",
    "io.tollgate.instrumentation.EntryPointClassFilesTest$AppServlet, true",
    "io.tollgate.instrumentation.EntryPointClassFilesTest$AppFilter,  true",
    // Spring MVC's HandlerAdapter.handle(HttpServletRequest, HttpServletResponse, Object) returns
    // a ModelAndView: the same arguments with another result are not it (Spring's own adapters
    // are woven in WeavingVerificationIT's spring-webmvc corpora)
    "io.tollgate.instrumentation.EntryPointClassFilesTest$JakartaHandlerAdapter, false",
    "io.tollgate.instrumentation.EntryPointClassFilesTest$JavaxHandlerAdapter,   false",
    // Jersey and Grizzly: one class each, by name
    "org.glassfish.jersey.server.model.ResourceMethodInvoker,      true",
    "org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpContainer, true",
    // Classes that only call an entry point, or declare one that is never woven: told from their
    // method headers, not parsed
    "io.tollgate.instrumentation.EntryPointClassFilesTest$ServletCaller,       false",
    "io.tollgate.instrumentation.EntryPointClassFilesTest$StaticService,       false",
    "io.tollgate.instrumentation.EntryPointClassFilesTest$ServiceReturningInt, false",
    // Interfaces are never changed: nothing to parse
    "jakarta.servlet.Servlet,                                      false",
    "jakarta.servlet.Filter,                                       false",
    "javax.servlet.Servlet,                                        false",
    "io.tollgate.instrumentation.EntryPointClassFilesTest$HandlerAdapterLike, false",
    // Everything else
    "java.lang.String,                                             false",
    "java.util.concurrent.ConcurrentHashMap,                       false",
    "jakarta.servlet.http.Cookie,                                  false",
    "io.tollgate.instrumentation.EntryPointClassFiles,             false",
    "org.glassfish.grizzly.http.server.HttpServer,                 false",
  })
  void judgesClassFiles(String className, boolean mayBeInstrumented) throws IOException {
    assertEquals(mayBeInstrumented, CLASS_FILES.mayBeInstrumented(classFile(className)));
  }

  /** The one walk over a class's constant pool answers the class-loader weaving's question too. */
  @ParameterizedTest(name = "{0}: entry point {1}, loadClass {2}")
  @CsvSource({
    // class                                                                 entry point, loadClass
    "io.tollgate.instrumentation.EntryPointClassFilesTest$AppServlet,          true,  false",
    "io.tollgate.instrumentation.EntryPointClassFilesTest$AppClassLoader,      false, true",
    "io.tollgate.instrumentation.EntryPointClassFilesTest$ServletThatLoads,    true,  true",
    "io.tollgate.instrumentation.EntryPointClassFilesTest$LoaderLike,          false, false",
    "java.lang.String,                                                         false, false",
  })
  void oneScanAnswersBothWeavings(String className, boolean entryPoint, boolean loadClass)
      throws IOException {
    int found = CLASS_FILES.scan(classFile(className));
    assertEquals(entryPoint, (found & EntryPointClassFiles.MAY_DECLARE_ENTRY_POINT) != 0);
    assertEquals(loadClass, (found & EntryPointClassFiles.MENTIONS_LOAD_CLASS) != 0);
  }

  @Test
  void bytesThatAreNotAClassFileAreNotACandidate() throws IOException {
    byte[] truncated = java.util.Arrays.copyOf(classFile("jakarta.servlet.http.HttpServlet"), 200);
    assertFalse(CLASS_FILES.mayBeInstrumented(truncated));
    assertFalse(CLASS_FILES.mayBeInstrumented(new byte[] {1, 2, 3}));
    assertFalse(CLASS_FILES.mayBeInstrumented(new byte[0]));
    assertFalse(CLASS_FILES.mayBeInstrumented(null));
  }

  static byte[] classFile(String className) throws IOException {
    String resource = "/" + className.replace('.', '/') + ".class";
    try (InputStream in = EntryPointClassFilesTest.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("no class file for " + className);
      }
      return in.readAllBytes();
    }
  }

  static class AppServlet extends jakarta.servlet.http.HttpServlet {
    @Override
    public void service(jakarta.servlet.ServletRequest req, jakarta.servlet.ServletResponse res) {}
  }

  static class AppFilter implements javax.servlet.Filter {
    @Override
    public void doFilter(
        javax.servlet.ServletRequest req,
        javax.servlet.ServletResponse res,
        javax.servlet.FilterChain chain) {}
  }

  /** Calls a servlet's service: its constant pool names the descriptor, its methods do not. */
  static class ServletCaller {
    void call(jakarta.servlet.Servlet servlet, jakarta.servlet.ServletRequest req,
        jakarta.servlet.ServletResponse res) throws Exception {
      servlet.service(req, res);
    }
  }

  static class StaticService {
    public static void service(jakarta.servlet.ServletRequest req,
        jakarta.servlet.ServletResponse res) {}
  }

  static class ServiceReturningInt {
    public int service(jakarta.servlet.ServletRequest req, jakarta.servlet.ServletResponse res) {
      return 0;
    }
  }

  static class AppClassLoader extends ClassLoader {
    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      return super.loadClass(name, resolve);
    }
  }

  /** An interface is never woven, whatever it names. */
  interface LoaderLike {
    Class<?> loadClass(String name) throws ClassNotFoundException;
  }

  static class ServletThatLoads extends jakarta.servlet.http.HttpServlet {
    @Override
    public void service(jakarta.servlet.ServletRequest req, jakarta.servlet.ServletResponse res) {
      try {
        getClass().getClassLoader().loadClass("x");
      } catch (ClassNotFoundException ignored) {
        // only its constant pool matters
      }
    }
  }

  /** The shape of Spring's {@code HandlerAdapter} (Spring is not on the test class path). */
  interface HandlerAdapterLike {
    Object handle(
        jakarta.servlet.http.HttpServletRequest request,
        jakarta.servlet.http.HttpServletResponse response,
        Object handler);
  }

  static class JakartaHandlerAdapter implements HandlerAdapterLike {
    @Override
    public Object handle(
        jakarta.servlet.http.HttpServletRequest request,
        jakarta.servlet.http.HttpServletResponse response,
        Object handler) {
      return null;
    }
  }

  static class JavaxHandlerAdapter {
    public Object handle(
        javax.servlet.http.HttpServletRequest request,
        javax.servlet.http.HttpServletResponse response,
        Object handler) {
      return null;
    }
  }
}
