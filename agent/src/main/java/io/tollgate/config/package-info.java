/**
 * The rules file (section 3 of docs/interfaces.md): parsing and strict validation into an immutable
 * model.
 *
 * <p>Entry point: {@link io.tollgate.config.RulesFileParser#parse(java.nio.file.Path)}, which returns a
 * {@link io.tollgate.config.RulesConfig} or throws a {@link io.tollgate.config.ConfigException} holding
 * every {@link io.tollgate.config.ConfigProblem} found, each with the file, a 1-based line and column,
 * and a message meant for an operator ({@code rules.yaml: line 7, column 13: rule 'login': period must be
 * a duration, got '60' ...}). Nothing else escapes the parser: not SnakeYAML's exceptions, not runtime
 * exceptions.
 *
 * <p>What is checked: YAML syntax (tabs, indentation, unclosed quotes and brackets, more than one
 * document); duplicate keys; unknown keys (with a "did you mean" hint for near misses, including
 * camelCase and snake_case spellings, and a pointer when a key is at the wrong level); types and ranges
 * of every value; enumerations (listing the allowed values); durations (listing the accepted forms);
 * rule names (present, {@code [A-Za-z0-9._-]+}, unique); path globs and routes (start with '/');
 * HTTP methods (a known method; case-insensitive); key parts ({@code ip | global | principal | route |
 * header:NAME | param:NAME | query:NAME | form:NAME | cookie:NAME}, NAME an RFC 9110 token, no repeats, {@code global} alone);
 * cost maps ({@code default} or globs, positive values, no cost above the burst or limit, which could
 * never pass); redis ({@code backend: redis} with exactly one of {@code uri} and a non-empty {@code
 * cluster}, URI schemes, {@code ${NAME}} and {@code ${NAME:-default}} from an injectable environment);
 * client-ip (a hop count &gt;= 0 or a list of IPv4/IPv6 CIDRs; an IPv6 prefix of 1..128).
 *
 * <p>YAML merge keys ({@code <<: *anchor}) work inside rules and sections, so rules can share settings.
 * Inside flow lists ({@code [ ... ]}) a glob with {@code ?} must be quoted: that is YAML, not us.
 *
 * <p>A rule ({@link io.tollgate.config.RuleConfig}) is its name and its parts, small immutable
 * values whose equality is derived from the one list of their fields ({@code ConfigValue}):
 * {@link io.tollgate.config.RuleMatch}, {@link io.tollgate.config.Keying}, {@link
 * io.tollgate.config.Counting}, {@link io.tollgate.config.AdaptiveSettings}, {@link
 * io.tollgate.config.PerClientSettings}, {@link io.tollgate.config.Charging}, {@link
 * io.tollgate.config.Enforcement}, {@link io.tollgate.config.Responding}, {@link
 * io.tollgate.config.AllowConfig} and {@link io.tollgate.config.PenaltyConfig}. What a reload does
 * to a rule's counts when one of their fields changes (keeps them, carries them over, starts them
 * afresh) is said once, field by field, in {@link io.tollgate.config.CountedState}.
 *
 * <p>{@link io.tollgate.config.PathGlob} and {@link io.tollgate.config.CostConfig#costFor(String)} are
 * meant for the request path: no regex, no allocation.
 *
 * <p>May use: {@code limiters} (the algorithms and their settings), {@code keys} (addresses are
 * checked by the very parser the agent keys requests with, so that validate and the agent never
 * disagree about one), {@code logging}.
 */
package io.tollgate.config;
