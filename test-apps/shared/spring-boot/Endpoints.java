// The one source of the endpoints of spring-boot2 and spring-boot4 (spring-boot3 has one route more).
// The build (test-apps/pom.xml, antrun execution "shared-sources") copies it into each app whose
// property shared-sources names it, in the app's own package and namespace (javax or jakarta).
package io.tollgate.testapps.shared;

import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.ModelAndView;

/** The endpoints. Every body is text/plain and ends in a newline. */
@RestController
public class Endpoints {
    private static final MediaType TEXT = new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8);

    private static final ExecutorService ASYNC = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "async-hello");
        t.setDaemon(true);
        return t;
    });

    static ResponseEntity<String> text(String body) {
        return ResponseEntity.ok().contentType(TEXT).body(body + "\n");
    }

    @GetMapping("/hello")
    public ResponseEntity<String> hello() {
        return text("hello");
    }

    @PostMapping("/hello")
    public ResponseEntity<String> helloPosted() {
        return text("hello posted");
    }

    /** 401 "wrong password" when the password parameter is "wrong"; else 200, whatever else is sent. */
    @PostMapping("/login")
    public ResponseEntity<String> login(@RequestParam(name = "password", required = false) String password) {
        if ("wrong".equals(password)) {
            return ResponseEntity.status(401).contentType(TEXT).body("wrong password\n");
        }
        return text("logged in");
    }

    @GetMapping("/api/orders/{id}")
    public ResponseEntity<String> order(@PathVariable("id") String id) {
        return text("order " + id);
    }

    @GetMapping("/api/search")
    public ResponseEntity<String> search() {
        return text("search results");
    }

    /** With ?cost=N, answers X-Tollgate-Cost: N. */
    @GetMapping("/api/export")
    public ResponseEntity<String> export(@RequestParam(name = "cost", required = false) String cost) {
        ResponseEntity.BodyBuilder ok = ResponseEntity.ok().contentType(TEXT);
        if (cost != null) {
            ok.header("X-Tollgate-Cost", cost);
        }
        return ok.body("export\n");
    }

    @GetMapping("/health")
    public ResponseEntity<String> health() {
        return text("ok");
    }

    /** The user principal the application sees (see TestUserFilter). */
    @GetMapping("/whoami")
    public ResponseEntity<String> whoami(HttpServletRequest req) {
        java.security.Principal user = req.getUserPrincipal();
        return text(user == null ? "anonymous" : "user " + user.getName());
    }

    /** Async: a DeferredResult completed from another thread. */
    @GetMapping("/async/hello")
    public DeferredResult<ResponseEntity<String>> asyncHello() {
        DeferredResult<ResponseEntity<String>> result = new DeferredResult<>();
        ASYNC.execute(() -> result.setResult(text("hello async")));
        return result;
    }

    @GetMapping("/forward/hello")
    public ModelAndView forwardHello() {
        return new ModelAndView("forward:/hello");
    }

    /** Its own response, with /hello's output included. */
    @GetMapping("/include/hello")
    public void includeHello(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
        resp.setContentType(TEXT.toString());
        req.getRequestDispatcher("/hello").include(req, resp);
    }

    /** Throws; Spring Boot's error handling (an ERROR dispatch to /error) answers 500. */
    @GetMapping("/error/boom")
    public String boom() {
        throw new BoomException();
    }
}
