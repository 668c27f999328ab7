#!/usr/bin/env bash
# Upgrades a Tabletop that install.sh installed, without stopping the table: a database
# dump first, the previous code and venv kept, the new code and its dependencies,
# migrate, collectstatic, then one process restarted at a time (rolling-restart.sh).
# `upgrade.sh --rollback` puts the previous code and venv back.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=docs/deploy/common.sh
. "$HERE/common.sh"

usage() {
    cat <<EOF
Usage: $0 [--repo URL|PATH] [--ref TAG|BRANCH|COMMIT]
       $0 --rollback

Upgrades the Tabletop in /srv/tabletop, as root, with the site up throughout:
  1. pg_dump to /var/backups/tabletop/pre-upgrade-<old version>-<date>.dump
  2. the new code (a clone of the repository at the ref), the previous code kept as
     /srv/tabletop/app.previous and the venv as /srv/tabletop/venv.previous
  3. pip install, migrate, collectstatic, check --deploy
  4. the systemd units and the nginx site as the new release ships them
  5. a rolling restart (one process at a time) and every process's /readyz

  --repo URL|PATH   where the new code comes from (default: where the installed code
                    came from, its git remote 'origin'; when that is a clone on this
                    machine, git pull it first)
  --ref REF         the tag (v0.3.0), branch or commit to install (default: the
                    repository's HEAD)
  --rollback        back to the code and venv the last upgrade replaced (the database
                    is left alone: the message says how to restore the dump)
  --help            this text
EOF
}

MODE=upgrade REPO="" REF=""
while [ "$#" -gt 0 ]; do
    case "$1" in
        --repo) REPO=${2:-}; shift 2 || die "--repo needs a value" ;;
        --ref) REF=${2:-}; shift 2 || die "--ref needs a value" ;;
        --rollback) MODE=rollback; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done
[ "$MODE" = upgrade ] || [ -z "$REPO$REF" ] || die "--rollback takes no --repo or --ref"

require_root_on_debian
if [ ! -d "$APP" ] || [ ! -x "$VENV/bin/python" ] || [ ! -f "$ENV_FILE" ]; then
    die "no Tabletop installed in $SRV (with $ENV_FILE): run install.sh first"
fi
mapfile -t PORTS < <(installed_ports)
[ "${#PORTS[@]}" -gt 0 ] || die "no tabletop@PORT instances in $UNIT_DIR/tabletop.target"
# write_units and nginx_site number the processes from BASE_PORT.
PROCESSES=${#PORTS[@]} BASE_PORT=${PORTS[0]}
DOMAIN=$(setting ALLOWED_HOSTS | cut -d, -f1)

refresh_units_and_site() {
    step "systemd units and the nginx site, as this release ships them"
    write_units
    # A timer new in this release starts now; the others are enabled already (no-op).
    local -a timers
    mapfile -t timers < <(cd "$APP/docs/deploy/systemd" && ls -- *.timer)
    install -d -o postgres -g postgres -m 700 "$BACKUPS"
    run "$SYSTEMCTL" enable --now "${timers[@]}"
    write_nginx_site full
}

restart_one_at_a_time() {
    step "Rolling restart: one process at a time (${PORTS[*]})"
    SYSTEMCTL=$SYSTEMCTL sh "$APP/docs/deploy/rolling-restart.sh" "${PORTS[@]}"
    step "Every process answers /readyz"
    check_ready "${PORTS[@]}"
}

restore_instructions() {
    local database dump
    database=$(setting DATABASE_URL)
    database=${database##*/} database=${database%%\?*}
    dump=$(sed -n 's/^dump=//p' "$LAST_UPGRADE" 2>/dev/null || true)
    cat <<EOF
If a migration of the newer release must be undone too, restore the dump taken before
the upgrade (the table is down meanwhile; moves since the upgrade are lost):
  systemctl stop tabletop.target
  runuser -u postgres -- dropdb $database
  runuser -u postgres -- createdb --owner $DB_USER $database
  runuser -u postgres -- pg_restore --no-owner --role $DB_USER --dbname $database ${dump:-/var/backups/tabletop/pre-upgrade-<version>-<date>.dump}
  systemctl start tabletop.target
EOF
}

rollback() {
    if [ ! -d "$SRV/app.previous" ] || [ ! -d "$SRV/venv.previous" ]; then
        die "nothing to roll back to: no $SRV/app.previous and venv.previous"
    fi
    step "The previous code and venv back: $(version_of "$APP") -> $(version_of "$SRV/app.previous")"
    rm -rf "$SRV/app.rolled-back" "$SRV/venv.rolled-back"
    mv "$APP" "$SRV/app.rolled-back"
    mv "$SRV/app.previous" "$APP"
    mv "$VENV" "$SRV/venv.rolled-back"
    mv "$SRV/venv.previous" "$VENV"
    say "the code rolled back from is in $SRV/app.rolled-back"
    refresh_units_and_site
    restart_one_at_a_time
    printf '\nTabletop %s runs again (the database was not touched).\n' "$(version_of "$APP")"
    restore_instructions
}

failed() {
    cat >&2 <<EOF

The upgrade stopped (see the error above). The previous code and venv are kept as
$SRV/app.previous and venv.previous; the running processes still serve the site.
To go back: $0 --rollback
EOF
}

upgrade() {
    local old_version old_id source database dump new_id
    old_version=$(version_of "$APP")
    old_id=$(code_id "$APP")
    if [ -n "$REPO" ]; then
        source=$REPO
    else
        source=$(git_in "$APP" remote get-url origin 2>/dev/null) ||
            die "$APP is not a clone of a repository: say where the new code is (--repo)"
    fi
    printf 'Upgrading Tabletop %s (%s) from %s%s\n' "$old_version" "$old_id" "$source" \
        "${REF:+ at $REF}"

    step "Backup first: pg_dump to $BACKUPS"
    database=$(setting DATABASE_URL)
    database=${database##*/} database=${database%%\?*}
    install -d -o postgres -g postgres -m 700 "$BACKUPS"
    dump=$BACKUPS/pre-upgrade-$old_version-$(date -u +%Y%m%d-%H%M%S).dump
    run "$PG_DUMP" --format=custom --file="$dump" "$database"
    say "$dump ($(du -h "$dump" | cut -f1))"

    step "The new code"
    fetch_code "$source" "$REF" "$SRV/app.new"
    new_id=$(code_id "$SRV/app.new")
    if [ "$new_id" = "$old_id" ]; then
        rm -rf "$SRV/app.new"
        printf '\nTabletop %s (%s) is installed already: nothing to do.\n' "$old_version" "$old_id"
        return
    fi
    say "version $(version_of "$SRV/app.new") ($new_id)"

    step "The previous code and venv kept: $SRV/app.previous, venv.previous"
    trap '[ "$?" = 0 ] || failed' EXIT
    rm -rf "$SRV/app.previous" "$SRV/venv.previous"
    cp -a "$VENV" "$SRV/venv.previous"
    # The running processes keep their working directory, now app.previous.
    mv "$APP" "$SRV/app.previous"
    mv "$SRV/app.new" "$APP"
    printf 'previous=%s\ndump=%s\n' "$old_version" "$dump" >"$LAST_UPGRADE"

    step "pip install into $VENV"
    install_code_into_venv

    step "migrate, collectstatic, check --deploy"
    run_django_commands

    refresh_units_and_site
    restart_one_at_a_time
    trap - EXIT

    cat <<EOF

Tabletop $(version_of "$APP") runs: https://$DOMAIN/  (was $old_version)

To roll back the code:  $0 --rollback
  (puts $SRV/app.previous and venv.previous back and restarts one process at a time)
EOF
    restore_instructions
}

"$MODE"
