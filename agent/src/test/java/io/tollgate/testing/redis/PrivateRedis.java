package io.tollgate.testing.redis;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@link RedisServer} parameter: a server of this test's own, started as a process (so the
 * test may stop, kill, pause and restart it) and killed by its process id after the test.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface PrivateRedis {}
