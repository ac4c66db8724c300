package io.tollgate.instrumentation.samples;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/**
 * A filter whose {@code doFilter} has what makes weaving hard: a loop at its very first
 * instruction (a stack map frame at offset 0), long and double locals (two slots each), a
 * try/catch/finally that returns from inside the catch, and locals declared in branches.
 */
public class TrickyFilter implements Filter {

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) {
    int round;
    do {
      round = Events.LOG.size();
    } while (round < 0);
    long total = 0;
    double ratio = 0.5;
    for (int i = 0; i < 3; i++) {
      total += i;
    }
    try {
      if (Events.scripted("inner throw")) {
        throw new IllegalStateException("caught inside");
      }
      if (Events.scripted("throw")) {
        throw new IllegalArgumentException("from the body");
      }
    } catch (IllegalStateException e) {
      Events.add("caught " + total + " " + ratio);
      return;
    } finally {
      Events.add("finally");
    }
    String last = total > 2 ? "total " + total : "small";
    Events.add(last);
  }
}
