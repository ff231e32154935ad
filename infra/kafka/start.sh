#!/usr/bin/env bash
# Starts Apache Kafka (KRaft, 127.0.0.1 only) without Docker, in the background: a single broker,
# or a cluster of N nodes, and prints KAFKA_BROKERS=<host:port,…> once every broker answers
# metadata requests.
#
#   bash infra/kafka/start.sh [--port 9092]                 one broker (replication factor 1)
#   bash infra/kafka/start.sh --brokers 3 [--port 19092]    a cluster: node i listens on
#                                                           port + 2(i-1), its controller on the next port
#
# Every node of a cluster runs broker and controller in one JVM (combined mode), so three JVMs
# give a quorum of three voters and three brokers; topics default to replication factor 3 and
# min.insync.replicas 2 there (1 and 1 on a single broker).
#
# Idempotent: exits 0 at once when every broker already answers; on a cluster it starts only the
# nodes that are down (restart.sh --broker N relies on it). The first run resolves the broker's
# jars with Maven into <cache>/libs and formats the data dirs; later runs reuse both (a data dir
# holding meta.properties is never re-formatted).
#
# Environment: BRAINSTREAM_KAFKA_CACHE (jar cache, default infra/kafka/.cache),
# BRAINSTREAM_KAFKA_DATA (data dir, default infra/kafka/.data, or infra/kafka/.data-cluster with
# one node-<id> folder per node), BRAINSTREAM_KAFKA_CONTROLLER_PORT (single broker; default:
# port + 1), BRAINSTREAM_KAFKA_START_TIMEOUT (seconds, default 60; 120 for a cluster),
# BRAINSTREAM_KAFKA_HEAP (per node, default 512m), JAVA_HOME (Java 17+; else `java` on PATH).
set -euo pipefail
SCRIPT_NAME=start.sh

usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; }

PORT=""
NODES=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --port) [[ $# -ge 2 ]] || { echo "kafka/start.sh: --port needs a value" >&2; exit 2; }; PORT="$2"; shift 2 ;;
    --port=*) PORT="${1#--port=}"; shift ;;
    --brokers) [[ $# -ge 2 ]] || { echo "kafka/start.sh: --brokers needs a value" >&2; exit 2; }; NODES="$2"; shift 2 ;;
    --brokers=*) NODES="${1#--brokers=}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "kafka/start.sh: unknown argument: $1 (try --help)" >&2; exit 2 ;;
  esac
done

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[[ "$NODES" =~ ^[0-9]+$ ]] && (( NODES >= 1 && NODES <= 9 )) || kafka_die "bad --brokers: $NODES (1 to 9)"
if (( NODES > 1 )); then PORT="${PORT:-19092}"; else PORT="${PORT:-9092}"; fi
if ! [[ "$PORT" =~ ^[0-9]+$ ]] || (( PORT < 1 || PORT + 2 * NODES > 65535 )); then kafka_die "bad port: $PORT"; fi
DEFAULT_TIMEOUT=60
(( NODES > 1 )) && DEFAULT_TIMEOUT=120
TIMEOUT="${BRAINSTREAM_KAFKA_START_TIMEOUT:-$DEFAULT_TIMEOUT}"
if ! [[ "$TIMEOUT" =~ ^[0-9]+$ ]] || (( TIMEOUT < 1 )); then kafka_die "bad BRAINSTREAM_KAFKA_START_TIMEOUT: $TIMEOUT"; fi
HEAP="${BRAINSTREAM_KAFKA_HEAP:-512m}"
ROOT="$(kafka_data_root "$NODES")"

# Ports of node $1 (1-based): client and controller.
client_port() { echo $((PORT + 2 * ($1 - 1))); }
controller_port() {
  if (( NODES == 1 )); then echo "${BRAINSTREAM_KAFKA_CONTROLLER_PORT:-$((PORT + 1))}"; else echo $((PORT + 2 * ($1 - 1) + 1)); fi
}
node_dir() { if (( NODES == 1 )); then echo "$ROOT"; else kafka_abs_dir "$ROOT/node-$1"; fi; }

BROKERS=""
VOTERS=""
for ((i = 1; i <= NODES; i++)); do
  BROKERS+="${BROKERS:+,}127.0.0.1:$(client_port "$i")"
  VOTERS+="${VOTERS:+,}$i@127.0.0.1:$(controller_port "$i")"
done
CONTROLLER_PORT="$(controller_port 1)"
if ! [[ "$CONTROLLER_PORT" =~ ^[0-9]+$ ]] || (( CONTROLLER_PORT < 1 || CONTROLLER_PORT > 65535 || CONTROLLER_PORT == PORT )); then
  kafka_die "bad controller port: $CONTROLLER_PORT"
fi

command -v node >/dev/null || kafka_die "node is not on PATH (needed to check that the broker answers)"
(cd "$REPO_ROOT" && node -e 'require.resolve("kafkajs")') >/dev/null 2>&1 \
  || kafka_die "kafkajs is not installed (needed to check that the broker answers): run npm ci in $REPO_ROOT"

# Waits (at most $1 seconds) until every broker answers a metadata request and sees the others.
brokers_ready() {
  (cd "$REPO_ROOT" && node "$KAFKA_DIR/wait-ready.mjs" --brokers "$BROKERS" --expect-brokers "$NODES" --timeout "$1")
}

succeed() {
  echo "KAFKA_BROKERS=$BROKERS"
  exit 0
}

# One start at a time per data dir (a second caller waits, then finds the brokers up).
if command -v flock >/dev/null; then
  exec 9>"$ROOT/.start.lock"
  flock -w $((TIMEOUT + 120)) 9 || kafka_die "another start.sh holds $ROOT/.start.lock"
fi

# ---- The layout this data dir was formatted for ------------------------------------------
# The voters' controller endpoints are written into the metadata log at format time, so a
# formatted data dir serves one set of ports (and, for a cluster, one number of nodes).
if (( NODES > 1 )); then
  CLUSTER_FILE="$(kafka_cluster_file "$ROOT")"
  if [[ -f "$CLUSTER_FILE" ]]; then
    formatted_for="$(<"$CLUSTER_FILE")"
    [[ "$formatted_for" == "$NODES $PORT" ]] || kafka_die "$ROOT belongs to a cluster of '$formatted_for' (nodes, first port)," \
      "not '$NODES $PORT': use those or another BRAINSTREAM_KAFKA_DATA"
  fi
fi
for ((i = 1; i <= NODES; i++)); do
  kafka_node_paths "$(node_dir "$i")"
  if [[ -f "$PORTS_FILE" && -f "$LOG_DIR/meta.properties" ]]; then
    formatted_for="$(<"$PORTS_FILE")"
    expected="$(client_port "$i") $(controller_port "$i")"
    [[ "$formatted_for" == "$expected" ]] || kafka_die "$DATA_DIR belongs to ports" \
      "'$formatted_for' (client, controller), not '$expected': use those or another BRAINSTREAM_KAFKA_DATA"
  fi
done

# ---- Already running? --------------------------------------------------------------------
# Nodes to launch: those whose own broker is not running. A port taken by something else is an error.
TO_LAUNCH=()
declare -A NODE_PID=()
for ((i = 1; i <= NODES; i++)); do
  kafka_node_paths "$(node_dir "$i")"
  pid="$(kafka_running_pid)"
  if [[ -n "$pid" ]]; then
    NODE_PID[$i]="$pid"
    continue
  fi
  if kafka_port_open "$(client_port "$i")"; then
    if (( NODES == 1 )); then
      # A broker of another data dir (or started by hand) already serves this port: use it.
      BROKERS="127.0.0.1:$PORT" brokers_ready 5 2>/dev/null && succeed
    fi
    kafka_die "127.0.0.1:$(client_port "$i") is in use by something that is not node $i of this data dir; free it or use --port"
  fi
  kafka_port_open "$(controller_port "$i")" && kafka_die "controller port 127.0.0.1:$(controller_port "$i") is in use; free it or use --port"
  TO_LAUNCH+=("$i")
done
if (( ${#TO_LAUNCH[@]} == 0 )); then
  brokers_ready "$TIMEOUT" 2>/dev/null && succeed
  for ((i = 1; i <= NODES; i++)); do kafka_node_paths "$(node_dir "$i")"; kafka_log_tail 20; done
  kafka_die "the broker(s) run but do not answer on $BROKERS; try infra/kafka/restart.sh"
fi

# ---- Java ----------------------------------------------------------------------------------
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
command -v "$JAVA" >/dev/null || kafka_die "java not found (install Java 17+ or set JAVA_HOME)"
JAVA_MAJOR="$("$JAVA" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p' | head -n 1)"
[[ -n "$JAVA_MAJOR" && "$JAVA_MAJOR" -ge 17 ]] || kafka_die "Java 17+ needed, found: $("$JAVA" -version 2>&1 | head -n 1)"

# ---- Jars: resolved once per pom.xml content -----------------------------------------------
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

# ---- One cluster id for every node, chosen when the first node is formatted ------------------
CLUSTER_ID=""
for ((i = 1; i <= NODES; i++)); do
  meta="$(node_dir "$i")/kraft-logs/meta.properties"
  [[ -f "$meta" ]] && CLUSTER_ID="$(sed -n 's/^cluster.id=//p' "$meta" | head -n 1)" && break
done
while [[ -z "$CLUSTER_ID" || "$CLUSTER_ID" == -* ]]; do
  # 16 random bytes in URL-safe base64 without padding (what `StorageTool random-uuid` prints);
  # Kafka avoids ids that start with '-'.
  CLUSTER_ID="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
done

# Renders node $1's server.properties, formats its data dir the first time, and launches it.
launch_node() {
  local id="$1" quorum rf=1 isr=1 props
  kafka_node_paths "$(node_dir "$id")"
  mkdir -p "$LOG_DIR" "$BROKER_LOGS"
  if (( NODES == 1 )); then
    # Dynamic quorum of one voter: the dir is formatted with `StorageTool format --standalone`.
    quorum="controller.quorum.bootstrap.servers=127.0.0.1:$(controller_port 1)"
  else
    # Static quorum: every node knows every voter from the start.
    quorum="controller.quorum.voters=$VOTERS"
    rf=$(( NODES >= 3 ? 3 : NODES ))
    isr=$(( rf >= 3 ? 2 : 1 ))
  fi
  props="$(<"$KAFKA_DIR/server.properties.template")"
  props="${props//@NODE_ID@/$id}"
  props="${props//@QUORUM@/$quorum}"
  props="${props//@PORT@/$(client_port "$id")}"
  props="${props//@CONTROLLER_PORT@/$(controller_port "$id")}"
  props="${props//@LOG_DIR@/$LOG_DIR}"
  props="${props//@RF@/$rf}"
  props="${props//@MIN_ISR@/$isr}"
  printf '%s\n' "$props" >"$PROPS_FILE.tmp"
  mv "$PROPS_FILE.tmp" "$PROPS_FILE"

  if [[ ! -f "$LOG_DIR/meta.properties" ]]; then
    kafka_note "formatting $LOG_DIR (first run only)"
    local standalone=()
    (( NODES == 1 )) && standalone=(--standalone)
    if ! "$JAVA" -Xmx256m -Dlog4j2.configurationFile="$KAFKA_DIR/log4j2.xml" -Dkafka.logs.dir="$BROKER_LOGS" \
        -cp "$CLASSPATH_GLOB" kafka.tools.StorageTool format "${standalone[@]}" -t "$CLUSTER_ID" -c "$PROPS_FILE" \
        >"$BROKER_LOGS/format.out" 2>&1; then
      cat "$BROKER_LOGS/format.out" >&2
      kafka_die "formatting $LOG_DIR failed"
    fi
    echo "$(client_port "$id") $(controller_port "$id")" >"$PORTS_FILE"
  fi

  # setsid: own session, so a Ctrl-C or hang-up in the caller's terminal does not reach it;
  # every stream goes to files so callers piping this script's output are not held open.
  LOG_OFFSET[$id]="$(kafka_file_size "$BROKER_LOGS/server.log")"
  local setsid=""
  command -v setsid >/dev/null && setsid=setsid
  $setsid nohup "$JAVA" "-Xmx$HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$KAFKA_DIR/log4j2.xml" -Dkafka.logs.dir="$BROKER_LOGS" \
    -cp "$CLASSPATH_GLOB" kafka.Kafka "$PROPS_FILE" \
    >"$BROKER_LOGS/kafka.out" 2>&1 </dev/null 9>&- &
  NODE_PID[$id]=$!
  echo "${NODE_PID[$id]}" >"$PID_FILE"
}

declare -A LOG_OFFSET=()
for id in "${TO_LAUNCH[@]}"; do launch_node "$id"; done
(( NODES > 1 )) && echo "$NODES $PORT" >"$(kafka_cluster_file "$ROOT")"

# ---- Wait until every broker answers -----------------------------------------------------------
fail_start() {
  for id in "${TO_LAUNCH[@]}"; do
    kafka_node_paths "$(node_dir "$id")"
    (( NODES > 1 )) && echo "==== node $id ====" >&2
    kafka_log_tail 40 "${LOG_OFFSET[$id]:-0}"
  done
  # Stop only the nodes this run launched; those that were already there are left as they are.
  for id in "${TO_LAUNCH[@]}"; do
    if kill -0 "${NODE_PID[$id]}" 2>/dev/null; then
      if (( NODES == 1 )); then bash "$KAFKA_DIR/stop.sh" >/dev/null 2>&1 || true
      else bash "$KAFKA_DIR/stop.sh" --broker "$id" >/dev/null 2>&1 || true; fi
    fi
  done
  kafka_die "$1"
}

deadline=$((SECONDS + TIMEOUT))
for id in "${TO_LAUNCH[@]}"; do
  until kafka_port_open "$(client_port "$id")"; do
    kill -0 "${NODE_PID[$id]}" 2>/dev/null || fail_start "node $id exited during start-up (logs in $(node_dir "$id")/logs)"
    (( SECONDS < deadline )) || fail_start "node $id did not open 127.0.0.1:$(client_port "$id") within ${TIMEOUT}s"
    sleep 0.2
  done
done
remaining=$((deadline - SECONDS))
(( remaining > 0 )) || remaining=1
if ! brokers_ready "$remaining"; then
  fail_start "the brokers listen on $BROKERS but did not all answer a metadata request within ${TIMEOUT}s"
fi
succeed
