// The one source of BoomException of spring-boot2, spring-boot3 and spring-boot4.
// The build (test-apps/pom.xml, antrun execution "shared-sources") copies it into each app whose
// property shared-sources names it, in the app's own package and namespace (javax or jakarta).
package io.tollgate.testapps.shared;

/** The exception GET /error/boom throws on purpose. */
final class BoomException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BoomException() {
        super("boom");
    }

    static boolean isBoom(Throwable t) {
        for (int i = 0; t != null && i < 10; i++, t = t.getCause()) {
            if (t instanceof BoomException) {
                return true;
            }
        }
        return false;
    }
}
