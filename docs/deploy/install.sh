#!/usr/bin/env bash
# Installs Tabletop for a club on one Debian 12 or 13 machine, as docs/deploy/README.md
# describes step by step: nginx with a Let's Encrypt certificate in front of several
# Daphne processes under systemd, on PostgreSQL and Redis. Run it again at any time: it
# changes only what is missing and keeps the secrets. Upgrades: upgrade.sh beside it.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=docs/deploy/common.sh
. "$HERE/common.sh"

usage() {
    cat <<EOF
Usage: $0 --domain table.example.org --email admin@example.org [--processes 2] [--repo URL|PATH]

Installs Tabletop on this Debian 12 or 13 machine, as root, in one go:
packages, the user '$TABLETOP_USER', the code in /srv/tabletop/app, its virtual
environment, /etc/tabletop/tabletop.env with generated secrets, the PostgreSQL role and
database, a Redis password, migrate, collectstatic, check --deploy, the systemd units,
the nightly backup, and nginx with a Let's Encrypt certificate for the domain.
Running it again changes nothing that is already there (secrets are kept).

  --domain NAME     the site's host name; its DNS must point at this machine, and ports
                    80 and 443 must be reachable (Let's Encrypt checks over port 80)
  --email ADDRESS   for Let's Encrypt's expiry notices
  --processes N     Daphne processes (default 2; one per ~200 sockets or per core)
  --repo URL|PATH   where the code comes from (default: the checkout this script is in,
                    at its last commit)
  --help            this text

Afterwards: upgrades with upgrade.sh; docs/deploy/README.md explains every step.
EOF
}

DOMAIN="" EMAIL="" PROCESSES=2 REPO=""
while [ "$#" -gt 0 ]; do
    case "$1" in
        --domain) DOMAIN=${2:-}; shift 2 || die "--domain needs a value" ;;
        --email) EMAIL=${2:-}; shift 2 || die "--email needs a value" ;;
        --processes) PROCESSES=${2:-}; shift 2 || die "--processes needs a value" ;;
        --repo) REPO=${2:-}; shift 2 || die "--repo needs a value" ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done
if [ -z "$DOMAIN" ] || [ -z "$EMAIL" ]; then
    usage >&2
    die "--domain and --email are required"
fi
[[ $DOMAIN =~ ^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$ && $DOMAIN == *.* ]] ||
    die "--domain must be a host name such as table.example.org, not '$DOMAIN'"
[[ $EMAIL =~ ^[^@[:space:]\"\$\`\\]+@[^@[:space:]\"\$\`\\]+$ ]] || die "--email must be an address, not '$EMAIL'"
[[ $PROCESSES =~ ^[1-9][0-9]?$ ]] || die "--processes must be a number from 1 to 99"
REPO=${REPO:-$(cd "$HERE/../.." && pwd)}

require_root_on_debian

secret() { "$PYTHON" -c "import secrets; print(secrets.token_$1)"; }

install_packages() {
    step "Debian packages: nginx postgresql redis-server python3-venv git certbot curl esbuild"
    export DEBIAN_FRONTEND=noninteractive
    run "$APT_GET" update -qq
    run "$APT_GET" install -y -qq nginx postgresql redis-server python3-venv git certbot curl esbuild
}

create_user_and_code() {
    step "The user '$TABLETOP_USER' and the code in $APP"
    install -d -m 755 "$SRV"
    if id -u "$TABLETOP_USER" >/dev/null 2>&1; then
        say "user $TABLETOP_USER exists"
    else
        adduser --system --group --home /srv/tabletop --no-create-home "$TABLETOP_USER"
        say "created the system user $TABLETOP_USER"
    fi
    install -d -o "$TABLETOP_USER" -g "$TABLETOP_USER" "$SRV" "$STATIC_ROOT"
    if [ -d "$APP" ]; then
        say "kept $APP (version $(version_of "$APP")); upgrades: upgrade.sh"
    else
        fetch_code "$REPO" "" "$SRV/app.new"
        mv "$SRV/app.new" "$APP"
        say "installed version $(version_of "$APP")"
    fi
}

create_venv() {
    step "The virtual environment $VENV with the app installed"
    install_code_into_venv
}

# The secrets: those of the environment file when there is one (a re-run), else new.
DB_PASSWORD="" REDIS_PASSWORD="" ENV_FILE_IS_NEW=0
read_secrets() {
    step "Secrets"
    if [ -f "$ENV_FILE" ]; then
        local database_url redis_url
        database_url=$(setting DATABASE_URL)
        redis_url=$(setting REDIS_URL)
        [[ $database_url =~ ^postgres://[^:/@]+:([^@]+)@ ]] ||
            die "$ENV_FILE: DATABASE_URL has no password; fix it or move the file away"
        DB_PASSWORD=$(url_unquote "${BASH_REMATCH[1]}")
        [[ $redis_url =~ ^redis://:([^@]+)@ ]] ||
            die "$ENV_FILE: REDIS_URL has no password; fix it or move the file away"
        REDIS_PASSWORD=$(url_unquote "${BASH_REMATCH[1]}")
        say "kept from $ENV_FILE"
    else
        ENV_FILE_IS_NEW=1
        DB_PASSWORD=$(secret "hex(24)")
        say "generated the database password"
    fi
}

configure_redis() {
    step "Redis: a password ($REDIS_CONF)"
    [ -f "$REDIS_CONF" ] || die "$REDIS_CONF is missing: is redis-server installed?"
    local current port
    current=$(sed -n 's/^requirepass[[:space:]]\{1,\}//p' "$REDIS_CONF" | tail -n 1)
    current=${current#\"} current=${current%\"}
    REDIS_PASSWORD=${REDIS_PASSWORD:-${current:-$(secret "hex(24)")}}
    if [ "$current" = "$REDIS_PASSWORD" ]; then
        say "requirepass is set"
    else
        [[ $REDIS_PASSWORD != *[[:space:]\"\'\\]* ]] ||
            die "the Redis password may not hold spaces, quotes or \\: change it in $ENV_FILE"
        local replacement
        replacement=$(sed 's/[&/]/\\&/g' <<<"requirepass $REDIS_PASSWORD")
        if grep -q '^requirepass[[:space:]]' "$REDIS_CONF"; then
            sed -i "s/^requirepass[[:space:]].*/$replacement/" "$REDIS_CONF"
        elif grep -q '^# requirepass ' "$REDIS_CONF"; then
            sed -i "0,/^# requirepass .*/s//$replacement/" "$REDIS_CONF"
        else
            printf 'requirepass %s\n' "$REDIS_PASSWORD" >>"$REDIS_CONF"
        fi
        say "set requirepass; restarting redis-server"
        run "$SYSTEMCTL" restart redis-server
    fi
    port=$(sed -n 's/^port[[:space:]]\{1,\}//p' "$REDIS_CONF" | tail -n 1)
    REDIS_URL="redis://:$(url_quote "$REDIS_PASSWORD")@127.0.0.1:${port:-6379}/$REDIS_DB"
    local tries=0
    until [ "$(REDISCLI_AUTH=$REDIS_PASSWORD redis-cli -h 127.0.0.1 -p "${port:-6379}" ping 2>/dev/null)" = PONG ]; do
        tries=$((tries + 1))
        [ "$tries" -lt 20 ] || die "Redis on port ${port:-6379} does not answer with its password"
        sleep 0.5
    done
    say "Redis on 127.0.0.1:${port:-6379} answers with the password"
}

configure_postgresql() {
    step "PostgreSQL: the role '$DB_USER' and the database '$DB_NAME'"
    pg() {
        run "$PSQL" -X -q -t -A -v ON_ERROR_STOP=1 -v role="$DB_USER" -v db="$DB_NAME" \
            -v pw="$DB_PASSWORD"
    }
    if [ "$(pg <<<"select 1 from pg_roles where rolname = :'role'")" != 1 ]; then
        pg <<<"create role :\"role\" login password :'pw'"
        say "created the role $DB_USER"
    elif [ "$ENV_FILE_IS_NEW" = 1 ]; then
        pg <<<"alter role :\"role\" password :'pw'"
        say "the role $DB_USER existed: gave it the new environment file's password"
    else
        say "the role $DB_USER exists"
    fi
    if [ "$(pg <<<"select 1 from pg_database where datname = :'db'")" != 1 ]; then
        pg <<<"create database :\"db\" owner :\"role\""
        say "created the database $DB_NAME"
    else
        say "the database $DB_NAME exists"
    fi
    DATABASE_URL="postgres://$DB_USER:$(url_quote "$DB_PASSWORD")@127.0.0.1:5432/$DB_NAME"
}

# docs/deploy/tabletop.env with this machine's values, every value in double quotes, so
# that systemd's EnvironmentFile and a shell's `set -a; . file` read the same.
environment_file() {
    local -A values=(
        [SECRET_KEY]=$(secret "urlsafe(50)")
        [ALLOWED_HOSTS]="$DOMAIN,127.0.0.1"
        [DATABASE_URL]=$DATABASE_URL
        [REDIS_URL]=$REDIS_URL
        [STATIC_ROOT]=$STATIC_ROOT
        [DEFAULT_FROM_EMAIL]="Tabletop <tabletop@$DOMAIN>"
        [CSRF_TRUSTED_ORIGINS]="https://$DOMAIN"
        [SITE_URL]="https://$DOMAIN"
    )
    local template=$APP/docs/deploy/tabletop.env line name value csrf_in_template=0
    grep -q '^CSRF_TRUSTED_ORIGINS=' "$template" && csrf_in_template=1
    while IFS= read -r line || [ -n "$line" ]; do
        if [[ ! $line =~ ^([A-Z_][A-Z0-9_]*)=(.*)$ ]]; then
            printf '%s\n' "$line"
            continue
        fi
        name=${BASH_REMATCH[1]} value=${BASH_REMATCH[2]}
        value=${value#\"} value=${value%\"}
        value=${values[$name]-$value}
        [[ $value != *[\"\$\`\\]* ]] || die "$name's value may not hold \" \$ \` or \\"
        if [ "$name" = EMAIL_URL ]; then
            echo "# Fill in your mail server, then: systemctl restart tabletop.target. Until then"
            echo "# mail (sign-up links, password resets) is written to the journal instead."
            printf '# %s="%s"\n' "$name" "$value"
            continue
        fi
        printf '%s="%s"\n' "$name" "$value"
        if [ "$name" = ALLOWED_HOSTS ] && [ "$csrf_in_template" = 0 ]; then
            printf 'CSRF_TRUSTED_ORIGINS="%s"\n' "${values[CSRF_TRUSTED_ORIGINS]}"
        fi
    done <"$template"
}

write_environment_file() {
    step "The environment file $ENV_FILE"
    install -d -m 755 "$ENV_DIR"
    if [ "$ENV_FILE_IS_NEW" = 0 ]; then
        say "kept (its secrets and your edits)"
        local hosts
        hosts=$(setting ALLOWED_HOSTS)
        [[ ,$hosts, == *,$DOMAIN,* ]] ||
            say "note: its ALLOWED_HOSTS ($hosts) does not name $DOMAIN: edit it by hand"
        return
    fi
    local content
    content=$(environment_file) # whole, or not at all (a re-run keeps the file)
    put 640 root "$TABLETOP_USER" "$ENV_FILE" <<<"$content"
    say "generated SECRET_KEY; ALLOWED_HOSTS and CSRF_TRUSTED_ORIGINS for $DOMAIN"
}

django_commands() {
    step "migrate, collectstatic, check --deploy (as $TABLETOP_USER, with $ENV_FILE)"
    run_django_commands
}

systemd_units() {
    step "systemd: units in $UNIT_DIR, $PROCESSES processes (ports $(ports | paste -sd' '))"
    local -a before instances
    mapfile -t before < <(installed_ports)
    write_units
    mapfile -t instances < <(ports | sed 's/.*/tabletop@&.service/')
    local port
    for port in "${before[@]}"; do
        if ! ports | grep -qx "$port"; then
            say "fewer processes: stopping tabletop@$port"
            run "$SYSTEMCTL" disable --now "tabletop@$port.service"
        fi
    done
    run "$SYSTEMCTL" enable --now "${instances[@]}" tabletop.target tabletop-prune.timer \
        tabletop-health.timer
    say "backups: $BACKUPS (postgres's, mode 700), before the timer that writes there"
    install -d -o postgres -g postgres -m 700 "$BACKUPS"
    run "$SYSTEMCTL" enable --now tabletop-backup.timer
    local -a port_list
    mapfile -t port_list < <(ports)
    check_ready "${port_list[@]}"
}

nginx_and_certificate() {
    step "nginx and the certificate for $DOMAIN"
    install -d "$ACME_WEBROOT"
    if [ -f "$LETSENCRYPT/live/$DOMAIN/fullchain.pem" ]; then
        say "certificate present: $LETSENCRYPT/live/$DOMAIN/"
    else
        say "first the port-80 site alone, to answer Let's Encrypt's challenge"
        write_nginx_site http
        say "certbot: a certificate for $DOMAIN (renewed by certbot.timer, nginx reloaded)"
        run "$CERTBOT" certonly --webroot -w "$ACME_WEBROOT" -d "$DOMAIN" --email "$EMAIL" \
            --agree-tos --no-eff-email --non-interactive --deploy-hook "systemctl reload nginx"
        [ -f "$LETSENCRYPT/live/$DOMAIN/fullchain.pem" ] ||
            die "certbot made no certificate for $DOMAIN (DNS, or port 80 closed?)"
    fi
    say "the whole site (https, websockets, static files)"
    write_nginx_site full
}

done_message() {
    cat <<EOF

Tabletop $(version_of "$APP") is installed: https://$DOMAIN/

The first admin account (then log in at https://$DOMAIN/admin/):
  cd $APP && runuser -u $TABLETOP_USER -- sh -c 'set -a; . $ENV_FILE; set +a; exec $VENV/bin/python manage.py createsuperuser'

Mail: fill in EMAIL_URL in $ENV_FILE, then systemctl restart tabletop.target
(until then sign-up and password-reset mail is written to the log).

Logs:     journalctl -u 'tabletop@*' -f       (the processes; nginx: /var/log/nginx/)
Backups:  $BACKUPS, nightly (copy them off this machine)
Upgrades: $APP/docs/deploy/upgrade.sh [--ref vX.Y.Z]
Settings: $ENV_FILE; every step explained: $APP/docs/deploy/README.md
EOF
}

printf 'Installing Tabletop for %s (%s processes) from %s\n' "$DOMAIN" "$PROCESSES" "$REPO"
install_packages
create_user_and_code
create_venv
read_secrets
configure_redis
configure_postgresql
write_environment_file
django_commands
systemd_units
nginx_and_certificate
done_message
