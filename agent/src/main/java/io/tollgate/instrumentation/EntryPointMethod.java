package io.tollgate.instrumentation;

import java.lang.reflect.Constructor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * One method that Tollgate weaves into, as found in class files: by name and exact descriptor,
 * either in one named class or in any concrete class.
 *
 * <p>Matching "any class" by descriptor alone, without walking the class's super types, is what
 * keeps the weaving cheap enough to run while the application starts; the descriptors are specific
 * enough for it: {@code service(ServletRequest, ServletResponse)} with a {@code void} result is
 * {@code Servlet.service} and nothing else. A stray match would only call the bridge, which decides
 * a request once, at its first entry point, whatever that is.
 */
public final class EntryPointMethod {

  private static final int NOT_WOVEN =
      Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_BRIDGE;
  /**
   * Compiler-made methods are woven only when named with their class: a lambda's body can be the
   * one place a library hands over what is needed (Apache HttpClient 5 async's request channel).
   */
  private static final int NOT_WOVEN_IN_SUBTYPES = NOT_WOVEN | Opcodes.ACC_SYNTHETIC;

  /** The framework, as the "detected ..." log line names it. */
  final String framework;
  /**
   * The type whose method this is ({@code jakarta.servlet.Servlet}); with {@link #inSubtypes}, the
   * method is woven in every concrete class that declares it, otherwise in this class only.
   */
  final String type;
  private final String internalName;
  final boolean inSubtypes;
  final String name;
  final String descriptor;
  /**
   * Its weaver, by binary name: a subclass of {@link MethodWeaver} with a constructor
   * (MethodVisitor, WovenMethod). A name, not a class literal: the entry points are listed in
   * {@code premain}, on the application's main thread, where a literal would load every module's
   * weavers (two dozen classes, read from the jar and defined) though an application uses two or
   * three; each is loaded when it first weaves a method ({@code EntryPointWeaversTest} checks that
   * every name is one).
   */
  private final String weaver;
  private volatile Constructor<? extends MethodWeaver> weaverConstructor;

  private EntryPointMethod(String framework, String type, boolean inSubtypes, String name,
      String descriptor, String weaver) {
    this.framework = framework;
    this.type = type;
    this.internalName = type.replace('.', '/');
    this.inSubtypes = inSubtypes;
    this.name = name;
    this.descriptor = descriptor;
    this.weaver = weaver;
  }

  /** A public method of an interface, woven in every concrete class that implements it. */
  public static EntryPointMethod inImplementations(String framework, String interfaceName,
      String name, String descriptor, String weaver) {
    return new EntryPointMethod(framework, interfaceName, true, name, descriptor, weaver);
  }

  /** A method of one class. */
  public static EntryPointMethod inClass(String framework, String className, String name,
      String descriptor, String weaver) {
    return new EntryPointMethod(framework, className, false, name, descriptor, weaver);
  }

  /**
   * A new weaver for one method that matched, writing to {@code target}: its constructor, found
   * once by reflection (weavers stay small, with no factory class beside each).
   */
  MethodWeaver weaverFor(MethodVisitor target, WovenMethod method)
      throws ReflectiveOperationException {
    return weaverConstructor().newInstance(target, method);
  }

  /**
   * The weaver's constructor (MethodVisitor, WovenMethod), its class loaded by the agent's class
   * loader at the first call.
   */
  Constructor<? extends MethodWeaver> weaverConstructor() throws ReflectiveOperationException {
    Constructor<? extends MethodWeaver> constructor = weaverConstructor;
    if (constructor == null) {
      Class<? extends MethodWeaver> type =
          Class.forName(weaver, false, EntryPointMethod.class.getClassLoader())
              .asSubclass(MethodWeaver.class);
      constructor = type.getDeclaredConstructor(MethodVisitor.class, WovenMethod.class);
      constructor.setAccessible(true);
      weaverConstructor = constructor;
    }
    return constructor;
  }

  /** Whether this is the method {@code methodName methodDescriptor} of class {@code owner}. */
  boolean matches(String owner, int methodAccess, String methodName, String methodDescriptor) {
    if ((methodAccess & (inSubtypes ? NOT_WOVEN_IN_SUBTYPES : NOT_WOVEN)) != 0
        || !name.equals(methodName)
        || !descriptor.equals(methodDescriptor)) {
      return false;
    }
    return inSubtypes
        ? (methodAccess & Opcodes.ACC_PUBLIC) != 0
        : internalName.equals(owner);
  }

  @Override
  public String toString() {
    return (inSubtypes ? "implementations of " : "") + type + "." + name + descriptor;
  }
}
