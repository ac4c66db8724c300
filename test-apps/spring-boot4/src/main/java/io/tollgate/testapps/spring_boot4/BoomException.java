package io.tollgate.testapps.spring_boot4;

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
