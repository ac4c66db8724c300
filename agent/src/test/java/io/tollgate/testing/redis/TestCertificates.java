package io.tollgate.testing.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway certificate authority and a server certificate it signed, made with the {@code
 * openssl} binary in a temporary directory (EC P-256 keys, valid 2 days), as PEM files for {@code
 * redis-server --tls-*} and for {@code redis.tls.ca-file}.
 */
public final class TestCertificates {

  private final Path dir;

  private TestCertificates(Path dir) {
    this.dir = dir;
  }

  /**
   * A CA, and a server certificate for the names in {@code subjectAltNames} (such as {@code
   * DNS:localhost} or {@code IP:127.0.0.1}). Fails, never skips, when openssl is missing.
   */
  public static TestCertificates create(String... subjectAltNames) {
    try {
      Path dir = Files.createTempDirectory("tollgate-tls-");
      TestCertificates certs = new TestCertificates(dir);
      certs.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
          "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
          "-subj", "/CN=Tollgate test CA",
          "-addext", "basicConstraints=critical,CA:TRUE",
          "-addext", "keyUsage=critical,keyCertSign,cRLSign");
      certs.openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
          "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=tollgate-test-redis");
      Files.write(
          dir.resolve("server.ext"),
          ("subjectAltName=" + String.join(",", subjectAltNames) + "\n"
                  + "extendedKeyUsage=serverAuth\n")
              .getBytes(StandardCharsets.US_ASCII));
      certs.openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
          "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "server.ext");
      return certs;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void openssl(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add("openssl");
    command.addAll(Arrays.asList(args));
    Path log = dir.resolve("openssl.log");
    Process process;
    try {
      process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new IllegalStateException(
          "the TLS tests make their certificates with the openssl binary, which cannot be run"
              + " here (Debian/Ubuntu: apt-get install openssl): " + e.getMessage(), e);
    }
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException(
            "openssl " + String.join(" ", args) + " failed:\n"
                + new String(Files.readAllBytes(log), StandardCharsets.UTF_8));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public Path caCertificate() {
    return dir.resolve("ca.crt");
  }

  public Path serverCertificate() {
    return dir.resolve("server.crt");
  }

  public Path serverKey() {
    return dir.resolve("server.key");
  }
}
