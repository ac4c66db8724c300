package io.tollgate.instrumentation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Weaves the entry points a class file declares, with ASM (Byte Buddy's copy), in two passes: the
 * first finds the methods to weave and how many local variable slots each uses (where a weaver's
 * own goes), and leaves every other class file alone; the second copies the class file, changing
 * only those methods.
 *
 * <p>Why not Byte Buddy's {@code AgentBuilder} and {@code Advice}: with them the agent added more
 * than a second to an application's start (loading and running some 1,200 classes cold, then the
 * JIT compiling them), for five small entry points whose code only calls the bridge. This loads
 * some 55 classes (30 of them ASM's), and the application's classes never wait for the agent (see
 * {@code EngineReadiness}).
 */
public final class EntryPointWeaving {

  private final List<EntryPointMethod> methods;
  /** The number of each method's module, by the method's position in {@link #methods}. */
  private final int[] entryPoints;
  /** The positions in {@link #methods} of the entry points of each method name. */
  private final EntryPointsByName byName;
  private final EntryPointClassFiles classFiles;

  EntryPointWeaving(List<FrameworkModule> modules) {
    List<EntryPointMethod> all = new ArrayList<>();
    int[] numbers = new int[8];
    for (int module = 0; module < modules.size(); module++) {
      for (EntryPointMethod method : modules.get(module).entryPoints()) {
        if (all.size() == numbers.length) {
          numbers = Arrays.copyOf(numbers, numbers.length * 2);
        }
        numbers[all.size()] = module;
        all.add(method);
      }
    }
    this.methods = Collections.unmodifiableList(all);
    // A plain array, no stream: this runs in premain, on the application's main thread
    this.entryPoints = Arrays.copyOf(numbers, all.size());
    this.byName = new EntryPointsByName(methods);
    this.classFiles = new EntryPointClassFiles(methods, byName);
  }

  /** The entry points of these modules, numbered by their positions. */
  public static EntryPointWeaving of(List<FrameworkModule> modules) {
    return new EntryPointWeaving(modules);
  }

  /** The cheap test of class files that comes before {@link #weave}. */
  public EntryPointClassFiles classFiles() {
    return classFiles;
  }

  /**
   * The names of the types whose methods are entry points (the interfaces implemented, the classes
   * named): a loaded class that has none of them among its super types has nothing to weave.
   */
  Set<String> declaringTypes() {
    Set<String> types = new HashSet<>();
    for (EntryPointMethod method : methods) {
      types.add(method.type);
    }
    return types;
  }

  /** The classes named by entry points woven in one class only, by binary name. */
  Set<String> namedClasses() {
    Set<String> types = new HashSet<>();
    for (EntryPointMethod method : methods) {
      if (!method.inSubtypes) {
        types.add(method.type);
      }
    }
    return types;
  }

  /** A woven class file, and the framework of its (first) entry point. */
  public static final class WovenClass {
    public final byte[] classFile;
    public final String framework;

    WovenClass(byte[] classFile, String framework) {
      this.classFile = classFile;
      this.framework = framework;
    }
  }

  /** The class file with its entry points woven, or null when it declares none. */
  public WovenClass weave(byte[] classFile) {
    ClassReader reader = new ClassReader(classFile);
    if ((reader.getAccess() & (Opcodes.ACC_INTERFACE | Opcodes.ACC_MODULE)) != 0) {
      return null;
    }
    Scan scan = new Scan();
    reader.accept(scan, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    if (scan.found.isEmpty()) {
      return null;
    }
    // Given the reader, the writer copies every method it is not asked to change as it is.
    ClassWriter writer = new ClassWriter(reader, 0);
    reader.accept(new Weave(writer, scan), ClassReader.EXPAND_FRAMES);
    return new WovenClass(writer.toByteArray(), scan.found.values().iterator().next().method.framework);
  }

  /** A method to weave, and its local variable slots. */
  private static final class Found {
    final EntryPointMethod method;
    final int entryPoint;
    int maxLocals;

    Found(EntryPointMethod method, int entryPoint) {
      this.method = method;
      this.entryPoint = entryPoint;
    }
  }

  /** First pass: which methods to weave; reads the code of those only. */
  private final class Scan extends ClassVisitor {
    final Map<String, Found> found = new HashMap<>();
    String owner;
    int majorVersion;

    Scan() {
      super(Opcodes.ASM9);
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName,
        String[] interfaces) {
      owner = name;
      majorVersion = version & 0xFFFF;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
        String[] exceptions) {
      int[] named = byName.positionsOf(name);
      if (named == null) {
        return null;
      }
      for (int i : named) {
        EntryPointMethod method = methods.get(i);
        if (method.matches(owner, access, name, descriptor)) {
          final Found entry = new Found(method, entryPoints[i]);
          found.put(name + descriptor, entry);
          return new MethodVisitor(Opcodes.ASM9) {
            @Override
            public void visitMaxs(int maxStack, int maxLocals) {
              entry.maxLocals = maxLocals;
            }
          };
        }
      }
      return null;
    }
  }

  /** Second pass: copies the class, through a weaver for each method found. */
  private static final class Weave extends ClassVisitor {
    private final Scan scan;

    Weave(ClassWriter writer, Scan scan) {
      super(Opcodes.ASM9, writer);
      this.scan = scan;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
        String[] exceptions) {
      MethodVisitor target = super.visitMethod(access, name, descriptor, signature, exceptions);
      Found found = scan.found.get(name + descriptor);
      if (found == null || target == null) {
        return target;
      }
      WovenMethod method =
          new WovenMethod(
              scan.owner, descriptor, scan.majorVersion, found.maxLocals, found.entryPoint);
      try {
        return found.method.weaverFor(target, method);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("no weaver for " + found.method, e);
      }
    }
  }
}
