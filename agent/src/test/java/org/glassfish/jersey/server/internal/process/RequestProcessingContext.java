package org.glassfish.jersey.server.internal.process;

/** Stands in for Jersey's class of that name (not on the test class path) in weaving tests. */
public class RequestProcessingContext {}
