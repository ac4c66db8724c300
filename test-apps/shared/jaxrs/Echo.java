// The one source of the /echo resource of jaxrs-javax, jaxrs-jakarta, jaxrs-resteasy and jaxrs-cxf.
// The build (test-apps/pom.xml, antrun execution "shared-sources") copies it into each app whose
// property shared-sources names it, in the app's own package and namespace (javax or jakarta).
package io.tollgate.testapps.shared;

import javax.ws.rs.Consumes;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.core.Context;
import javax.ws.rs.core.HttpHeaders;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.MultivaluedMap;
import javax.ws.rs.core.UriInfo;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * POST /echo: answers what the resource received, so that a test can compare it with and without
 * the agent: a URL-encoded form as the implementation's form parameters, anything else as the
 * body's bytes; the query parameters, and the headers that say how the body came.
 */
@Path("/echo")
@Produces("text/plain;charset=UTF-8")
public class Echo {

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public String form(MultivaluedMap<String, String> form, @Context HttpHeaders headers, @Context UriInfo uri) {
        StringBuilder out = head(headers, uri, "form");
        for (Map.Entry<String, List<String>> field : new TreeMap<>(form).entrySet()) {
            line(out, "form " + field.getKey(), String.join(" | ", field.getValue()));
        }
        return out.toString();
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public String body(byte[] body, @Context HttpHeaders headers, @Context UriInfo uri) {
        StringBuilder out = head(headers, uri, "body");
        StringBuilder hex = new StringBuilder();
        for (byte b : body) {
            hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        line(out, "body-hex", hex.toString());
        return out.toString();
    }

    private static StringBuilder head(HttpHeaders headers, UriInfo uri, String read) {
        StringBuilder out = new StringBuilder();
        line(out, "query", uri.getRequestUri().getRawQuery());
        line(out, "content-type", headers.getHeaderString("Content-Type"));
        line(out, "content-length", headers.getHeaderString("Content-Length"));
        line(out, "transfer-encoding", headers.getHeaderString("Transfer-Encoding"));
        line(out, "read", read);
        for (Map.Entry<String, List<String>> p : new TreeMap<>(uri.getQueryParameters()).entrySet()) {
            line(out, "query " + p.getKey(), String.join(" | ", p.getValue()));
        }
        return out;
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
}
