/**
 * Every environment variable brainstream reads, with what it means. The CLI reference
 * (docs/cli.md) is rendered from this table, and a test checks it against the names the
 * source actually reads, so a new variable cannot go undocumented.
 */
export interface EnvironmentVariable {
  name: string;
  /** One line: what the variable changes, and its value when unset. */
  meaning: string;
}

export const ENVIRONMENT_VARIABLES: readonly EnvironmentVariable[] = [
  { name: 'BRAINSTREAM_HOME', meaning: 'data directory when `--home` is not given (default `~/.brainstream`)' },
  { name: 'BRAINSTREAM_SOURCE', meaning: 'source to read and write when `--source` is not given, and the source of a hook session (default `default`)' },
  { name: 'BRAINSTREAM_AUTOSTART', meaning: '`0`: commands and hooks never start serve in the background' },
  { name: 'BRAINSTREAM_WATCH_CONTINUED', meaning: 'set by `watch` itself when it hands a session it began before serve answered over to serve (its "ready" line was shown); not a setting' },
  { name: 'BRAINSTREAM_HOOKS', meaning: '`0`: every hook exits at once, adding no context and starting nothing' },
  { name: 'BRAINSTREAM_HOOK_DEADLINE_MS', meaning: 'one self-deadline for every hook, in milliseconds (100..600000); serve’s share of a turn grows with it' },
  { name: 'BRAINSTREAM_CORE', meaning: '`0`: sessions receive no core block (session-start hook, OpenClaw context engine)' },
  { name: 'BRAINSTREAM_RETRIEVAL_REFLEX', meaning: 'overrides `retrieval.reflex.enabled`: `false` or `0` turns push context off, any other non-empty value on' },
  { name: 'BRAINSTREAM_RETRIEVAL_REFLEX_WINDOW_TURNS', meaning: 'overrides `retrieval.reflex.window_turns`: turns in the rolling window (a number ≥ 1)' },
  { name: 'BRAINSTREAM_RETRIEVAL_REFLEX_LEXICAL_ARMS', meaning: 'overrides `retrieval.reflex.lexical_arms`: `false`, `0`, `off` or `no` turns the lexical arms off, any other non-empty value on' },
  { name: 'BRAINSTREAM_LOG_LEVEL', meaning: 'log level on stderr (default `warn`); `info`, `debug` or `trace` also show Kafka client warnings, `debug` and `trace` error stacks' },
  { name: 'BRAINSTREAM_LOG_FORMAT', meaning: '`json`: long-running commands log JSON on a terminal too, instead of readable lines' },
  { name: 'BRAINSTREAM_KAFKA_RETRIES', meaning: 'retries of a long-lived Kafka client before its consumer is replaced (default 12)' },
  { name: 'BRAINSTREAM_PG_SCHEMA', meaning: 'PostgreSQL schema of a distributed deployment when `--schema` is not given (default `brainstream`)' },
  { name: 'KAFKA_BROKERS', meaning: 'Kafka brokers (`host:port[,host:port…]`) when `--kafka` names none' },
  { name: 'DATABASE_URL', meaning: 'PostgreSQL URL of a distributed deployment when `--database` is not given' },
  { name: 'HOME', meaning: 'the user’s home folder, below which harness settings are found (`~/.claude`, `~/.claude.json`, `~/.codex`)' },
  { name: 'CODEX_HOME', meaning: 'Codex’s folder (default `~/.codex`): its hooks, MCP configuration and transcripts' },
  { name: 'CLAUDE_CONFIG_DIR', meaning: 'folder of Claude Code’s `.claude.json`, where `bootstrap` registers the MCP server (default: the home folder)' },
  { name: 'XDG_CONFIG_HOME', meaning: 'where `service install` writes the systemd user unit (default `~/.config`)' },
];
