package io.tollgate.instrumentation;

import io.tollgate.instrumentation.jaxrs.JerseyEntryPoints;
import java.nio.charset.StandardCharsets;

/**
 * Tells, from a class file's bytes alone, whether it may declare an entry point: a necessary
 * condition, cheap enough to ask of every class the application loads, before any class file is
 * parsed (see {@link EntryPointTransformer}).
 *
 * <p>Every entry point names its framework's request types in its descriptor, and every class
 * woven is a concrete class: {@code service} and {@code doFilter} take {@code (ServletRequest,
 * ServletResponse, ...)}, Spring MVC's {@code HandlerAdapter.handle} takes {@code
 * (HttpServletRequest, HttpServletResponse, Object)}, and the Jersey and Grizzly entry points are
 * in one class each, named. So a class is a candidate when it is not an interface and its constant
 * pool holds one of those descriptor fragments or class names. False positives (a
 * {@code FilterChain}, say) only cost a parse; a false negative would let requests through it pass
 * unlimited, which the tests of this class guard against for each entry point.
 *
 * <p>Uses nothing but the JDK, so that the other classes load only for candidates.
 */
public final class EntryPointClassFiles {

  private static final int ACC_INTERFACE = 0x0200;

  private static final byte[][] MARKERS = {
    servletArguments("javax/servlet"),
    servletArguments("jakarta/servlet"),
    springHandleArguments("javax/servlet"),
    springHandleArguments("jakarta/servlet"),
    internalName(JerseyEntryPoints.INVOKER),
    internalName(JerseyEntryPoints.GRIZZLY_CONTAINER),
  };

  private EntryPointClassFiles() {}

  /**
   * True when the class file may hold an entry point that an instrumentation advises; false for
   * interfaces, for other classes and for bytes that are not a readable class file.
   */
  public static boolean mayBeInstrumented(byte[] classFile) {
    try {
      return scan(classFile);
    } catch (RuntimeException notAClassFileWeKnow) {
      return false;
    }
  }

  private static boolean scan(byte[] b) {
    if (b == null || b.length < 10 || readInt(b, 0) != 0xCAFEBABE) {
      return false;
    }
    int count = readUnsignedShort(b, 8);
    int at = 10;
    boolean marked = false;
    for (int index = 1; index < count; index++) {
      int tag = b[at] & 0xFF;
      switch (tag) {
        case 1: // Utf8
          int length = readUnsignedShort(b, at + 1);
          if (!marked && containsMarker(b, at + 3, length)) {
            marked = true;
          }
          at += 3 + length;
          break;
        case 3: // Integer
        case 4: // Float
        case 9: // Fieldref
        case 10: // Methodref
        case 11: // InterfaceMethodref
        case 12: // NameAndType
        case 17: // Dynamic
        case 18: // InvokeDynamic
          at += 5;
          break;
        case 5: // Long
        case 6: // Double
          at += 9;
          index++; // takes two entries
          break;
        case 7: // Class
        case 8: // String
        case 16: // MethodType
        case 19: // Module
        case 20: // Package
          at += 3;
          break;
        case 15: // MethodHandle
          at += 4;
          break;
        default:
          return false; // a constant pool this reader does not know: not ours to judge
      }
    }
    int access = readUnsignedShort(b, at);
    return marked && (access & ACC_INTERFACE) == 0;
  }

  private static boolean containsMarker(byte[] b, int from, int length) {
    for (byte[] marker : MARKERS) {
      if (indexOf(b, from, length, marker)) {
        return true;
      }
    }
    return false;
  }

  private static boolean indexOf(byte[] b, int from, int length, byte[] marker) {
    int last = from + length - marker.length;
    byte first = marker[0];
    for (int i = from; i <= last; i++) {
      if (b[i] != first) {
        continue;
      }
      int j = 1;
      while (j < marker.length && b[i + j] == marker[j]) {
        j++;
      }
      if (j == marker.length) {
        return true;
      }
    }
    return false;
  }

  private static byte[] servletArguments(String servletPackage) {
    return ascii("L" + servletPackage + "/ServletRequest;L" + servletPackage + "/ServletResponse;");
  }

  private static byte[] springHandleArguments(String servletPackage) {
    return ascii("L" + servletPackage + "/http/HttpServletRequest;L" + servletPackage
        + "/http/HttpServletResponse;Ljava/lang/Object;)");
  }

  private static byte[] internalName(String className) {
    return ascii(className.replace('.', '/'));
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static int readUnsignedShort(byte[] b, int at) {
    return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
  }

  private static int readInt(byte[] b, int at) {
    return (readUnsignedShort(b, at) << 16) | readUnsignedShort(b, at + 2);
  }
}
