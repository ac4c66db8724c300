package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The connection's codec writes each argument straight into the command's buffer, and the bytes
 * on the wire are exactly those of Lettuce's own UTF-8 codec, for every kind of string a key or an
 * argument can hold: Redis gets the same command, and answers with the same strings.
 */
@ExtendWith(RedisServerExtension.class)
class ExactUtf8CodecTest {

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(strings = {
    "",                                              // empty
    "tollgate:v2:{hello-never-refuses:AbCdEfGhIjKlMnOpQrStUv}:token-bucket", // a key as stores make it
    "decide", "1733433600123456789", "-1",           // an operation, a time, a negative number
    "café",                                          // two-byte UTF-8
    "日本語のキー",                                    // three-byte UTF-8
    "emoji \uD83D\uDE00 key",                        // a surrogate pair: four bytes
    "lone high \uD800 surrogate",                    // unpaired: written as '?'
    "lone low \uDC00",                               // unpaired at the end
    "\uD800",                                        // only an unpaired surrogate
  })
  void writesTheBytesOfLettucesUtf8CodecWithTheExactSize(String text) {
    assertEquals(StringCodec.UTF8.encodeValue(text).remaining(),
        ExactUtf8Codec.INSTANCE.estimateSize(text), "the size announced is the size written");
    assertArrayEquals(wire(StringCodec.UTF8, text), wire(ExactUtf8Codec.INSTANCE, text));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(strings = {"plain", "café", "日本語のキー", "emoji \uD83D\uDE00 key", ""})
  void redisGetsAndGivesBackTheSameStrings(String text, RedisServer server) {
    RedisScript echo = new RedisScript("echo.lua", "local r = {KEYS[1]}\n"
        + "for i = 1, #ARGV do r[#r + 1] = ARGV[i] end\nreturn r");
    String key = RedisTestSupport.uniqueRule("codec") + ":" + text;
    String[] args = {text, "1", text + text, "-42"};
    try (RedisBackend backend = RedisTestSupport.connect(server, Duration.ofSeconds(30))) {
      List<Object> expected = new ArrayList<>();
      expected.add(key);
      expected.addAll(Arrays.asList(args));
      assertEquals(expected, backend.eval(echo, key, args));
    }
  }

  /** A command's arguments as the codec puts them on the wire: a key and a value. */
  private static byte[] wire(StringCodec codec, String text) {
    ByteBuf buffer = Unpooled.buffer();
    try {
      new CommandArgs<>(codec).addKey(text).addValue(text).encode(buffer);
      byte[] bytes = new byte[buffer.readableBytes()];
      buffer.readBytes(bytes);
      return bytes;
    } finally {
      buffer.release();
    }
  }
}
