# shellcheck shell=bash disable=SC2034 # the variables are the sourcing scripts'
# What install.sh and upgrade.sh share: where things go, the commands they run, and the
# steps both take (the code, the virtual environment, Django's commands, the systemd
# units, the nginx site). Sourced, never run.
#
# Every path written is under TABLETOP_ROOT (empty: the machine itself), and the
# commands that reach the system's services can be replaced, so that
# tests/deploy/test_installer.py runs both scripts for real in a temporary root:
#   SYSTEMCTL, CERTBOT, APT_GET      systemd, Let's Encrypt and apt
#   PSQL, PG_DUMP                    PostgreSQL's administrator (peer authentication)
#   NGINX_CMD                        `nginx` for `nginx -t` (a test adds -p/-c)
#   REDIS_CONF                       Debian's /etc/redis/redis.conf
#   TABLETOP_USER, BASE_PORT, DB_NAME, DB_USER, REDIS_DB, PYTHON, OS_RELEASE

# A command that fails inside $(...) stops the script too, as set -e does outside.
shopt -s inherit_errexit

TABLETOP_ROOT=${TABLETOP_ROOT:-}
TABLETOP_USER=${TABLETOP_USER:-tabletop}
SYSTEMCTL=${SYSTEMCTL:-systemctl}
CERTBOT=${CERTBOT:-certbot}
APT_GET=${APT_GET:-apt-get}
PSQL=${PSQL:-runuser -u postgres -- psql}
PG_DUMP=${PG_DUMP:-runuser -u postgres -- pg_dump}
NGINX_CMD=${NGINX_CMD:-nginx}
PYTHON=${PYTHON:-python3}
OS_RELEASE=${OS_RELEASE:-/etc/os-release}
BASE_PORT=${BASE_PORT:-8001}
DB_NAME=${DB_NAME:-tabletop}
DB_USER=${DB_USER:-tabletop}
REDIS_DB=${REDIS_DB:-0}
REDIS_CONF=${REDIS_CONF:-$TABLETOP_ROOT/etc/redis/redis.conf}

SRV=$TABLETOP_ROOT/srv/tabletop
APP=$SRV/app
VENV=$SRV/venv
STATIC_ROOT=$SRV/staticfiles
ENV_DIR=$TABLETOP_ROOT/etc/tabletop
ENV_FILE=$ENV_DIR/tabletop.env
BACKUPS=$TABLETOP_ROOT/var/backups/tabletop
UNIT_DIR=$TABLETOP_ROOT/etc/systemd/system
NGINX_DIR=$TABLETOP_ROOT/etc/nginx
ACME_WEBROOT=$TABLETOP_ROOT/var/www/html
LETSENCRYPT=$TABLETOP_ROOT/etc/letsencrypt
#: What pip last installed into the venv: the code's commit (a re-run skips pip).
INSTALLED_STAMP=$VENV/.tabletop-installed
#: What collectstatic last collected: the code's commit (a re-run skips it).
COLLECTED_STAMP=$STATIC_ROOT/.tabletop-collected
#: What the last upgrade kept, for --rollback: the previous version and the dump.
LAST_UPGRADE=$SRV/last-upgrade

STEP=0
step() {
    STEP=$((STEP + 1))
    printf '\n==> %s. %s   [%s s]\n' "$STEP" "$*" "$SECONDS"
}
say() { printf '    %s\n' "$*"; }
die() {
    printf '\nerror: %s\n' "$*" >&2
    exit 1
}

# Runs one of the replaceable commands above: `run "$SYSTEMCTL" daemon-reload`.
run() {
    local -a command
    read -r -a command <<<"$1"
    shift
    "${command[@]}" "$@"
}

# A variable's value in a file of NAME=value lines, as a shell reads it.
value_in() {
    # shellcheck source=/dev/null
    (set -a && . "$1" && printf '%s' "${!2:-}")
}

# A setting of the environment file.
setting() { value_in "$ENV_FILE" "$1"; }

# A password as it goes into a URL, percent-encoded, and back: one an admin chose (in
# redis.conf, say) may hold @ : / # or %, which would end the URL's user part early.
url_quote() {
    "$PYTHON" -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"
}
url_unquote() {
    "$PYTHON" -c 'import sys, urllib.parse; print(urllib.parse.unquote(sys.argv[1]))' "$1"
}

require_root_on_debian() {
    [ "$(id -u)" = 0 ] || die "run this as root (it installs packages, writes /etc and /srv)"
    [ -r "$OS_RELEASE" ] || die "cannot read $OS_RELEASE: this is for Debian 12 or 13"
    local id version
    id=$(value_in "$OS_RELEASE" ID)
    version=$(value_in "$OS_RELEASE" VERSION_ID)
    case "$id $version" in
        "debian 12" | "debian 13") ;;
        *) die "this is for Debian 12 or 13; this machine is '$id $version' ($OS_RELEASE)" ;;
    esac
}

# The directory of a checkout, when `git` may work in it as root (it belongs to the
# app's user, and git refuses other users' repositories unless told they are safe).
git_in() {
    local directory=$1
    shift
    git -c safe.directory="$directory" -C "$directory" "$@"
}

is_git_checkout() { git_in "$1" rev-parse --git-dir >/dev/null 2>&1; }

# The version in a checkout's pyproject.toml ("0.2.0"), or "unknown".
version_of() {
    sed -n 's/^version = "\(.*\)"$/\1/p' "$1/pyproject.toml" 2>/dev/null | head -n 1 | grep . ||
        echo unknown
}

# Puts the code from SOURCE (a git URL, a git checkout, or a plain directory such as an
# unpacked release) at REF (a tag, branch or commit; empty: the source's HEAD) into DEST.
fetch_code() {
    local source=$1 ref=$2 dest=$3
    rm -rf "$dest"
    if [ -d "$source" ] && ! is_git_checkout "$source"; then
        [ -z "$ref" ] || die "--ref needs a git repository; $source is a plain directory"
        say "copying $source (not a git checkout) to $dest"
        install -d "$dest"
        tar -C "$source" --exclude=./.venv --exclude=__pycache__ --exclude=./db.sqlite3 \
            --exclude=./staticfiles -cf - . | tar -C "$dest" -xf -
    else
        if [ -z "$ref" ]; then
            ref=$(git -c safe.directory='*' ls-remote "$source" HEAD | awk '$2 == "HEAD" { print $1 }')
            [ -n "$ref" ] || die "cannot read HEAD of $source"
        fi
        say "cloning $source at $ref to $dest"
        git -c safe.directory='*' clone --quiet --no-hardlinks "$source" "$dest"
        git_in "$dest" -c advice.detachedHead=false checkout --quiet "$ref" ||
            die "$source has no $ref"
        if [ -d "$source" ] && [ -n "$(git_in "$source" status --porcelain --untracked-files=no)" ]; then
            say "note: $source has uncommitted changes; they are not installed (committed code only)"
        fi
    fi
    chown -R "$TABLETOP_USER:" "$dest"
}

# The code's identity: its commit, or (a plain copy) a hash of its files.
code_id() {
    if is_git_checkout "$1"; then
        git_in "$1" rev-parse HEAD
    else
        (cd "$1" && find . -type f ! -path './*.egg-info/*' ! -path './build/*' -print0 |
            sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
    fi
}

home_of() { getent passwd "$1" | cut -d: -f6; }

# Runs a command as the app's user, in the app, with the processes' environment and
# nothing else (as systemd starts them: `set -a; . tabletop.env` is what section 5 of
# docs/deploy/README.md does by hand).
as_app() {
    # shellcheck disable=SC2016 # expanded by that sh
    runuser -u "$TABLETOP_USER" -- env -i -C "$APP" PATH=/usr/local/bin:/usr/bin:/bin \
        HOME="$(home_of "$TABLETOP_USER")" LANG=C.UTF-8 \
        sh -c 'set -a; . "$1"; set +a; shift; exec "$@"' sh "$ENV_FILE" "$@"
}

manage() { as_app "$VENV/bin/python" manage.py "$@"; }

# pip installs the code into the venv, unless this very code is installed already.
install_code_into_venv() {
    local id
    id=$(code_id "$APP")
    if [ -x "$VENV/bin/python" ] && [ "$(cat "$INSTALLED_STAMP" 2>/dev/null)" = "$id" ]; then
        say "$VENV already has this code ($id)"
        return
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        say "creating $VENV"
        runuser -u "$TABLETOP_USER" -- "$PYTHON" -m venv "$VENV"
    fi
    say "pip install $APP (its dependencies come from PyPI; this takes a minute)"
    runuser -u "$TABLETOP_USER" -- env -C "$APP" HOME="$(home_of "$TABLETOP_USER")" \
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$APP"
    printf '%s\n' "$id" | runuser -u "$TABLETOP_USER" -- tee "$INSTALLED_STAMP" >/dev/null
}

# migrate, collectstatic, check --deploy: as the processes see the environment file.
run_django_commands() {
    say "manage.py migrate --noinput (the schema first: the old processes keep working)"
    manage migrate --noinput
    local id
    id=$(code_id "$APP")
    if [ "$(cat "$COLLECTED_STAMP" 2>/dev/null)" = "$id" ]; then
        say "the static files of this code are collected already"
    else
        say "manage.py collectstatic --noinput (new hashed files beside the old ones)"
        manage collectstatic --noinput | tail -n 1
        printf '%s\n' "$id" | runuser -u "$TABLETOP_USER" -- tee "$COLLECTED_STAMP" >/dev/null
    fi
    say "manage.py check --deploy"
    manage check --deploy --fail-level WARNING
}

# Writes DEST (mode, owner, group) from stdin, only when its content changes, and then
# sets CHANGED=1. Never at the end of a pipeline (`... | put`): that runs it in a subshell,
# and CHANGED would not reach the caller (the daemon-reload and nginx reload after it).
CHANGED=0
put() {
    local mode=$1 owner=$2 group=$3 dest=$4 new
    new=$(mktemp)
    cat >"$new"
    if [ -f "$dest" ] && cmp -s "$new" "$dest"; then
        rm -f "$new"
        say "unchanged: $dest"
        return 0
    fi
    install -D -m "$mode" -o "$owner" -g "$group" "$new" "$dest"
    rm -f "$new"
    CHANGED=1
    say "wrote $dest"
}

# A documented file's text with the machine's paths under TABLETOP_ROOT.
rooted() {
    sed -e "s#/srv/tabletop#$SRV#g" -e "s#/etc/tabletop/#$ENV_DIR/#g" \
        -e "s#/var/backups/tabletop#$BACKUPS#g" "$1"
}

ports() {
    local n
    for ((n = 0; n < PROCESSES; n++)); do echo $((BASE_PORT + n)); done
}

# The ports of the installed processes, from tabletop.target's Wants= line.
installed_ports() {
    grep '^Wants=' "$UNIT_DIR/tabletop.target" 2>/dev/null | grep -o 'tabletop@[0-9]*' |
        cut -d@ -f2
}

# docs/deploy/systemd/*, with one tabletop@PORT instance per process in the target, and
# the same ports for the health check.
write_units() {
    local source=$APP/docs/deploy/systemd unit wants list text
    CHANGED=0
    wants=$(ports | sed 's/.*/tabletop@&.service/' | paste -sd' ')
    list=$(ports | paste -sd' ')
    for unit in "$source"/*; do
        text=$(rooted "$unit" | sed -e "s/^User=tabletop$/User=$TABLETOP_USER/" \
            -e "s/^Group=tabletop$/Group=$TABLETOP_USER/" \
            -e "s/^Wants=tabletop@.*/Wants=$wants/" \
            -e "s/^\(ExecStart=.*health-check\.sh\)\( [0-9][0-9]*\)*$/\1 $list/")
        put 644 root root "$UNIT_DIR/$(basename "$unit")" <<<"$text"
    done
    if [ "$CHANGED" = 1 ]; then
        run "$SYSTEMCTL" daemon-reload
    fi
}

# The site from docs/deploy/nginx.conf: the domain, the ports, the paths. With `http`,
# only its port-80 server (the ACME webroot), for before the first certificate.
nginx_site() {
    local which=$1 template=$APP/docs/deploy/nginx.conf documented upstream
    for documented in "server 127.0.0.1:8001 " "server 127.0.0.1:8002 " table.example.org \
        /etc/letsencrypt/live/ /srv/tabletop/staticfiles/ "root /var/www/html;"; do
        grep -qF "$documented" "$template" || die "$template no longer has '$documented'"
    done
    upstream=$(ports | sed 's/.*/    server 127.0.0.1:& max_fails=1 fail_timeout=5s;/')
    {
        if [ "$which" = http ]; then
            echo "# Until the first certificate (install.sh): port 80 only, for certbot's challenge."
            awk '/^server \{/ && !done { on = 1 } on { print } on && /^\}/ { on = 0; done = 1 }' \
                "$template"
        else
            awk -v upstream="$upstream" '
                /^ *server 127\.0\.0\.1:8001 / { print upstream; next }
                /^ *server 127\.0\.0\.1:800[2-9] / { next }
                { print }' "$template"
        fi
    } | sed -e "s/table\.example\.org/$DOMAIN/g" -e "s#/etc/letsencrypt/#$LETSENCRYPT/#g" \
        -e "s#/srv/tabletop/#$SRV/#g" -e "s#root /var/www/html;#root $ACME_WEBROOT;#"
}

# Writes the site, enables it (Debian's default site goes), and reloads nginx after
# `nginx -t` when it changed.
write_nginx_site() {
    local site
    site=$(nginx_site "$1") # whole, or not at all: put would write what came before an error
    CHANGED=0
    put 644 root root "$NGINX_DIR/sites-available/tabletop" <<<"$site"
    install -d "$NGINX_DIR/sites-enabled"
    if [ "$(readlink "$NGINX_DIR/sites-enabled/tabletop" 2>/dev/null)" != "$NGINX_DIR/sites-available/tabletop" ]; then
        ln -sfn "$NGINX_DIR/sites-available/tabletop" "$NGINX_DIR/sites-enabled/tabletop"
        CHANGED=1
    fi
    if [ -e "$NGINX_DIR/sites-enabled/default" ] || [ -L "$NGINX_DIR/sites-enabled/default" ]; then
        say "disabling Debian's default site (sites-enabled/default)"
        rm -f "$NGINX_DIR/sites-enabled/default"
        CHANGED=1
    fi
    if [ "$CHANGED" = 1 ]; then
        run "$NGINX_CMD" -t
        run "$SYSTEMCTL" reload nginx
    fi
}

# Waits until each process answers /readyz (database and channel layer both answer).
check_ready() {
    local port tries
    for port in "$@"; do
        tries=0
        until curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
            tries=$((tries + 1))
            if [ "$tries" -ge 180 ]; then
                curl -sS "http://127.0.0.1:$port/readyz" >&2 || true
                die "tabletop@$port is not ready after 90 s: journalctl -u tabletop@$port"
            fi
            sleep 0.5
        done
        say "tabletop@$port: $(curl -fsS "http://127.0.0.1:$port/readyz")"
    done
}
