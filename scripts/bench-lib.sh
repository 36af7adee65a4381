# Shell functions the benchmark scripts share; sourced, not run.

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits until a URL answers 200, or gives up after 30 s.
wait_for() {
  local url=$1 name=$2
  for _ in $(seq 300); do
    if curl -sf -o /dev/null --noproxy '*' "$url"; then return 0; fi
    sleep 0.1
  done
  echo "$(basename "$0"): $name did not answer $url" >&2
  return 1
}

# Starts nginx in the background serving ROOT's files as static tiles on 127.0.0.1:PORT, with its
# configuration, logs and temporary files in DIR; adds its pid to the caller's `pids`. With
# ACCESS_LOG, every request is logged there (one line each), else none is.
#   start_nginx ROOT DIR PORT WORKERS [ACCESS_LOG]
start_nginx() {
  local root=$1 dir=$2 port=$3 workers=$4 access_log=${5:-off}
  mkdir -p "$dir/temp"
  cat > "$dir/nginx.conf" <<NGINX
worker_processes $workers;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
    access_log $access_log;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    types { image/png png; }
    default_type application/octet-stream;
    client_body_temp_path $dir/temp/body;
    proxy_temp_path $dir/temp/proxy;
    fastcgi_temp_path $dir/temp/fastcgi;
    uwsgi_temp_path $dir/temp/uwsgi;
    scgi_temp_path $dir/temp/scgi;
    server {
        listen 127.0.0.1:$port;
        root $root;
    }
}
NGINX
  "$nginx_binary" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" &
  pids+=($!)
}

# The peak resident memory of a process and all its descendants, in KiB: the sum of each one's
# VmHWM, so at least the most they held at once.
#   tree_peak_kb PID
tree_peak_kb() {
  local pid=$1 total child
  total=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
  for child in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
    total=$(( total + $(tree_peak_kb "$child") ))
  done
  echo "${total:-0}"
}

# nginx's binary, or empty when it is not installed.
find_nginx() {
  local binary
  binary=$(command -v nginx || true)
  [ -z "$binary" ] && [ -x /usr/sbin/nginx ] && binary=/usr/sbin/nginx
  echo "$binary"
}

# Makes the benchmark's temporary directory, `$work`, and an empty `pids`; when the script ends,
# every process in `pids` is stopped and the directory removed (KEEP_WORK=1 keeps it).
#   make_work NAME
make_work() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/mapframe-$1.XXXXXX")
  # nginx started as root runs its workers as nobody, who must be able to read the tiles.
  chmod 755 "$work"
  pids=()
  trap remove_work EXIT
  trap 'exit 130' INT TERM
}

remove_work() {
  local status=$?
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  stop_postgres
  if [ -n "${KEEP_WORK:-}" ]; then echo "$(basename "$0"): kept $work" >&2; else rm -rf "$work"; fi
  exit "$status"
}

# A throwaway PostgreSQL cluster in DIR on 127.0.0.1:PORT, its superuser `mapframe` with password
# PASSWORD; as root, the server runs as Debian's `postgres` user. Adds it to stop_postgres's list.
#   start_postgres DIR PORT PASSWORD
start_postgres() {
  local dir=$1 port=$2 password=$3 bin run=()
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$bin" ] || { echo "bench: PostgreSQL is not installed; run: make deps-bench" >&2; return 1; }
  mkdir -p "$dir"
  echo "$password" > "$dir/password"
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres "$dir"; run=(runuser -u postgres --); fi
  "${run[@]}" "$bin/initdb" --pgdata "$dir/data" --username mapframe --pwfile "$dir/password" --auth scram-sha-256 \
    --encoding UTF8 --no-locale --no-sync > "$dir/initdb.log"
  "${run[@]}" "$bin/pg_ctl" --pgdata "$dir/data" --log "$dir/server.log" --wait \
    -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off -c max_connections=200" start > /dev/null
  postgres_stops+=("${run[*]} $bin/pg_ctl --pgdata $dir/data --mode fast --wait stop")
}
postgres_stops=()
stop_postgres() { local command; for command in "${postgres_stops[@]}"; do $command > /dev/null 2>&1 || true; done; postgres_stops=(); }

# nginx as a round-robin load balancer on PORT in front of MapFrame instances on PORTS, with the
# configuration the README's "Running several instances" gives.
#   start_balancer DIR PORT PORTS...
start_balancer() {
  local dir=$1 port=$2 servers="" instance
  shift 2
  for instance in "$@"; do servers+="        server 127.0.0.1:$instance max_fails=1 fail_timeout=10s;"$'\n'; done
  mkdir -p "$dir/temp"
  cat > "$dir/nginx.conf" <<NGINX
worker_processes auto;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $dir/temp/body;
    proxy_temp_path $dir/temp/proxy;
    fastcgi_temp_path $dir/temp/fastcgi;
    uwsgi_temp_path $dir/temp/uwsgi;
    scgi_temp_path $dir/temp/scgi;
    upstream mapframe {
$servers        keepalive 32;
    }
    server {
        listen 127.0.0.1:$port;
        location / {
            proxy_pass http://mapframe;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
            proxy_connect_timeout 2s;
            proxy_next_upstream error timeout http_502 http_503 http_504;
            proxy_next_upstream_tries 2;
        }
    }
}
NGINX
  "$nginx_binary" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" &
  pids+=($!)
}
