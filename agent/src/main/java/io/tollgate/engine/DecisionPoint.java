package io.tollgate.engine;

import io.tollgate.rules.Rule;

/**
 * Where in a request's path a decision is taken, and so which rules it takes. Each rule is decided
 * at exactly one point, so no rule counts a request twice.
 */
public enum DecisionPoint {

  /** The first servlet entry point: rules that need no route template. */
  FIRST_ENTRY {
    @Override
    boolean decides(Rule rule) {
      return !rule.needsRoute();
    }
  },

  /** A framework's handler, after a servlet entry point: the rules that need the route. */
  ROUTE {
    @Override
    boolean decides(Rule rule) {
      return rule.needsRoute();
    }
  },

  /**
   * A later servlet entry point of the same request (a filter after the first, the servlet): no
   * rule of its own, only those that waited there for the authenticated user.
   */
  LATER_ENTRY {
    @Override
    boolean decides(Rule rule) {
      return false;
    }
  },

  /**
   * The application's first read of its request's parameters or body (the container's {@code
   * getParameter}, {@code getInputStream}...): no rule of its own, only those whose key is a form
   * body's field, which waited there so that the agent never reads a body before the application
   * (and reads it as the application does, in the charset it chose).
   */
  BODY_READ {
    @Override
    boolean decides(Rule rule) {
      return false;
    }
  },

  /** A framework with no servlet entry point before it (Jersey on Grizzly): every rule. */
  ONLY_ENTRY {
    @Override
    boolean decides(Rule rule) {
      return true;
    }
  };

  abstract boolean decides(Rule rule);
}
