package io.tollgate.instrumentation;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Two small class files that {@link EntryPointClassFiles} finds everything in: one names a class
 * with entry points and declares its entry point, the other declares a method with an entry
 * point's descriptor; both mention {@code loadClass}, then more strings, and hold a {@code long}
 * and a {@code double}. The walk reads one of them now and then beside the application's classes
 * (its answer is not used), so that its profile has seen each of its rare answers taken before
 * the JIT's C2 compiles it.
 *
 * <p>Why: C2 leaves out the branches its profile never saw taken, behind a trap. On Spring Boot 3,
 * whose first ~10,000 classes hold no class name that marks an entry point, C2 compiled the walk
 * (and its OSR version, and {@code isMarker}) without the "found" branches; the first Tomcat class
 * that holds one then trapped ({@code unstable_if}), threw those compilations away and had them
 * made again: each start compiled them twice with C2 (JIT work on one of the 2 cores, beside the
 * application's start). Seen a few times, a branch is compiled in.
 */
final class MarkerProbes {

  private static final int ACC_PUBLIC = 0x0001;
  private static final int ACC_SUPER = 0x0020;
  private static final int JAVA_8 = 52;

  private final byte[][] probes;

  private MarkerProbes(byte[][] probes) {
    this.probes = probes;
  }

  /**
   * For these entry points: a class file that names the first class with entry points and
   * declares its method, and one that declares a method of the first entry point woven in every
   * implementation. Either is left out when no entry point is of its kind.
   */
  static MarkerProbes of(List<EntryPointMethod> methods) {
    byte[] named = null;
    byte[] inSubtypes = null;
    for (EntryPointMethod method : methods) {
      if (!method.inSubtypes && named == null) {
        named = classFile(method.type.replace('.', '/'), method.name, method.descriptor);
      } else if (method.inSubtypes && inSubtypes == null) {
        inSubtypes = classFile("io/tollgate/instrumentation/MarkerProbe", method.name,
            method.descriptor);
      }
    }
    int count = (named == null ? 0 : 1) + (inSubtypes == null ? 0 : 1);
    byte[][] probes = new byte[count][];
    int i = 0;
    if (named != null) {
      probes[i++] = named;
    }
    if (inSubtypes != null) {
      probes[i] = inSubtypes;
    }
    return new MarkerProbes(probes);
  }

  /** The probes: for the tests, which check that the walk finds everything in each. */
  byte[][] classFiles() {
    return probes.clone();
  }

  /** The probe to walk for the {@code n}th time: they take turns. */
  byte[] probe(int n) {
    return probes.length == 0 ? null : probes[(n & 0x7FFFFFFF) % probes.length];
  }

  /**
   * A public class {@code owner}, extending {@code Object}, that declares the public method {@code
   * name descriptor} (no code: the walk reads method headers only), and whose constant pool also
   * holds {@code loadClass} ahead of other strings, a {@code long} and a {@code double}: each of the
   * walk's branches taken, so far as a class file that declares an entry point can take them.
   */
  static byte[] classFile(String owner, String name, String descriptor) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    writeInt(out, 0xCAFEBABE);
    writeShort(out, 0);
    writeShort(out, JAVA_8);
    writeShort(out, 12); // the constant pool's count: entries 1 to 11, a long and a double two each
    writeUtf8(out, owner); // 1
    writeClass(out, 1); // 2
    writeUtf8(out, "loadClass"); // 3: before other strings, which the walk then reads knowing it
    writeUtf8(out, "java/lang/Object"); // 4
    writeClass(out, 4); // 5
    writeUtf8(out, name); // 6
    writeUtf8(out, descriptor); // 7
    out.write(ClassFileBytes.LONG); // 8 and 9
    writeInt(out, 0);
    writeInt(out, 1);
    out.write(ClassFileBytes.DOUBLE); // 10 and 11
    writeInt(out, 0x3FF00000);
    writeInt(out, 0);
    writeShort(out, ACC_PUBLIC | ACC_SUPER);
    writeShort(out, 2); // this class
    writeShort(out, 5); // its super class
    writeShort(out, 0); // interfaces
    writeShort(out, 0); // fields
    writeShort(out, 1); // methods
    writeShort(out, ACC_PUBLIC);
    writeShort(out, 6);
    writeShort(out, 7);
    writeShort(out, 0); // the method's attributes
    writeShort(out, 0); // the class's attributes
    return out.toByteArray();
  }

  private static void writeUtf8(ByteArrayOutputStream out, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    out.write(ClassFileBytes.UTF8);
    writeShort(out, bytes.length);
    out.write(bytes, 0, bytes.length);
  }

  private static void writeClass(ByteArrayOutputStream out, int nameIndex) {
    out.write(ClassFileBytes.CLASS);
    writeShort(out, nameIndex);
  }

  private static void writeShort(ByteArrayOutputStream out, int value) {
    out.write(value >>> 8);
    out.write(value);
  }

  private static void writeInt(ByteArrayOutputStream out, int value) {
    writeShort(out, value >>> 16);
    writeShort(out, value);
  }
}
