package io.tollgate.instrumentation;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.pool.TypePool;

/**
 * Keeps the type descriptions Byte Buddy parses while it matches classes, per class loader.
 *
 * <p>Deciding whether a class implements {@code Servlet} or {@code Filter} means walking its
 * super types; without a cache, every class the application loads parses {@code Object}, its
 * interfaces and its framework's base classes again, which adds seconds to a large application's
 * start-up. Bounded per class loader, and weak in the class loader, so that a redeployed
 * application's loader is not kept alive.
 */
final class TypeDescriptionCache extends AgentBuilder.PoolStrategy.WithTypePoolCache {

  private static final int TYPES_PER_CLASS_LOADER = 4_000;

  /** Stands for the bootstrap class loader, which is {@code null} and cannot be a cache key. */
  private static final ClassLoader BOOTSTRAP = new ClassLoader(null) {};

  private final Cache<ClassLoader, TypePool.CacheProvider> byClassLoader =
      Caffeine.newBuilder().weakKeys().build();

  TypeDescriptionCache() {
    super(TypePool.Default.ReaderMode.FAST);
  }

  @Override
  protected TypePool.CacheProvider locate(ClassLoader classLoader) {
    return byClassLoader.get(
        classLoader == null ? BOOTSTRAP : classLoader, ignored -> new Bounded());
  }

  /** At most {@value #TYPES_PER_CLASS_LOADER} descriptions; the least used go first. */
  private static final class Bounded implements TypePool.CacheProvider {

    private final Cache<String, TypePool.Resolution> resolutions =
        Caffeine.newBuilder().maximumSize(TYPES_PER_CLASS_LOADER).build();

    @Override
    public TypePool.Resolution find(String name) {
      return resolutions.getIfPresent(name);
    }

    @Override
    public TypePool.Resolution register(String name, TypePool.Resolution resolution) {
      TypePool.Resolution earlier = resolutions.asMap().putIfAbsent(name, resolution);
      return earlier == null ? resolution : earlier;
    }

    @Override
    public void clear() {
      resolutions.invalidateAll();
    }
  }
}
