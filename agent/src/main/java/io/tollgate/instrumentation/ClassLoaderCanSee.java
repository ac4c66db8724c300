package io.tollgate.instrumentation;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Matches class loaders that can see a given class, such as {@code jakarta.servlet.Servlet}: an
 * instrumentation is only tried on classes whose loader can see its framework. A cheap test,
 * made once per class loader, in front of the costly type-hierarchy matchers.
 */
public final class ClassLoaderCanSee extends ElementMatcher.Junction.AbstractBase<ClassLoader> {

  private final String resource;
  private final Cache<ClassLoader, Boolean> answers = Caffeine.newBuilder().weakKeys().build();

  public ClassLoaderCanSee(String className) {
    this.resource = className.replace('.', '/') + ".class";
  }

  @Override
  public boolean matches(ClassLoader loader) {
    if (loader == null) {
      return false; // the bootstrap loader holds no web framework
    }
    return answers.get(loader, l -> l.getResource(resource) != null);
  }

  @Override
  public String toString() {
    return "canSee(" + resource + ")";
  }
}
