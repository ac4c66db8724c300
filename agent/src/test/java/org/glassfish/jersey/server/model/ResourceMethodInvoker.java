package org.glassfish.jersey.server.model;

/** Stands in for Jersey's class of that name (not on the test class path) in class-file tests. */
public final class ResourceMethodInvoker {}
