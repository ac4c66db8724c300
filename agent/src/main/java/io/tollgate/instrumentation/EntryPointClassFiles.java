package io.tollgate.instrumentation;

import static io.tollgate.instrumentation.ClassFileBytes.DOUBLE;
import static io.tollgate.instrumentation.ClassFileBytes.FIXED_LENGTH;
import static io.tollgate.instrumentation.ClassFileBytes.LONG;
import static io.tollgate.instrumentation.ClassFileBytes.POOL_COUNT;
import static io.tollgate.instrumentation.ClassFileBytes.POOL_START;
import static io.tollgate.instrumentation.ClassFileBytes.UTF8;
import static io.tollgate.instrumentation.ClassFileBytes.looksLikeClassFile;
import static io.tollgate.instrumentation.ClassFileBytes.readUnsignedShort;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Tells, from a class file's bytes alone, whether it may declare an entry point: a necessary
 * condition, cheap enough to ask of every class the application loads, before any class file is
 * parsed (see {@link EntryPointTransformer}). The same walk over the constant pool also tells
 * whether the class mentions {@code loadClass}, which a class loader to weave must ({@code
 * WeavingTransformer}): one walk per class loaded, not one per question.
 *
 * <p>The markers come from the framework modules' entry points: every method woven in any class
 * that implements an interface has a descriptor whose arguments are its framework's request types
 * ({@code service} and {@code doFilter} take {@code (ServletRequest, ServletResponse, ...)},
 * Spring MVC's {@code HandlerAdapter.handle} takes {@code (HttpServletRequest,
 * HttpServletResponse, Object)}), and the others are in one class each, named. So a class is a
 * candidate when it is not an interface and its constant pool holds a string that begins as one of
 * those descriptors' arguments do, or is one of those class names; and then, for those few, when
 * one of the methods it declares is an entry point ({@link DeclaredMethods}: the method headers,
 * without ASM), since most classes that mention a servlet's types only call it.
 * A false positive only costs a parse; a false negative would let requests through it pass
 * unlimited, which the tests of this class guard against for each entry point.
 *
 * <p>Uses nothing but the JDK (and {@link EntryPointMethod}'s own test of a method), so that the
 * other classes load only for candidates.
 */
public final class EntryPointClassFiles {

  private static final int ACC_INTERFACE = 0x0200;

  /**
   * {@link #scan}: the class is not an interface and declares a method that an entry point matches
   * by its name, descriptor and access (and class, for one named), read from the method headers;
   * the weaving reads it again with ASM, which also refuses a method marked synthetic only by an
   * attribute (class files before Java 5).
   */
  public static final int MAY_DECLARE_ENTRY_POINT = 1;
  /**
   * {@link #scan}: the class is not an interface and its constant pool holds {@code loadClass},
   * as that of a class that declares it does ({@code ClassLoaderWeaving}).
   */
  public static final int MENTIONS_LOAD_CLASS = 2;

  private static final byte[] LOAD_CLASS = "loadClass".getBytes(StandardCharsets.US_ASCII);

  /**
   * How the descriptors of the methods woven in any class begin: their arguments, so that a class
   * whose method returns a subtype (or a bridge method's erasure) is still a candidate.
   */
  private final byte[][] descriptorStarts;
  /**
   * The length of the shortest of {@link #descriptorStarts}: most method descriptors are shorter
   * (a servlet's arguments alone are 63 bytes), and one compare rules them out.
   */
  private final int shortestDescriptorStart;
  /**
   * The classes whose entry points are found by name, compared with whole strings: by their
   * length, so that a string is compared with the one or two names of its length (null: none),
   * not with each of the two dozen.
   */
  private final byte[][][] classNamesByLength;
  /** Whether a method a class file declares is one of the entry points. */
  private final DeclaredMethods.Test entryPoint;

  /**
   * For these entry points: their descriptors, and the classes named by those in one class;
   * {@code byName} indexes {@code methods}.
   */
  EntryPointClassFiles(List<EntryPointMethod> methods, EntryPointsByName byName) {
    Set<String> descriptors = new LinkedHashSet<>();
    Set<String> classes = new LinkedHashSet<>();
    for (EntryPointMethod method : methods) {
      if (method.inSubtypes) {
        descriptors.add(method.descriptor.substring(0, method.descriptor.indexOf(')') + 1));
      } else {
        classes.add(method.type.replace('.', '/'));
      }
    }
    descriptorStarts = ascii(descriptors);
    int shortest = Integer.MAX_VALUE;
    for (byte[] start : descriptorStarts) {
      shortest = Math.min(shortest, start.length);
    }
    shortestDescriptorStart = shortest;
    classNamesByLength = byLength(ascii(classes));
    entryPoint = new AnyOf(methods, byName);
  }

  /**
   * A declared method that one of the entry points matches, as the weaving will match it: each
   * compared with the few of its name ({@link EntryPointsByName}).
   */
  private static final class AnyOf implements DeclaredMethods.Test {
    private final List<EntryPointMethod> methods;
    private final EntryPointsByName byName;

    AnyOf(List<EntryPointMethod> methods, EntryPointsByName byName) {
      this.methods = methods;
      this.byName = byName;
    }

    @Override
    public boolean accepts(String owner, int access, String name, String descriptor) {
      int[] named = byName.positionsOf(name);
      if (named == null) {
        return false;
      }
      for (int i : named) {
        if (methods.get(i).matches(owner, access, name, descriptor)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * True when the class file may hold an entry point that an instrumentation advises; false for
   * interfaces, for other classes and for bytes that are not a readable class file.
   */
  public boolean mayBeInstrumented(byte[] classFile) {
    return (scan(classFile) & MAY_DECLARE_ENTRY_POINT) != 0;
  }

  /**
   * What the class file's constant pool says: {@link #MAY_DECLARE_ENTRY_POINT} and {@link
   * #MENTIONS_LOAD_CLASS}, or 0 (almost every class) for interfaces, other classes and bytes that
   * are not a readable class file.
   */
  public int scan(byte[] classFile) {
    try {
      return walk(classFile);
    } catch (RuntimeException notAClassFileWeKnow) {
      return 0;
    }
  }

  private int walk(byte[] b) {
    if (!looksLikeClassFile(b)) {
      return 0;
    }
    int count = readUnsignedShort(b, POOL_COUNT);
    int at = POOL_START;
    boolean marked = false;
    boolean loadClass = false;
    // ClassFileBytes.entryLength's reading, written out: this loop runs for every entry of every
    // class the application loads, mostly interpreted, where each call costs as much as its work
    for (int index = 1; index < count; index++) {
      int tag = b[at] & 0xFF;
      if (tag == UTF8) {
        int length = ((b[at + 1] & 0xFF) << 8) | (b[at + 2] & 0xFF);
        // isMarker's first answer, written out too: almost every string is too short to begin
        // as an entry point's descriptor, or no class name is as long
        if (!marked && length > 0
            && (b[at + 3] == '('
                ? length >= shortestDescriptorStart
                : length < classNamesByLength.length && classNamesByLength[length] != null)
            && isMarker(b, at + 3, length)) {
          marked = true;
        } else if (!loadClass && length == LOAD_CLASS.length
            && startsWith(b, at + 3, LOAD_CLASS)) {
          loadClass = true;
        }
        at += 3 + length;
      } else {
        int entryLength = tag < FIXED_LENGTH.length ? FIXED_LENGTH[tag] : 0;
        if (entryLength == 0) {
          return 0; // a constant pool this reader does not know: not ours to judge
        }
        if (tag == LONG || tag == DOUBLE) {
          index++;
        }
        at += entryLength;
      }
    }
    int access = readUnsignedShort(b, at);
    if ((access & ACC_INTERFACE) != 0) {
      return 0;
    }
    if (marked) {
      // Most classes that mention an entry point's types only call it (Tomcat's filter chain, a
      // dispatcher): their method headers say so here, without ASM reading the class.
      marked = DeclaredMethods.any(b, entryPoint);
    }
    return (marked ? MAY_DECLARE_ENTRY_POINT : 0) | (loadClass ? MENTIONS_LOAD_CLASS : 0);
  }

  /**
   * Whether a constant pool string is an entry point's descriptor (it begins as one does) or the
   * name of a class with entry points. Only a string's first bytes are read: this runs for every
   * string of every class the application loads, mostly before the JIT has compiled it, and
   * searching whole strings cost Spring Boot's start about a second of CPU.
   */
  private boolean isMarker(byte[] b, int from, int length) {
    if (length > 0 && b[from] == '(') {
      if (length < shortestDescriptorStart) {
        return false;
      }
      for (byte[] start : descriptorStarts) {
        if (length >= start.length && startsWith(b, from, start)) {
          return true;
        }
      }
      return false;
    }
    if (length >= classNamesByLength.length || classNamesByLength[length] == null) {
      return false;
    }
    for (byte[] name : classNamesByLength[length]) {
      if (startsWith(b, from, name)) {
        return true;
      }
    }
    return false;
  }

  private static boolean startsWith(byte[] b, int from, byte[] marker) {
    for (int i = marker.length - 1; i >= 0; i--) {
      // backwards: the descriptors share their first bytes and differ towards the end
      if (b[from + i] != marker[i]) {
        return false;
      }
    }
    return true;
  }

  /** {@code names} by their length: at index n, those n bytes long, or null when none is. */
  private static byte[][][] byLength(byte[][] names) {
    int longest = 0;
    for (byte[] name : names) {
      longest = Math.max(longest, name.length);
    }
    byte[][][] byLength = new byte[longest + 1][][];
    for (byte[] name : names) {
      byte[][] same = byLength[name.length];
      byte[][] more = same == null ? new byte[1][] : Arrays.copyOf(same, same.length + 1);
      more[more.length - 1] = name;
      byLength[name.length] = more;
    }
    return byLength;
  }

  private static byte[][] ascii(Set<String> texts) {
    byte[][] bytes = new byte[texts.size()][];
    int i = 0;
    for (String text : texts) {
      bytes[i++] = text.getBytes(StandardCharsets.US_ASCII);
    }
    return bytes;
  }
}
