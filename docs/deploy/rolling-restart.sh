#!/bin/sh
# Restarts the Tabletop processes one at a time, each only once the previous one
# answers /readyz, so that the table is always served. Run after a deploy's migrate
# and collectstatic (docs/deploy/README.md, "Deploying a new version").
#   sudo docs/deploy/rolling-restart.sh 8001 8002
# upgrade.sh runs it; SYSTEMCTL and FAIL_TIMEOUT replace systemctl and the 5 s (tests).
set -eu
[ "$#" -gt 0 ] || set -- 8001 8002
for port in "$@"; do
    echo "restarting tabletop@$port"
    # shellcheck disable=SC2086 # SYSTEMCTL may be a command with arguments
    ${SYSTEMCTL:-systemctl} restart "tabletop@$port"
    tries=0
    until curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
        tries=$((tries + 1))
        if [ "$tries" -ge 180 ]; then
            echo "tabletop@$port is not ready after 90 s: stopping here" >&2
            exit 1
        fi
        sleep 0.5
    done
    echo "tabletop@$port is ready"
    # nginx leaves a process that refused a connection alone for its fail_timeout
    # (5 s in nginx.conf): wait that long, so the next restart has somewhere to go.
    sleep "${FAIL_TIMEOUT:-5}"
done
