package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The class {@link DirectCalls} writes, on the JDK's own classes: calls on interfaces and on
 * classes, arguments of one and two slots, and what it refuses to write.
 */
class DirectCallsTest {

  /** Calls on a few JDK types, as an agent interface would declare them. */
  public interface JdkCalls {
    int length(Object charSequence);

    char charAt(Object string, int index);

    boolean compareAndSet(Object atomicLong, long expected, long update);

    Object insert(Object builder, int offset, double value);

    void setLength(Object builder, int length);
  }

  private static final Map<String, String> TARGETS =
      Map.of(
          "length", "java.lang.CharSequence#length",
          "charAt", "java.lang.String#charAt",
          "compareAndSet", "java.util.concurrent.atomic.AtomicLong#compareAndSet",
          "insert", "java.lang.StringBuilder#insert",
          "setLength", "java.lang.StringBuilder#setLength");

  private final JdkCalls calls = implement(TARGETS);

  /** Calls whose signatures name classes other than {@code Object}, as the servlet ones do. */
  public interface TypedCalls {
    String substring(Object string, int begin);

    java.nio.charset.Charset charset(Object encoder);

    boolean startsWith(Object string, String prefix);
  }

  @Test
  void theGeneratedClassesLoaderKnowsEveryClassOfItsSignaturesSoThatTheJitInlinesItsMethods()
      throws ReflectiveOperationException {
    // C2 declines to inline a method a class of whose signature its class's loader has not
    // recorded ("unloaded signature classes"): the generated class resolves them when initialized.
    TypedCalls typed = DirectCalls.implement(TypedCalls.class, Map.of(
        "substring", "java.lang.String#substring",
        "charset", "java.nio.charset.CharsetEncoder#charset",
        "startsWith", "java.lang.String#startsWith"), "io.tollgate.generated.TypedCalls",
        DirectCallsTest.class.getClassLoader());

    assertEquals("gate", typed.substring("tollgate", 4));
    assertTrue(typed.startsWith("tollgate", "toll"));
    assertEquals(java.nio.charset.StandardCharsets.UTF_8,
        typed.charset(java.nio.charset.StandardCharsets.UTF_8.newEncoder()));
    for (String type : new String[] {"java.lang.Object", "java.lang.String",
        "java.nio.charset.Charset"}) {
      assertTrue(DirectCalls.loaderKnows(typed, type), type);
    }
    assertEquals(java.util.Set.of("java/lang/Object", "java/lang/String",
        "java/nio/charset/Charset"), DirectCalls.signatureTypes(TypedCalls.class));
  }

  @Test
  void callsAnInterfaceMethod() {
    assertEquals(5, calls.length(new StringBuilder("tolls")));
  }

  @Test
  void callsAClassMethodWithAnArgument() {
    assertEquals('l', calls.charAt("tollgate", 2));
  }

  @Test
  void passesTwoSlotArguments() {
    AtomicLong value = new AtomicLong(7);

    assertTrue(calls.compareAndSet(value, 7, 1L << 40));
    assertEquals(1L << 40, value.get());
  }

  @Test
  void passesArgumentsAfterOneAnotherAndReturnsTheTargetsAnswer() {
    StringBuilder builder = new StringBuilder("ab");

    Object answer = calls.insert(builder, 1, 0.5);

    assertEquals("a0.5b", builder.toString());
    assertEquals(builder, answer);
  }

  @Test
  void callsAVoidMethod() {
    StringBuilder builder = new StringBuilder("tollgate");

    calls.setLength(builder, 4);

    assertEquals("toll", builder.toString());
  }

  @Test
  void anInterfaceMethodWithoutATargetIsRefusedByName() {
    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () -> implement(Map.of("length", "java.lang.CharSequence#length")));

    assertTrue(refused.getMessage().startsWith("no target for JdkCalls."), refused.getMessage());
  }

  @Test
  void aTargetThatDoesNotExistIsRefusedWhenWritten() {
    Map<String, String> targets = new java.util.HashMap<>(TARGETS);
    targets.put("charAt", "java.lang.String#characterAt");

    NoSuchMethodException refused =
        assertThrows(
            NoSuchMethodException.class,
            () -> DirectCalls.implement(
                JdkCalls.class, targets, "io.tollgate.generated.JdkCalls",
                DirectCallsTest.class.getClassLoader()));

    assertTrue(refused.getMessage().contains("characterAt"), refused.getMessage());
  }

  @Test
  void aTargetOnAClassThatIsNotPublicIsRefusedWhenWritten() {
    Map<String, String> targets = new java.util.HashMap<>(TARGETS);
    // public method, package-private class: the generated class could not link to it
    targets.put("length", "java.lang.AbstractStringBuilder#length");

    IllegalAccessException refused =
        assertThrows(
            IllegalAccessException.class,
            () -> DirectCalls.implement(
                JdkCalls.class, targets, "io.tollgate.generated.JdkCalls",
                DirectCallsTest.class.getClassLoader()));

    assertTrue(refused.getMessage().contains("AbstractStringBuilder is not public"),
        refused.getMessage());
  }

  private static JdkCalls implement(Map<String, String> targets) {
    try {
      return DirectCalls.implement(
          JdkCalls.class, targets, "io.tollgate.generated.JdkCalls",
          DirectCallsTest.class.getClassLoader());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
