package org.glassfish.jersey.server;

/** Stands in for Jersey's class of that name (not on the test class path) in weaving tests. */
public class ContainerResponse {

  private final String text;

  public ContainerResponse(String text) {
    this.text = text;
  }

  @Override
  public String toString() {
    return text;
  }
}
