// The one source of the /echo servlet of servlet-javax, servlet-jakarta, servlet-jetty9, war-javax
// and war-jakarta. The build (test-apps/pom.xml, antrun execution "shared-sources") copies it into
// each app whose property shared-sources names it, in the app's own package and namespace (javax or
// jakarta). Public, as a servlet that a web.xml names must be.
package io.tollgate.testapps.shared;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import javax.servlet.http.Part;

/**
 * /echo, any method: answers what the application received, so that a test can compare it with
 * and without the agent. How it reads the request is the header {@code X-Echo-Read}:
 * {@code parameters} (default: {@code getParameterMap}), {@code body} ({@code getInputStream}
 * first, then the parameters), {@code reader} ({@code getReader}), {@code parts}
 * ({@code getParts}); {@code X-Echo-Charset}, when sent, is set with {@code setCharacterEncoding}
 * first, as an application's encoding filter does.
 */
public final class Echo extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        StringBuilder out = new StringBuilder();
        String charset = req.getHeader("X-Echo-Charset");
        if (charset != null) {
            req.setCharacterEncoding(charset);
        }
        String read = req.getHeader("X-Echo-Read") == null ? "parameters" : req.getHeader("X-Echo-Read");
        line(out, "method", req.getMethod());
        line(out, "query", req.getQueryString());
        line(out, "content-type", req.getContentType());
        line(out, "content-length", String.valueOf(req.getContentLengthLong()));
        line(out, "transfer-encoding", req.getHeader("Transfer-Encoding"));
        line(out, "read", read);
        try {
            switch (read) {
                case "body":
                    line(out, "body-hex", hex(req.getInputStream().readAllBytes()));
                    break;
                case "reader":
                    line(out, "body-chars", readAll(req.getReader()));
                    break;
                case "parts":
                    Collection<Part> parts = req.getParts();
                    for (Part part : parts) {
                        line(out, "part " + part.getName() + " file=" + part.getSubmittedFileName(),
                                hex(part.getInputStream().readAllBytes()));
                    }
                    break;
                default:
                    break;
            }
            for (Map.Entry<String, String[]> p : new TreeMap<>(req.getParameterMap()).entrySet()) {
                line(out, "param " + p.getKey(), String.join(" | ", p.getValue()));
            }
        } catch (IOException | RuntimeException | javax.servlet.ServletException e) {
            line(out, "failed", e.getClass().getName() + ": " + e.getMessage());
        }
        line(out, "charset", req.getCharacterEncoding());
        resp.setContentType("text/plain;charset=UTF-8");
        resp.getOutputStream().write(out.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** {@code name: value}, the value's characters outside printable ASCII as {@code \\uXXXX}. */
    private static void line(StringBuilder out, String name, String value) {
        out.append(name).append(": ");
        if (value == null) {
            out.append("(none)");
        } else {
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c >= 0x20 && c < 0x7f && c != '\\') {
                    out.append(c);
                } else {
                    out.append(String.format("\\u%04x", (int) c));
                }
            }
        }
        out.append('\n');
    }

    private static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            s.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return s.toString();
    }

    private static String readAll(Reader reader) throws IOException {
        StringBuilder s = new StringBuilder();
        char[] buffer = new char[4096];
        for (int n; (n = reader.read(buffer)) > 0; ) {
            s.append(buffer, 0, n);
        }
        return s.toString();
    }
}
