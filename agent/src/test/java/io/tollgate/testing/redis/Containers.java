package io.tollgate.testing.redis;

import java.io.File;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Testcontainers, touched only when a Docker engine may exist, so that machines without one never
 * load it (and never wait for its environment probes or print its warnings).
 */
final class Containers {

  private Containers() {}

  /** A quick, quiet check: no socket and no DOCKER_HOST means no Docker, without asking. */
  static boolean dockerMayAnswer() {
    if (System.getenv("DOCKER_HOST") != null) {
      return true;
    }
    return new File("/var/run/docker.sock").exists()
        || new File(System.getProperty("user.home"), ".docker/run/docker.sock").exists();
  }

  static boolean dockerAvailable() {
    if (!dockerMayAnswer()) {
      return false;
    }
    try {
      return CompletableFuture.supplyAsync(() -> DockerClientFactory.instance().isDockerAvailable())
          .get(10, TimeUnit.SECONDS);
    } catch (Exception | LinkageError e) {
      return false;
    }
  }

  static ExternalRedis startRedis() {
    GenericContainer<?> container =
        new GenericContainer<>(DockerImageName.parse("redis:7.4-alpine")).withExposedPorts(6379);
    container.start();
    String uri = "redis://" + container.getHost() + ":" + container.getMappedPort(6379);
    return new ExternalRedis(uri, "Testcontainers redis:7.4-alpine", container::stop);
  }
}
