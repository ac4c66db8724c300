package io.tollgate.agent;

import io.tollgate.instrumentation.EntryPointClassFiles;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The agent's only class file transformer when it starts with the JVM ({@code -javaagent}): lets
 * the application start while the agent starts on its own thread, and holds back only the classes
 * that could serve requests until the agent is ready.
 *
 * <p>{@code premain} registers this transformer and returns at once; Byte Buddy, the rules and the
 * engine are set up on the {@code tollgate-start} thread. Until then, every class the application
 * loads is looked at by {@link EntryPointClassFiles}: a class an instrumentation might change (a
 * servlet, a filter, a Spring handler adapter, Jersey's invoker) waits, in the thread that loads
 * it, until the agent is ready, and is then transformed by Byte Buddy like any later class. So no
 * such class exists before the rules are in force, and no request passes unlimited for being
 * early. Other classes load without waiting; Byte Buddy would not change them anyway.
 *
 * <p>Once the agent is ready, Byte Buddy's transformer gets the classes that may be instrumented,
 * and every retransformation; the others it would leave unchanged anyway. Being the only
 * registered transformer (not one next to Byte Buddy's) matters: the JVM takes a snapshot of its
 * transformers when a class starts loading, so a class that waited here would otherwise be
 * defined without Byte Buddy's.
 *
 * <p>The wait is bounded ({@link #MAX_WAIT_MILLIS}): should the agent's start hang, a class that
 * waited that long loads unchanged, with a warning, and is retransformed when the agent is ready.
 * The agent's own classes, the JDK's (bootstrap loader) and the start-up thread never wait.
 */
final class StartupTransformer implements ClassFileTransformer {

  /** How long a class that may serve requests waits for the agent at most. */
  static final long MAX_WAIT_MILLIS = 30_000;

  private final ClassLoader agentClassLoader;
  private final CountDownLatch ready = new CountDownLatch(1);
  private volatile ClassFileTransformer byteBuddy;
  private volatile Thread startThread;

  private final Object statsLock = new Object();
  private long waitedNanos;
  private int classesWaited;
  private String firstWaitingClass;
  private final java.util.List<String> loadedUnchanged = new java.util.ArrayList<>();

  StartupTransformer(ClassLoader agentClassLoader) {
    this.agentClassLoader = agentClassLoader;
  }

  void startedOn(Thread thread) {
    this.startThread = thread;
  }

  /** The agent is ready: Byte Buddy's transformer (null if it could not be built) takes over. */
  void ready(ClassFileTransformer transformer) {
    this.byteBuddy = transformer;
    ready.countDown();
  }

  @Override
  public byte[] transform(
      Module module,
      ClassLoader loader,
      String className,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classfileBuffer)
      throws IllegalClassFormatException {
    ClassFileTransformer delegate = byteBuddy;
    if (delegate != null && classBeingRedefined == null
        && !EntryPointClassFiles.mayBeInstrumented(classfileBuffer)) {
      // Byte Buddy would not change it: spare it the type description and the walk over the
      // class's super types, which cost more CPU while the application starts than the agent's
      // own start-up did. (Retransformations, which are rare, always go to Byte Buddy.)
      return null;
    }
    if (delegate == null) {
      if (ready.getCount() == 0 || !mustWait(loader, classBeingRedefined, classfileBuffer)) {
        return null;
      }
      delegate = awaitReady(className);
      if (delegate == null) {
        return null;
      }
    }
    return delegate.transform(
        module, loader, className, classBeingRedefined, protectionDomain, classfileBuffer);
  }

  private boolean mustWait(ClassLoader loader, Class<?> classBeingRedefined, byte[] classFile) {
    return loader != null
        && loader != agentClassLoader
        && classBeingRedefined == null
        && Thread.currentThread() != startThread
        && EntryPointClassFiles.mayBeInstrumented(classFile);
  }

  private ClassFileTransformer awaitReady(String className) {
    long start = System.nanoTime();
    boolean inTime;
    try {
      inTime = ready.await(MAX_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      inTime = false;
    }
    synchronized (statsLock) {
      waitedNanos += System.nanoTime() - start;
      classesWaited++;
      if (firstWaitingClass == null) {
        firstWaitingClass = className;
      }
      if (!inTime) {
        loadedUnchanged.add(className);
      }
    }
    return inTime ? byteBuddy : null;
  }

  /** For the "ready" log line: how long application threads waited for the agent, if at all. */
  String waitSummary() {
    synchronized (statsLock) {
      if (classesWaited == 0) {
        return "no application class waited for it";
      }
      return classesWaited + " application class(es) waited for it, "
          + TimeUnit.NANOSECONDS.toMillis(waitedNanos) + " ms in all (first "
          + firstWaitingClass.replace('/', '.') + ")";
    }
  }

  /** Internal names of classes that waited {@link #MAX_WAIT_MILLIS} in vain and loaded unchanged. */
  java.util.List<String> loadedUnchanged() {
    synchronized (statsLock) {
      return new java.util.ArrayList<>(loadedUnchanged);
    }
  }
}
