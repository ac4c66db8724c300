package org.glassfish.jersey.grizzly2.httpserver;

/** Stands in for Jersey's class of that name (not on the test class path) in class-file tests. */
public final class GrizzlyHttpContainer {}
