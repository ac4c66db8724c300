package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tollgate.config.RulesFileParser;
import io.tollgate.replay.HtmlReport;
import io.tollgate.replay.Replay;
import io.tollgate.replay.TrafficShapes;
import io.tollgate.replay.log.LoggedRequest;
import io.tollgate.testing.Progress;
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
import org.htmlunit.BrowserVersion;
import org.htmlunit.WebClient;
import org.htmlunit.cssparser.parser.CSSErrorHandler;
import org.htmlunit.cssparser.parser.CSSParseException;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.DomNodeList;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report as a browser shows it, on a report of known traffic (a scraper and a crowd, two
 * rules): its charts must show bars, allowed (blue) and would-refuse (red), far more of them than
 * the legend's two squares.
 *
 * <p>Two engines, as a table of cases: HtmlUnit loads the page as a browser does (its parser, its
 * CSS, no script error) and Batik draws each of its SVG charts with the page's style sheet; both
 * come from Maven, so every machine with a JDK and Maven runs this. Debian's Chromium, headless,
 * takes a screenshot of the whole page too, where it is installed ({@code apt-get install
 * chromium}, or {@code -Dtollgate.test.chromium=PATH}); without one that case says so on one line
 * and is reported as skipped, never silently, and {@code -Dtollgate.test.require-chromium=true}
 * (CI) makes it fail instead. {@code -Dtollgate.test.replay-screenshot=FILE.png} keeps Chromium's
 * screenshot (the README's {@code docs/replay-report.png} is its first rule, cropped and scaled to
 * 80%).
 */
class ReplayReportBrowserIT {

  static final String CHROMIUM_PROPERTY = "tollgate.test.chromium";
  static final String REQUIRE_CHROMIUM_PROPERTY = "tollgate.test.require-chromium";
  /** The bars' colours (HtmlReport's CSS). */
  static final int ALLOWED = 0x4a7ab5;
  static final int REFUSED = 0xd9534f;

  @TempDir Path dir;

  /**
   * HtmlUnit and Batik: the page parses with its two rule sections, each with a timeline and a
   * keys chart, and the charts drawn hold the bars. The figures (pixels over all charts, at the
   * charts' own sizes) are of the same order as Chromium's screenshot's.
   */
  @Test
  void htmlUnitLoadsTheReportAndBatikDrawsItsCharts() throws Exception {
    System.setProperty("java.awt.headless", "true");
    Path html = report();
    List<String> problems = new ArrayList<>();
    long allowed = 0;
    long refused = 0;
    try (WebClient browser = new WebClient(BrowserVersion.BEST_SUPPORTED)) {
      browser.getOptions().setThrowExceptionOnScriptError(true);
      browser.setCssErrorHandler(new CssProblems(problems));
      HtmlPage page = browser.getPage(html.toUri().toString());
      assertTrue(page.getTitleText().startsWith("Tollgate replay: "), page.getTitleText());
      DomNodeList<DomNode> rules = page.querySelectorAll("section.rule");
      assertEquals(2, rules.size(), "rule sections");
      String css = page.querySelector("head style").getTextContent();
      for (DomNode rule : rules) {
        for (String chart : new String[] {"svg.timeline", "svg.keys"}) {
          DomNode svg = rule.querySelector(chart);
          assertTrue(svg != null, chart + " in " + rule.querySelector("h2").getTextContent());
          BufferedImage image = BatikDrawing.draw(svg.asXml(), css);
          allowed += pixelsNear(image, ALLOWED);
          refused += pixelsNear(image, REFUSED);
        }
      }
    }
    assertEquals(List.of(), problems, "HtmlUnit's CSS errors");
    Progress.say("ReplayReportBrowserIT", "HtmlUnit + Batik: " + allowed + " allowed and "
        + refused + " would-refuse pixels in the charts");
    // the legend's squares are 10 x 10 pixels each: the charts' bars are thousands more
    assertTrue(allowed > 5_000, "allowed bars, pixels: " + allowed);
    assertTrue(refused > 2_000, "would-refuse bars, pixels: " + refused);
  }

  /** Chromium, where it is installed: a screenshot of the whole page shows the bars. */
  @Test
  void chromiumShowsTheChartsOfAReport() throws Exception {
    String chromium = chromium();
    Path html = report();
    Path png = dir.resolve("report.png");
    Path profile = dir.resolve("profile");
    // --disable-background-networking and the like: no connection to Google's hosts at start
    List<String> command = new ArrayList<>(Arrays.asList(chromium, "--headless", "--no-sandbox",
        "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-extensions",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
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
    Progress.say("ReplayReportBrowserIT", "Chromium: " + allowed + " allowed and " + refused
        + " would-refuse pixels in the screenshot");
    assertTrue(allowed > 5_000, "allowed bars, pixels: " + allowed);
    assertTrue(refused > 2_000, "would-refuse bars, pixels: " + refused);
  }

  /** The report of a scraper and a crowd on /catalog under two rules, written to a file. */
  private Path report() throws Exception {
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
    return html;
  }

  /** HtmlUnit's CSS parser's errors, collected; its warnings (a property it does not know) pass. */
  private static final class CssProblems implements CSSErrorHandler {
    private final List<String> problems;

    CssProblems(List<String> problems) {
      this.problems = problems;
    }

    @Override
    public void warning(CSSParseException e) {}

    @Override
    public void error(CSSParseException e) {
      problems.add(e.getMessage());
    }

    @Override
    public void fatalError(CSSParseException e) {
      problems.add(e.getMessage());
    }
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

  /**
   * Chromium: the property's, else the first on the PATH. Without one the test says so on one
   * line and aborts (reported as skipped, with the reason), or fails where it is required.
   */
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
    String reason = "the Chromium leg of ReplayReportBrowserIT was not run: no chromium on the"
        + " PATH (apt-get install chromium, or -D" + CHROMIUM_PROPERTY + "=PATH); HtmlUnit and"
        + " Batik checked the report";
    if (Boolean.getBoolean(REQUIRE_CHROMIUM_PROPERTY)) {
      fail(reason + "; -D" + REQUIRE_CHROMIUM_PROPERTY + "=true requires it");
    }
    System.out.println("[chromium] " + reason);
    Assumptions.abort(reason);
    return null;
  }
}
