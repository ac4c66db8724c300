package io.tollgate.instrumentation.classloader;

import static io.tollgate.instrumentation.classloader.LoaderClassFiles.asJava5;
import static io.tollgate.instrumentation.classloader.LoaderClassFiles.bytesOf;
import static io.tollgate.instrumentation.classloader.LoaderClassFiles.classFile;
import static io.tollgate.instrumentation.classloader.LoaderClassFiles.instance;
import static io.tollgate.instrumentation.classloader.LoaderClassFiles.load;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Arrays;
import net.bytebuddy.jar.asm.ClassReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The prologue written into a class file's bytes: the woven loader, defined (so verified by the
 * JVM), answers the delegated package from the bootstrap loader and every other name as its own
 * code does, down to the path that code took; the rest of the class file is its bytes as they were.
 * The bridge's package is not on the bootstrap class path in this JVM, so a JDK package is
 * delegated instead.
 */
class LoadClassPrologueTest {

  private static final LoadClassPrologue DELEGATING_JAVA_UTIL_CONCURRENT =
      new LoadClassPrologue("java.util.concurrent.");

  @ParameterizedTest(name = "{0}.loadClass({1})")
  @CsvSource(delimiter = '|', nullValues = "null", value = {
    "BranchingRefusingLoader        | java.util.concurrent.ConcurrentHashMap",
    "BranchingRefusingLoader        | java.util.concurrent.NoSuchClass",
    "BranchingRefusingLoader        | a.b",
    "BranchingRefusingLoader        | a.b.c",
    "BranchingRefusingLoader        | a.much.longer.Name",
    "BranchingRefusingLoader        | a.much.longer.Throwing",
    "BranchingRefusingLoader        | null",
    "RefusingLoaderWithTwoArguments | java.util.concurrent.ConcurrentHashMap",
    "RefusingLoaderWithTwoArguments | java.util.ArrayList",
    "RefusingLoaderWithOneArgument  | java.util.concurrent.ConcurrentHashMap",
    "RefusingLoaderWithOneArgument  | null",
  })
  void answersAsTheLoaderDoesButForTheDelegatedPackage(String loader, String name)
      throws Exception {
    byte[] original = classFile(loader);
    String expected = name != null && name.equals("java.util.concurrent.ConcurrentHashMap")
        ? "the bootstrap's"
        : load(instance(loader, original), loader, name);
    assertEquals(expected, load(instance(loader, woven(original)), loader, name));
  }

  @Test
  void classFilesWithoutStackMapFramesGetNone() throws Exception {
    byte[] java5 = asJava5(classFile("BranchingRefusingLoader"));
    ClassLoader loader = instance("BranchingRefusingLoader", woven(java5));
    assertEquals("the bootstrap's",
        load(loader, "BranchingRefusingLoader", "java.util.concurrent.ConcurrentHashMap"));
    for (String name : new String[] {"a.b", "a.b.c", "a.much.longer.Throwing"}) {
      assertEquals(load(instance("BranchingRefusingLoader", java5), "BranchingRefusingLoader", name),
          load(loader, "BranchingRefusingLoader", name));
    }
  }

  @Test
  void everythingButTheWovenCodeIsCopiedAsItWas() throws Exception {
    byte[] original = classFile("BranchingRefusingLoader");
    byte[] woven = woven(original);
    int poolEnd = poolEnd(original);
    // the pool, then its 17 constants appended
    assertArrayEquals(Arrays.copyOfRange(original, 10, poolEnd),
        Arrays.copyOfRange(woven, 10, poolEnd));
    assertEquals(count(original) + 17, count(woven));
    // the class's last bytes (its attributes: source file, inner classes...) as they were
    int tail = 40;
    assertArrayEquals(Arrays.copyOfRange(original, original.length - tail, original.length),
        Arrays.copyOfRange(woven, woven.length - tail, woven.length));
  }

  @Test
  void interfacesAndClassesThatDeclareNoLoadClassAreNotWoven() throws Exception {
    assertNull(DELEGATING_JAVA_UTIL_CONCURRENT.weave(classFile("LoadClassCaller")));
    assertNull(DELEGATING_JAVA_UTIL_CONCURRENT.weave(bytesOf(Runnable.class.getName())));
  }

  @Test
  void whatItCannotTakeIsLeftToAsm() {
    assertSame(LoadClassPrologue.CANNOT, DELEGATING_JAVA_UTIL_CONCURRENT.weave(new byte[] {1, 2}));
    assertSame(LoadClassPrologue.CANNOT,
        DELEGATING_JAVA_UTIL_CONCURRENT.weave(new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA,
            (byte) 0xBE, 0, 0, 0, 61, 0, 5, 1}));
  }

  private static byte[] woven(byte[] classFile) {
    byte[] woven = DELEGATING_JAVA_UTIL_CONCURRENT.weave(classFile);
    assertNotSame(LoadClassPrologue.CANNOT, woven, "woven by the prologue, not left to ASM");
    return woven;
  }

  private static int count(byte[] classFile) {
    return ((classFile[8] & 0xFF) << 8) | (classFile[9] & 0xFF);
  }

  private static int poolEnd(byte[] classFile) {
    return new ClassReader(classFile).header;
  }
}
