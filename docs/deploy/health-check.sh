#!/bin/sh
# Polls each Tabletop process, as tabletop-health.timer does every minute:
# - /healthz must answer within HEALTH_TIMEOUT (5 s), twice in a row, or the process is
#   restarted: it is hung (its event loop blocked), and systemd only sees it as alive.
# - /readyz failing is reported, not mended: the database or Redis is down, and a
#   restart would not help (the process recovers by itself once they are back).
# Either makes the run fail (exit 1): `systemctl --failed` and the journal show it.
#   docs/deploy/health-check.sh 8001 8002
# SYSTEMCTL, HEALTH_TIMEOUT and HEALTH_RETRY_S replace systemctl, 5 and 5 (tests).
set -u
[ "$#" -gt 0 ] || set -- 8001 8002
timeout="${HEALTH_TIMEOUT:-5}"
failed=0

answers() {
    curl -fsS --max-time "$timeout" "http://127.0.0.1:$1/healthz" >/dev/null 2>&1
}

for port in "$@"; do
    if ! answers "$port"; then
        sleep "${HEALTH_RETRY_S:-5}"
        if ! answers "$port"; then
            echo "tabletop@$port: /healthz did not answer within $timeout s twice: restarting it" >&2
            # shellcheck disable=SC2086 # SYSTEMCTL may be a command with arguments
            ${SYSTEMCTL:-systemctl} restart "tabletop@$port"
            failed=1
            continue
        fi
    fi
    report=$(curl -sS --max-time "$timeout" -w ' (HTTP %{http_code})' \
        "http://127.0.0.1:$port/readyz" 2>&1)
    case "$report" in
        *"(HTTP 200)") ;;
        *)
            echo "tabletop@$port is not ready: $report" >&2
            failed=1
            ;;
    esac
done
exit "$failed"
