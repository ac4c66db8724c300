package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which methods a class file's entry point names: by name and exact descriptor; a method the
 * compiler made (a lambda's body) only when its class is named, never across implementations.
 */
class EntryPointMethodTest {

  private static final String DESCRIPTOR = "(Ljava/lang/Object;)V";

  @ParameterizedTest(name = "{0}, {1}: {2}")
  @CsvSource(delimiter = '|', value = {
    // named            | the method is     | woven
    "in its class       | public            | true",
    "in its class       | private synthetic | true",
    "in its class       | bridge synthetic  | false",
    "in its class       | static            | false",
    "in its class       | abstract          | false",
    "in implementations | public            | true",
    "in implementations | public synthetic  | false",
    "in implementations | private           | false",
  })
  void aMethodIsWovenByItsAccess(String named, String access, boolean woven) {
    EntryPointMethod method = named.equals("in its class")
        ? EntryPointMethod.inClass("test", "a.Client", "send", DESCRIPTOR, null)
        : EntryPointMethod.inImplementations("test", "a.Client", "send", DESCRIPTOR, null);
    assertEquals(woven, method.matches("a/Client", access(access), "send", DESCRIPTOR));
  }

  private static int access(String words) {
    int access = 0;
    for (String word : words.split(" ")) {
      switch (word) {
        case "public": access |= Opcodes.ACC_PUBLIC; break;
        case "private": access |= Opcodes.ACC_PRIVATE; break;
        case "static": access |= Opcodes.ACC_STATIC; break;
        case "abstract": access |= Opcodes.ACC_ABSTRACT; break;
        case "synthetic": access |= Opcodes.ACC_SYNTHETIC; break;
        case "bridge": access |= Opcodes.ACC_BRIDGE; break;
        default: throw new IllegalArgumentException(word);
      }
    }
    return access;
  }
}
