package io.tollgate.instrumentation;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Implements one of the agent's "calls" interfaces with a class, written here, whose methods call
 * the application's own methods directly. Each method of the interface takes the object to call as
 * {@code Object} and the call's arguments after it, and the class's method casts and calls, as if
 * compiled from
 *
 * <pre>{@code
 * public String getMethod(Object request) {
 *   return ((HttpServletRequest) request).getMethod();
 * }
 * }</pre>
 *
 * <p>Why: the agent cannot compile against the application's classes (the servlet API is {@code
 * javax} or {@code jakarta}, in one of possibly several copies), and a method handle kept in an
 * object's field is no constant to the JIT: each call through one went through a type check and
 * an indirect call that were never inlined, a quarter of the agent's time per request in the
 * end-to-end profile. A call through such an interface has one implementation per copy of the
 * API, so the JIT inlines it down to the application's method.
 *
 * <p>The class is defined in a class loader of its own ({@link Loader}) whose parent is the loader
 * of the application's classes and which adds only the interface: the generated code sees the
 * application's classes as the application does, and nothing else of the agent. Every target
 * method is looked up by reflection first, so a missing one (Servlet 2.5 has no {@code
 * getDispatcherType}), or one of a class that is not public, fails here, with its name, not at the
 * first call.
 */
public final class DirectCalls {

  private DirectCalls() {}

  /**
   * An instance of {@code callsInterface}, named {@code className}, in which each method calls the
   * method that {@code targets} gives for its name: the target's class and method name, as {@code
   * "com.example.Type#method"}. {@code loader} sees those classes.
   */
  public static <T> T implement(
      Class<T> callsInterface, Map<String, String> targets, String className, ClassLoader loader)
      throws ReflectiveOperationException {
    byte[] classFile = write(callsInterface, targets, className, loader);
    Class<?> generated = new Loader(loader, callsInterface).define(className, classFile);
    return callsInterface.cast(generated.getConstructor().newInstance());
  }

  /**
   * {@link #implement} for an API that comes in the {@code javax} and the {@code jakarta}
   * namespace. Each row of {@code calls} is an interface method and its target, {@code
   * "com.example.Type#method"}; a target that starts with {@code .} is in {@code namespace}
   * ({@code ".http.Cookie#getName"}). The class is named after the namespace and the interface:
   * {@code io.tollgate.generated.JakartaServletCalls}.
   */
  public static <T> T implementIn(
      String namespace, Class<T> callsInterface, String[][] calls, ClassLoader loader)
      throws ReflectiveOperationException {
    Map<String, String> targets = new HashMap<>();
    for (String[] call : calls) {
      targets.put(call[0], call[1].startsWith(".") ? namespace + call[1] : call[1]);
    }
    String className = "io.tollgate.generated."
        + (namespace.startsWith("jakarta") ? "Jakarta" : "Javax") + callsInterface.getSimpleName();
    return implement(callsInterface, targets, className, loader);
  }

  private static byte[] write(
      Class<?> callsInterface, Map<String, String> targets, String className, ClassLoader loader)
      throws ReflectiveOperationException {
    ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    writer.visit(
        Opcodes.V1_8,
        Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER,
        className.replace('.', '/'),
        null,
        "java/lang/Object",
        new String[] {Type.getInternalName(callsInterface)});
    MethodVisitor constructor =
        writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    constructor.visitCode();
    constructor.visitVarInsn(Opcodes.ALOAD, 0);
    constructor.visitMethodInsn(
        Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    constructor.visitInsn(Opcodes.RETURN);
    constructor.visitMaxs(0, 0);
    constructor.visitEnd();
    writeSignatureTypesResolved(writer, callsInterface);
    for (Method call : callsInterface.getMethods()) {
      String target = targets.get(call.getName());
      if (target == null) {
        throw new IllegalStateException(
            "no target for " + callsInterface.getSimpleName() + "." + call.getName());
      }
      int hash = target.indexOf('#');
      Class<?> owner = Class.forName(target.substring(0, hash), false, loader);
      if (!Modifier.isPublic(owner.getModifiers())) {
        // the generated class is in a package (and a loader) of its own
        throw new IllegalAccessException(owner + " is not public: it cannot be called directly");
      }
      Class<?>[] parameters = call.getParameterTypes();
      Method targetMethod =
          owner.getMethod(
              target.substring(hash + 1), Arrays.copyOfRange(parameters, 1, parameters.length));
      writeCall(writer, call, owner, targetMethod);
    }
    writer.visitEnd();
    return writer.toByteArray();
  }

  /**
   * A static initializer that names each class of the interface methods' signatures ({@code
   * String}, {@code Charset}...) by a class constant, resolving it from the generated class. Why:
   * C2 inlines a method only when every class of its signature is known to its class's loader
   * (HotSpot's "unloaded signature classes"), and the generated class's {@link Loader}, of its own,
   * knows only the classes its code has resolved: without this, {@code getRemoteAddr}'s {@code
   * String} kept each direct call out of its caller's compiled code (issue 29 item 2,
   * {@code benchmarks/jit-path.sh}). Resolved from the generated class itself, so that its loader
   * and its protection domain are the ones recorded, as the JIT's check asks for both.
   */
  private static void writeSignatureTypesResolved(ClassWriter writer, Class<?> callsInterface) {
    MethodVisitor init = writer.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
    init.visitCode();
    for (String type : signatureTypes(callsInterface)) {
      init.visitLdcInsn(Type.getObjectType(type));
      init.visitInsn(Opcodes.POP);
    }
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
  }

  /** The internal names of the classes (not arrays, not primitives) in the methods' signatures. */
  static Set<String> signatureTypes(Class<?> callsInterface) {
    Set<String> types = new TreeSet<>();
    for (Method call : callsInterface.getMethods()) {
      List<Class<?>> classes = new ArrayList<>(Arrays.asList(call.getParameterTypes()));
      classes.add(call.getReturnType());
      for (Class<?> type : classes) {
        if (!type.isPrimitive() && !type.isArray()) {
          types.add(Type.getInternalName(type));
        }
      }
    }
    return types;
  }

  private static void writeCall(ClassWriter writer, Method call, Class<?> owner, Method target) {
    MethodVisitor code =
        writer.visitMethod(
            Opcodes.ACC_PUBLIC, call.getName(), Type.getMethodDescriptor(call), null, null);
    code.visitCode();
    String ownerName = Type.getInternalName(owner);
    code.visitVarInsn(Opcodes.ALOAD, 1);
    code.visitTypeInsn(Opcodes.CHECKCAST, ownerName);
    int slot = 2;
    Class<?>[] parameters = call.getParameterTypes();
    for (int i = 1; i < parameters.length; i++) {
      Type parameter = Type.getType(parameters[i]);
      code.visitVarInsn(parameter.getOpcode(Opcodes.ILOAD), slot);
      slot += parameter.getSize();
    }
    boolean isInterface = owner.isInterface();
    code.visitMethodInsn(
        isInterface ? Opcodes.INVOKEINTERFACE : Opcodes.INVOKEVIRTUAL,
        ownerName,
        target.getName(),
        Type.getMethodDescriptor(target),
        isInterface);
    code.visitInsn(Type.getType(call.getReturnType()).getOpcode(Opcodes.IRETURN));
    code.visitMaxs(0, 0);
    code.visitEnd();
  }

  /**
   * Whether the loader of {@code generated} (an object {@link #implement} made) is recorded as
   * knowing the class {@code className}: as the JIT asks of each class in a method's signature.
   */
  static boolean loaderKnows(Object generated, String className) {
    return ((Loader) generated.getClass().getClassLoader()).knows(className);
  }

  /**
   * The generated class's loader: the application classes' loader as its parent, plus the
   * agent's interface, which the generated class implements.
   */
  private static final class Loader extends ClassLoader {

    private final Class<?> callsInterface;

    Loader(ClassLoader parent, Class<?> callsInterface) {
      super(parent);
      this.callsInterface = callsInterface;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.equals(callsInterface.getName())) {
        return callsInterface;
      }
      return super.loadClass(name, resolve);
    }

    Class<?> define(String name, byte[] classFile) {
      return defineClass(name, classFile, 0, classFile.length);
    }

    /** Whether this loader has loaded {@code name}, or is recorded as having asked for it. */
    boolean knows(String name) {
      return findLoadedClass(name) != null;
    }
  }
}
