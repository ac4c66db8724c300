package io.tollgate.it;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.StringReader;
import org.apache.batik.transcoder.ErrorHandler;
import org.apache.batik.transcoder.TranscoderException;
import org.apache.batik.transcoder.TranscoderInput;
import org.apache.batik.transcoder.TranscoderOutput;
import org.apache.batik.transcoder.image.ImageTranscoder;

/**
 * An SVG chart of a page drawn by Batik, at its own size, on white. The chart's colours come from
 * the page's style sheet (classes, as {@code svg .allowed{fill:...}}), so the sheet's rules for
 * SVG go into the chart as its own {@code <style>} (Batik's CSS engine knows SVG's properties, and
 * refuses HTML's, as {@code display:inline-block}). Any error Batik reports fails the drawing:
 * its default prints the error and draws on.
 */
final class BatikDrawing extends ImageTranscoder {

  private BufferedImage image;

  private BatikDrawing() {}

  /** Draws {@code svg} (an {@code <svg>} element's markup) with the page's {@code css}. */
  static BufferedImage draw(String svg, String css) throws TranscoderException {
    int open = svg.indexOf('>', svg.indexOf("<svg")) + 1;
    String styled = svg.substring(0, open)
        + "<style type=\"text/css\"><![CDATA[" + svgRules(css) + "]]></style>"
        + svg.substring(open);
    BatikDrawing drawing = new BatikDrawing();
    drawing.setErrorHandler(new ErrorHandler() {
      @Override
      public void error(TranscoderException e) throws TranscoderException {
        throw e;
      }

      @Override
      public void fatalError(TranscoderException e) throws TranscoderException {
        throw e;
      }

      @Override
      public void warning(TranscoderException e) throws TranscoderException {
        throw e;
      }
    });
    drawing.addTranscodingHint(KEY_BACKGROUND_COLOR, Color.WHITE);
    TranscoderInput input = new TranscoderInput(new StringReader(styled));
    input.setURI("file:/report-chart.svg");
    drawing.transcode(input, null);
    return drawing.image;
  }

  /** The rules of a flat style sheet whose selectors start with {@code svg}. */
  static String svgRules(String css) {
    StringBuilder rules = new StringBuilder();
    for (String rule : css.split("}")) {
      if (rule.trim().startsWith("svg")) {
        rules.append(rule.trim()).append('}');
      }
    }
    return rules.toString();
  }

  @Override
  public BufferedImage createImage(int width, int height) {
    return new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
  }

  @Override
  public void writeImage(BufferedImage drawn, TranscoderOutput output) {
    image = drawn;
  }
}
