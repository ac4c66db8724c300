package io.tollgate.it;

import java.io.File;
import java.lang.module.ModuleDescriptor;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.HashSet;
import java.util.Set;

/**
 * A class loader as a module system's: it shows its classes the JDK's own packages and its jars,
 * nothing else; not the bootstrap class path, where the agent's bridge is. JBoss Modules shows a
 * module {@code java.*} and its dependencies, an OSGi framework a bundle {@code java.*} and its
 * imports; with neither woven, a woven servlet in them fails every request with
 * {@code NoClassDefFoundError: io/tollgate/bootstrap/TollgateBridge}.
 *
 * <p>Only the JDK is used here: the tests also put this class on the bootstrap class path, where
 * the agent cannot weave it, to play a loader it could not make show the bridge.
 */
public final class ModuleLikeClassLoader extends URLClassLoader {

  static {
    registerAsParallelCapable();
  }

  /** The packages of the JDK's modules (the bootstrap class path's packages are in none). */
  private static final Set<String> JDK_PACKAGES = new HashSet<>();

  static {
    for (Module module : ModuleLayer.boot().modules()) {
      ModuleDescriptor descriptor = module.getDescriptor();
      JDK_PACKAGES.addAll(descriptor.packages());
    }
  }

  public ModuleLikeClassLoader(File jar) throws MalformedURLException {
    super(new URL[] {jar.toURI().toURL()}, ClassLoader.getPlatformClassLoader());
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    synchronized (getClassLoadingLock(name)) {
      Class<?> loaded = findLoadedClass(name);
      if (loaded == null) {
        int dot = name.lastIndexOf('.');
        loaded = dot > 0 && JDK_PACKAGES.contains(name.substring(0, dot))
            ? getParent().loadClass(name)
            : findClass(name);
      }
      if (resolve) {
        resolveClass(loaded);
      }
      return loaded;
    }
  }

  @Override
  public String toString() {
    return "ModuleLikeClassLoader for " + getURLs()[0];
  }
}
