package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.tollgate.agent.FrameworkModules;
import java.io.IOException;
import java.io.InputStream;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
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

  /**
   * Every entry point, in a class file that declares just it (and, for one found in subtypes, in a
   * class of another name): found. The walk compares a string only with the class names of its
   * length and with descriptors no shorter than the shortest entry point's arguments, and reads
   * the pool without a call per entry; each entry point here, those whose class names share a
   * length among them, says that these shortcuts leave none out.
   */
  @Test
  void everyEntryPointIsFoundInAClassThatDeclaresIt() {
    for (FrameworkModule module : FrameworkModules.all()) {
      for (EntryPointMethod method : module.entryPoints()) {
        String owner = method.inSubtypes ? "org/example/AnImplementation" : method.type.replace('.', '/');
        int access = Opcodes.ACC_PUBLIC | (method.name.startsWith("lambda$") ? Opcodes.ACC_SYNTHETIC : 0);
        byte[] declaring = classDeclaring(owner, access, method.name, method.descriptor, true);
        assertEquals(EntryPointClassFiles.MAY_DECLARE_ENTRY_POINT, CLASS_FILES.scan(declaring),
            method.toString());
      }
    }
  }

  /**
   * A class file whose strings are as long as an entry point's class name or descriptor, or begin
   * as one does without being one: not a candidate, so the shortcuts answer as the whole compare.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    // as long as org/apache/catalina/connector/Request and three other class names, but none
    "org/apache/catalina/connector/Requesx | service | (Ljava/lang/Object;)V",
    // as long as a servlet's arguments, one byte off near their end
    "org/example/Near                      | service | (Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponsX;)V",
    // the shortest entry point's arguments, and not an entry point's name
    "org/example/Near                      | serve   | (Ljavax/servlet/ServletRequest;Ljavax/servlet/ServletResponse;)V",
  })
  void stringsThatOnlyResembleAnEntryPointAreNot(String owner, String name, String descriptor) {
    assertEquals(0, CLASS_FILES.scan(
        classDeclaring(owner, Opcodes.ACC_PUBLIC, name, descriptor, true)));
  }

  /** Longs and doubles take two places in the pool: the walk after them still finds a marker. */
  @Test
  void aMarkerAfterLongsAndDoublesIsFound() {
    byte[] servlet = classDeclaring("org/example/Servlet", Opcodes.ACC_PUBLIC, "service",
        "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;)V", true);
    byte[] withoutConstants = classDeclaring("org/example/Servlet", Opcodes.ACC_PUBLIC, "service",
        "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;)V", false);
    assertEquals(EntryPointClassFiles.MAY_DECLARE_ENTRY_POINT, CLASS_FILES.scan(servlet));
    assertEquals(EntryPointClassFiles.MAY_DECLARE_ENTRY_POINT, CLASS_FILES.scan(withoutConstants));
  }

  /**
   * A class named {@code owner} that declares one method; with {@code longsFirst}, a long and a
   * double constant come first in its constant pool, before the method's name and descriptor.
   */
  private static byte[] classDeclaring(
      String owner, int access, String name, String descriptor, boolean longsFirst) {
    ClassWriter writer = new ClassWriter(0);
    writer.visit(Opcodes.V11, Opcodes.ACC_PUBLIC, owner, null, "java/lang/Object", null);
    if (longsFirst) {
      writer.newConst(123_456_789_012L);
      writer.newConst(2.5d);
    }
    MethodVisitor method = writer.visitMethod(access, name, descriptor, null, null);
    method.visitCode();
    Type result = Type.getReturnType(descriptor);
    if (result.getSort() == Type.VOID) {
      method.visitInsn(Opcodes.RETURN);
    } else {
      method.visitInsn(Opcodes.ACONST_NULL);
      method.visitInsn(Opcodes.ATHROW);
    }
    method.visitMaxs(1, Type.getArgumentsAndReturnSizes(descriptor) >> 2);
    method.visitEnd();
    writer.visitEnd();
    return writer.toByteArray();
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
