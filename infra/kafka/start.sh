#!/usr/bin/env bash
# Starts a single-node Apache Kafka broker (KRaft, 127.0.0.1 only) without Docker, in the
# background, and prints KAFKA_BROKERS=127.0.0.1:<port> once it answers metadata requests.
#
#   bash infra/kafka/start.sh [--port 9092]
#
# Idempotent: exits 0 at once when a broker already answers on the port. The first run
# resolves the broker's jars with Maven into <cache>/libs and formats the data dir; later
# runs reuse both (a data dir holding meta.properties is never re-formatted).
#
# Environment: BRAINSTREAM_KAFKA_CACHE (jar cache, default infra/kafka/.cache),
# BRAINSTREAM_KAFKA_DATA (data dir, default infra/kafka/.data),
# BRAINSTREAM_KAFKA_CONTROLLER_PORT (default: port + 1),
# BRAINSTREAM_KAFKA_START_TIMEOUT (seconds, default 60), BRAINSTREAM_KAFKA_HEAP (default 512m),
# JAVA_HOME (Java 17+; else `java` on PATH).
set -euo pipefail
SCRIPT_NAME=start.sh

usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; }

PORT=9092
while [[ $# -gt 0 ]]; do
  case "$1" in
    --port) [[ $# -ge 2 ]] || { echo "kafka/start.sh: --port needs a value" >&2; exit 2; }; PORT="$2"; shift 2 ;;
    --port=*) PORT="${1#--port=}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "kafka/start.sh: unknown argument: $1 (try --help)" >&2; exit 2 ;;
  esac
done

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if ! [[ "$PORT" =~ ^[0-9]+$ ]] || (( PORT < 1 || PORT > 65534 )); then kafka_die "bad port: $PORT"; fi
CONTROLLER_PORT="${BRAINSTREAM_KAFKA_CONTROLLER_PORT:-$((PORT + 1))}"
if ! [[ "$CONTROLLER_PORT" =~ ^[0-9]+$ ]] || (( CONTROLLER_PORT < 1 || CONTROLLER_PORT > 65535 || CONTROLLER_PORT == PORT )); then
  kafka_die "bad controller port: $CONTROLLER_PORT"
fi
TIMEOUT="${BRAINSTREAM_KAFKA_START_TIMEOUT:-60}"
if ! [[ "$TIMEOUT" =~ ^[0-9]+$ ]] || (( TIMEOUT < 1 )); then kafka_die "bad BRAINSTREAM_KAFKA_START_TIMEOUT: $TIMEOUT"; fi
HEAP="${BRAINSTREAM_KAFKA_HEAP:-512m}"
BROKERS="127.0.0.1:$PORT"

command -v node >/dev/null || kafka_die "node is not on PATH (needed to check that the broker answers)"
(cd "$REPO_ROOT" && node -e 'require.resolve("kafkajs")') >/dev/null 2>&1 \
  || kafka_die "kafkajs is not installed (needed to check that the broker answers): run npm ci in $REPO_ROOT"

# Waits (at most $1 seconds) until the broker answers a metadata request.
broker_ready() {
  (cd "$REPO_ROOT" && node "$KAFKA_DIR/wait-ready.mjs" --brokers "$BROKERS" --timeout "$1")
}

succeed() {
  echo "KAFKA_BROKERS=$BROKERS"
  exit 0
}

# One start at a time per data dir (a second caller waits, then finds the broker up).
if command -v flock >/dev/null; then
  exec 9>"$DATA_DIR/.start.lock"
  flock -w $((TIMEOUT + 120)) 9 || kafka_die "another start.sh holds $DATA_DIR/.start.lock"
fi

# ---- Ports this data dir belongs to -----------------------------------------------------
# The single voter's controller endpoint is written into the metadata log at format time,
# so a formatted data dir serves one pair of ports.
if [[ -f "$PORTS_FILE" && -f "$LOG_DIR/meta.properties" ]]; then
  formatted_for="$(<"$PORTS_FILE")"
  [[ "$formatted_for" == "$PORT $CONTROLLER_PORT" ]] || kafka_die "$DATA_DIR belongs to ports" \
    "'$formatted_for' (client, controller), not '$PORT $CONTROLLER_PORT': use those or another BRAINSTREAM_KAFKA_DATA"
fi

# ---- Already running? --------------------------------------------------------------------
LAUNCHED=0
LOG_OFFSET=0
EXISTING_PID="$(kafka_running_pid)"
if kafka_port_open "$PORT"; then
  if [[ -n "$EXISTING_PID" ]]; then
    broker_ready "$TIMEOUT" 2>/dev/null && succeed
    kafka_log_tail
    kafka_die "broker (pid $EXISTING_PID) listens on $BROKERS but does not answer; try infra/kafka/restart.sh"
  fi
  broker_ready 5 2>/dev/null && succeed
  kafka_die "127.0.0.1:$PORT is in use by something that is not an answering Kafka broker; free it or use --port"
fi
if [[ -n "$EXISTING_PID" ]]; then
  # Our broker is alive but not listening yet (still starting) or hung: wait for it below.
  BROKER_PID="$EXISTING_PID"
else
  if kafka_port_open "$CONTROLLER_PORT"; then
    kafka_die "controller port 127.0.0.1:$CONTROLLER_PORT is in use; set BRAINSTREAM_KAFKA_CONTROLLER_PORT"
  fi

  # ---- Java ------------------------------------------------------------------------------
  JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
  command -v "$JAVA" >/dev/null || kafka_die "java not found (install Java 17+ or set JAVA_HOME)"
  JAVA_MAJOR="$("$JAVA" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p' | head -n 1)"
  [[ -n "$JAVA_MAJOR" && "$JAVA_MAJOR" -ge 17 ]] || kafka_die "Java 17+ needed, found: $("$JAVA" -version 2>&1 | head -n 1)"

  # ---- Jars: resolved once per pom.xml content -------------------------------------------
  STAMP="$(kafka_sha256 "$KAFKA_DIR/pom.xml")"
  if [[ ! -f "$LIBS_DIR/.resolved" || "$(<"$LIBS_DIR/.resolved")" != "$STAMP" ]]; then
    command -v mvn >/dev/null || kafka_die "mvn not found: Maven is needed once to fetch the broker jars"
    kafka_note "resolving broker jars into $LIBS_DIR (first run only)"
    rm -rf "$LIBS_DIR.tmp"
    if ! mvn -q -B -f "$KAFKA_DIR/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
        -DoutputDirectory="$LIBS_DIR.tmp" >"$CACHE_DIR/mvn.log" 2>&1; then
      tail -n 40 "$CACHE_DIR/mvn.log" >&2
      kafka_die "Maven could not resolve the broker jars (full output: $CACHE_DIR/mvn.log)"
    fi
    ls "$LIBS_DIR.tmp"/kafka_2.13-*.jar >/dev/null 2>&1 || kafka_die "Maven ran but no kafka_2.13 jar was copied"
    rm -rf "$LIBS_DIR"
    mv "$LIBS_DIR.tmp" "$LIBS_DIR"
    echo "$STAMP" >"$LIBS_DIR/.resolved"
  fi
  CLASSPATH_GLOB="$LIBS_DIR/*"

  # ---- server.properties (rendered on every start) ---------------------------------------
  mkdir -p "$LOG_DIR" "$BROKER_LOGS"
  props="$(<"$KAFKA_DIR/server.properties.template")"
  props="${props//@PORT@/$PORT}"
  props="${props//@CONTROLLER_PORT@/$CONTROLLER_PORT}"
  props="${props//@LOG_DIR@/$LOG_DIR}"
  printf '%s\n' "$props" >"$PROPS_FILE.tmp"
  mv "$PROPS_FILE.tmp" "$PROPS_FILE"

  # ---- Format once -----------------------------------------------------------------------
  if [[ ! -f "$LOG_DIR/meta.properties" ]]; then
    kafka_note "formatting $LOG_DIR (first run only)"
    # A cluster id is 16 random bytes in URL-safe base64 without padding (what
    # `StorageTool random-uuid` prints); Kafka avoids ids that start with '-'.
    CLUSTER_ID="-"
    while [[ "$CLUSTER_ID" == -* ]]; do
      CLUSTER_ID="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
    done
    if ! "$JAVA" -Xmx256m -Dlog4j2.configurationFile="$KAFKA_DIR/log4j2.xml" -Dkafka.logs.dir="$BROKER_LOGS" \
        -cp "$CLASSPATH_GLOB" kafka.tools.StorageTool format --standalone -t "$CLUSTER_ID" -c "$PROPS_FILE" \
        >"$BROKER_LOGS/format.out" 2>&1; then
      cat "$BROKER_LOGS/format.out" >&2
      kafka_die "formatting $LOG_DIR failed"
    fi
    echo "$PORT $CONTROLLER_PORT" >"$PORTS_FILE"
  fi

  # ---- Launch ----------------------------------------------------------------------------
  # setsid: own session, so a Ctrl-C or hang-up in the caller's terminal does not reach it;
  # every stream goes to files so callers piping this script's output are not held open.
  LOG_OFFSET="$(kafka_file_size "$BROKER_LOGS/server.log")"
  LAUNCHED=1
  SETSID=""
  command -v setsid >/dev/null && SETSID=setsid
  $SETSID nohup "$JAVA" "-Xmx$HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$KAFKA_DIR/log4j2.xml" -Dkafka.logs.dir="$BROKER_LOGS" \
    -cp "$CLASSPATH_GLOB" kafka.Kafka "$PROPS_FILE" \
    >"$BROKER_LOGS/kafka.out" 2>&1 </dev/null 9>&- &
  BROKER_PID=$!
  echo "$BROKER_PID" >"$PID_FILE"
fi

# ---- Wait until it answers -----------------------------------------------------------------
fail_start() {
  kafka_log_tail 40 "$LOG_OFFSET"
  # Stop only a broker this run launched; one that was already there is left as it is.
  if (( LAUNCHED )) && kill -0 "$BROKER_PID" 2>/dev/null; then
    bash "$KAFKA_DIR/stop.sh" >/dev/null 2>&1 || true
  fi
  kafka_die "$1"
}

deadline=$((SECONDS + TIMEOUT))
until kafka_port_open "$PORT"; do
  kill -0 "$BROKER_PID" 2>/dev/null || fail_start "the broker exited during start-up (logs in $BROKER_LOGS)"
  (( SECONDS < deadline )) || fail_start "the broker did not open $BROKERS within ${TIMEOUT}s"
  sleep 0.2
done
remaining=$((deadline - SECONDS))
(( remaining > 0 )) || remaining=1
if ! broker_ready "$remaining"; then
  fail_start "the broker listens on $BROKERS but did not answer a metadata request within ${TIMEOUT}s"
fi
succeed
