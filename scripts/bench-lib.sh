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
  if [ -n "${KEEP_WORK:-}" ]; then echo "$(basename "$0"): kept $work" >&2; else rm -rf "$work"; fi
  exit "$status"
}
