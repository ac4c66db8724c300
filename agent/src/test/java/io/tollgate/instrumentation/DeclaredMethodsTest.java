package io.tollgate.instrumentation;

import static io.tollgate.instrumentation.EntryPointClassFilesTest.classFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The methods a class file declares, read from its method headers: what the weavings ask of the
 * few classes whose constant pool mentions what they look for, instead of having ASM read them. A
 * method found that is not declared only costs a parse; one declared and not found would go
 * unwoven.
 */
class DeclaredMethodsTest {

  @ParameterizedTest(name = "{0} declares {1}{2}: {3}")
  @CsvSource(delimiter = '|', value = {
    // class                                                     | method    | descriptor                               | declared
    "java.lang.ClassLoader                                       | loadClass | (Ljava/lang/String;)Ljava/lang/Class;    | true",
    "java.lang.ClassLoader                                       | loadClass | (Ljava/lang/String;Z)Ljava/lang/Class;   | true",
    "io.tollgate.instrumentation.EntryPointClassFilesTest$AppClassLoader | loadClass | (Ljava/lang/String;Z)Ljava/lang/Class; | true",
    // calls loadClass, declares none
    "io.tollgate.instrumentation.classloader.LoadClassCaller     | loadClass | (Ljava/lang/String;)Ljava/lang/Class;    | false",
    "io.tollgate.instrumentation.classloader.LoadClassCaller     | load      | (Ljava/lang/ClassLoader;Ljava/lang/String;)Ljava/lang/Class; | true",
    // the name alone, or the descriptor alone, is not the method
    "java.lang.ClassLoader                                       | loadClass | (Ljava/lang/String;I)Ljava/lang/Class;   | false",
    "java.lang.String                                            | length    | ()I                                      | true",
    "java.lang.String                                            | length    | ()J                                      | false",
    // after long and double constants (two pool entries each) and fields with attributes
    "java.lang.Long                                              | hashCode  | (J)I                                     | true",
    "java.lang.Double                                            | isNaN     | (D)Z                                     | true",
    "java.lang.Math                                              | sqrt      | (D)D                                     | true",
    // a servlet's service, and a class that only calls it
    "jakarta.servlet.http.HttpServlet                            | service   | (Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;)V | true",
    "io.tollgate.instrumentation.EntryPointClassFilesTest$ServletCaller | service | (Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;)V | false",
  })
  void findsTheMethodsAClassDeclares(
      String className, String name, String descriptor, boolean declared) throws IOException {
    assertEquals(declared, DeclaredMethods.any(classFile(className),
        (owner, access, methodName, methodDescriptor) ->
            methodName.equals(name) && methodDescriptor.equals(descriptor)));
  }

  @Test
  void handsOverTheClassAndTheAccessFlags() throws IOException {
    String[] seen = new String[1];
    DeclaredMethods.any(classFile("java.lang.String"), (owner, access, name, descriptor) -> {
      if (name.equals("valueOf") && descriptor.equals("(I)Ljava/lang/String;")) {
        seen[0] = owner + " " + Integer.toHexString(access);
      }
      return false;
    });
    assertEquals("java/lang/String 9", seen[0], "public static");
  }

  @Test
  void bytesThatAreNotAClassFileDeclareNothing() throws IOException {
    byte[] servlet = classFile("jakarta.servlet.http.HttpServlet");
    DeclaredMethods.Test any = (owner, access, name, descriptor) -> true;
    assertFalse(DeclaredMethods.any(Arrays.copyOf(servlet, 200), any));
    assertFalse(DeclaredMethods.any(new byte[] {1, 2, 3}, any));
    assertFalse(DeclaredMethods.any(new byte[0], any));
    assertFalse(DeclaredMethods.any(null, any));
  }
}
