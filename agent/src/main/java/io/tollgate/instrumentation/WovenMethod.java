package io.tollgate.instrumentation;

import net.bytebuddy.jar.asm.Type;

/** What a weaver needs to know of the method it changes, read from the class file beforehand. */
public final class WovenMethod {

  /** The declaring class's internal name ({@code org/example/MyServlet}). */
  final String owner;
  final String descriptor;
  /** The class file's major version: below 50 (Java 6) it has no stack map frames. */
  final int classVersion;
  /** The method's local variable slots before weaving; a weaver's own local goes after them. */
  final int maxLocals;
  /** The number of the entry point's module, which its woven code passes the bridge. */
  final int entryPoint;

  WovenMethod(String owner, String descriptor, int classVersion, int maxLocals) {
    this(owner, descriptor, classVersion, maxLocals, -1);
  }

  WovenMethod(String owner, String descriptor, int classVersion, int maxLocals, int entryPoint) {
    this.entryPoint = entryPoint;
    this.owner = owner;
    this.descriptor = descriptor;
    this.classVersion = classVersion;
    this.maxLocals = maxLocals;
  }

  /** The method's descriptor: {@code (Ljava/lang/String;)Ljava/lang/String;}. */
  public String descriptor() {
    return descriptor;
  }

  /** How many arguments the method takes. */
  public int argumentCount() {
    return Type.getArgumentTypes(descriptor).length;
  }

  /** The method's return type, as its internal name (for a cast), when it returns an object. */
  public String returnTypeInternalName() {
    String returned = descriptor.substring(descriptor.indexOf(')') + 1);
    return returned.startsWith("L") ? returned.substring(1, returned.length() - 1) : returned;
  }
}
