package io.tollgate.instrumentation;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The entry points of a list by method name, as their positions in it (in order): a method of a
 * class is compared with the few entry points of its name, not with all of them (over a hundred),
 * which at start runs interpreted, once for every method of every class looked at. One index
 * serves the look at a class file's method headers ({@link EntryPointClassFiles}) and the weaving
 * ({@link EntryPointWeaving}), built once in {@code premain}.
 */
final class EntryPointsByName {

  private final Map<String, int[]> positions = new HashMap<>();

  EntryPointsByName(List<EntryPointMethod> methods) {
    // No stream, no lambda: this runs in premain, on the application's main thread
    for (int i = 0; i < methods.size(); i++) {
      String name = methods.get(i).name;
      int[] named = positions.get(name);
      named = named == null ? new int[1] : Arrays.copyOf(named, named.length + 1);
      named[named.length - 1] = i;
      positions.put(name, named);
    }
  }

  /** The positions of the entry points named {@code name}, in order; null when there are none. */
  int[] positionsOf(String name) {
    return positions.get(name);
  }
}
