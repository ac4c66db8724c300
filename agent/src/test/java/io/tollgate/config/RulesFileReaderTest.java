package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.Fifos;
import java.io.File;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the agent reads as a rules file: regular files (through links) of at most 4 MiB. Anything
 * else is refused with a sentence naming the path, without opening it: a FIFO would block the
 * reader, a huge file exhaust the heap.
 */
class RulesFileReaderTest {

  @TempDir Path dir;

  @Test
  void readsARegularFileAndOneBehindALink() throws Exception {
    Path file = dir.resolve("rules.yaml");
    Files.write(file, "rules: []\n".getBytes(StandardCharsets.UTF_8));
    Path link = Files.createSymbolicLink(dir.resolve("link.yaml"), file);

    assertArrayEquals("rules: []\n".getBytes(StandardCharsets.UTF_8),
        RulesFileReader.read(file.toFile()));
    assertArrayEquals("rules: []\n".getBytes(StandardCharsets.UTF_8),
        RulesFileReader.read(link.toFile()));
  }

  @Test
  void aFileOfExactlyTheLimitIsRead() throws Exception {
    File file = sized("limit.yaml", RulesFileReader.MAX_BYTES);
    assertEquals(RulesFileReader.MAX_BYTES, RulesFileReader.read(file).length);
  }

  @Test
  void aLargerFileIsRefusedWithItsPathAndSize() throws Exception {
    File file = sized("huge.yaml", 150L * 1024 * 1024); // sparse: no disk used
    String message = refused(file);
    assertEquals("the rules file " + file + " is 157286400 bytes (150 MiB), more than the"
        + " 4194304 bytes (4 MiB) a rules file may have; it was not read", message);
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard: the FIFO is never opened
  void aFifoIsRefusedWithoutOpeningIt() throws Exception {
    Path fifo = Fifos.make(dir.resolve("rules.yaml"));
    assertTrue(refused(fifo.toFile()).startsWith(fifo + " is not a regular file (a FIFO"));
    Path link = Files.createSymbolicLink(dir.resolve("link.yaml"), fifo);
    assertTrue(refused(link.toFile()).startsWith(link + " is not a regular file"));
  }

  @Test
  void aMissingFileAndADirectoryAreSaidSo() throws Exception {
    File missing = dir.resolve("missing.yaml").toFile();
    assertEquals("the rules file " + missing + " does not exist", refused(missing));
    Path dangling = Files.createSymbolicLink(dir.resolve("dangling.yaml"), dir.resolve("gone"));
    assertEquals("the rules file " + dangling + " does not exist", refused(dangling.toFile()));
    assertEquals(dir + " is a directory, not a rules file", refused(dir.toFile()));
  }

  private File sized(String name, long length) throws Exception {
    File file = dir.resolve(name).toFile();
    try (RandomAccessFile raf = new RandomAccessFile(file, "rw")) {
      raf.setLength(length);
    }
    return file;
  }

  private static String refused(File file) {
    return assertThrows(RulesFileReader.UnreadableException.class, () -> RulesFileReader.read(file))
        .getMessage();
  }
}
