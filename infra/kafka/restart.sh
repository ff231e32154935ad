#!/usr/bin/env bash
# Stops the broker and starts it again on the same data dir (topics, offsets and committed
# consumer-group positions survive). Takes start.sh's arguments; prints what start.sh prints.
#
#   bash infra/kafka/restart.sh [--port 9092]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/stop.sh"
exec bash "$here/start.sh" "$@"
