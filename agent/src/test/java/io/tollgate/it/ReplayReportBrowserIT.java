package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tollgate.config.RulesFileParser;
import io.tollgate.replay.HtmlReport;
import io.tollgate.replay.Replay;
import io.tollgate.replay.TrafficShapes;
import io.tollgate.replay.log.LoggedRequest;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report as a browser shows it: Debian's Chromium, headless, takes a screenshot of a
 * report of known traffic, and the screenshot must show the charts' bars, allowed (blue) and
 * would-refuse (red), far more of them than the legend's two squares.
 *
 * <p>Needs Chromium: {@code apt-get install chromium}, or {@code -Dtollgate.test.chromium=PATH}.
 * Without one the test fails and says so; it never skips. {@code
 * -Dtollgate.test.replay-screenshot=FILE.png} keeps the screenshot (the README's {@code
 * docs/replay-report.png} is its first rule, cropped and scaled to 80%).
 */
class ReplayReportBrowserIT {

  static final String CHROMIUM_PROPERTY = "tollgate.test.chromium";
  /** The bars' colours (HtmlReport's CSS). */
  static final int ALLOWED = 0x4a7ab5;
  static final int REFUSED = 0xd9534f;

  @TempDir Path dir;

  @Test
  void chromiumShowsTheChartsOfAReport() throws Exception {
    String chromium = chromium();
    List<LoggedRequest> traffic = new ArrayList<>();
    traffic.addAll(TrafficShapes.traffic().scraper("/catalog", 30).requests());
    traffic.addAll(TrafficShapes.traffic().crowd("/catalog/home", 600, 30).requests());
    traffic.sort((a, b) -> Long.compare(a.epochMillis, b.epochMillis));
    Replay replay = Replay.of(RulesFileParser.parse(String.join("\n",
        "rules:",
        "  - name: scraper-by-agent",
        "    match: {path: /catalog/**}",
        "    key: header:User-Agent",
        "    algorithm: fixed-window",
        "    limit: 120",
        "    period: 1m",
        "  - {name: per-ip, match: {path: /catalog/**}, key: ip, limit: 90, period: 1m}"),
        "rules.yaml"), 1_000_000);
    for (LoggedRequest request : traffic) {
      replay.replay(request);
    }
    Path html = dir.resolve("report.html");
    Files.write(html, HtmlReport.of(replay.report(10, null)).getBytes(StandardCharsets.UTF_8));
    Path png = dir.resolve("report.png");
    Path profile = dir.resolve("profile");
    List<String> command = new ArrayList<>(Arrays.asList(chromium, "--headless", "--no-sandbox",
        "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-extensions",
        "--user-data-dir=" + profile, "--screenshot=" + png, "--window-size=1200,2000",
        html.toUri().toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("chromium.log").toFile()).start();
    // a bound for a hung browser, not a timing assertion
    assertTrue(process.waitFor(5, TimeUnit.MINUTES), "chromium did not finish");
    String log = new String(Files.readAllBytes(dir.resolve("chromium.log")), StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), "chromium: " + log);
    assertTrue(Files.size(png) > 0, "no screenshot: " + log);
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(1200, image.getWidth());
    long allowed = pixelsNear(image, ALLOWED);
    long refused = pixelsNear(image, REFUSED);
    String saved = System.getProperty("tollgate.test.replay-screenshot");
    if (saved != null) {
      Files.copy(png, Paths.get(saved), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    // the legend's squares are 10 x 10 pixels each: the charts' bars are thousands more
    assertTrue(allowed > 5_000, "allowed bars, pixels: " + allowed);
    assertTrue(refused > 2_000, "would-refuse bars, pixels: " + refused);
  }

  /** Pixels within a few levels of {@code rgb} in each channel (anti-aliasing aside). */
  static long pixelsNear(BufferedImage image, int rgb) {
    long n = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int p = image.getRGB(x, y);
        if (Math.abs(((p >> 16) & 0xff) - ((rgb >> 16) & 0xff)) <= 6
            && Math.abs(((p >> 8) & 0xff) - ((rgb >> 8) & 0xff)) <= 6
            && Math.abs((p & 0xff) - (rgb & 0xff)) <= 6) {
          n++;
        }
      }
    }
    return n;
  }

  /** Chromium: the property's, else the first on the PATH; fails (never skips) without one. */
  static String chromium() {
    String given = System.getProperty(CHROMIUM_PROPERTY);
    if (given != null && !given.isEmpty()) {
      if (!new File(given).canExecute()) {
        fail("-D" + CHROMIUM_PROPERTY + "=" + given + " is not an executable file");
      }
      return given;
    }
    String path = System.getenv("PATH");
    for (String name : new String[] {"chromium", "chromium-browser", "google-chrome"}) {
      for (String d : (path == null ? "" : path).split(File.pathSeparator)) {
        File candidate = new File(d, name);
        if (candidate.canExecute()) {
          return candidate.getPath();
        }
      }
    }
    fail("This test renders the replay's HTML report in a headless browser, and there is no"
        + " chromium on the PATH: apt-get install chromium (Debian's package), or point -D"
        + CHROMIUM_PROPERTY + "=PATH at a Chromium or Chrome executable.");
    return null;
  }
}
