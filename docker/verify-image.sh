#!/usr/bin/env bash
# Builds the image from docker/Dockerfile (unchanged) and smoke-tests it: /healthz, the HEALTHCHECK,
# one full random game of mancala-simple through the WebSocket protocol, the process's user, the
# /data volume and its survival across a restart of the container. Exits non-zero on any failure.
#
# With a Docker engine that answers, it uses `docker build` / `docker run`. Without one (CI), it
# makes the debian:12 and debian:12-slim bases with debootstrap, builds with buildah (chroot
# isolation, vfs) and runs with podman (runc, cgroupfs); if no container can run on the machine,
# it runs the image's entrypoint from the unpacked image in new namespaces (unshare + chroot).
# Every setting lives in this script's own storage root and config files: the machine's container
# defaults (/etc/containers, /var/lib/containers) are never read for storage nor written.
#
# Usage: docker/verify-image.sh [options]
#   --engine auto|docker|podman|chroot   auto (default): docker if its engine answers, else podman,
#                                        else chroot; chroot forces the unshare + chroot run
#   --fresh       own storage in a temporary directory, removed at the end (a cold run, no cache)
#   --store DIR   storage root kept between runs for base images and buildah's layer cache
#                 (default: build/image-store, ignored by git and by the build context)
#   --rm-image    remove the built image at the end (the bases and the layer cache stay)
#   --purge       remove the whole storage root at the end
#   --max-mb N    fail if the image is larger than N MB (default 150)
#   --no-build    smoke-test the image already in the store under --image's name
#   --image NAME  the image's name (default tanbo-server:verify)
#   --verbose     stream the build output (default: kept in a log, its tail shown on failure)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
engine=auto fresh=0 rm_image=0 purge=0 max_mb=150 verbose=0 build=1 image=tanbo-server:verify
store="$repo/build/image-store"
while [ $# -gt 0 ]; do
  case "$1" in
    --engine) engine=$2; shift ;;
    --fresh) fresh=1 ;;
    --store) store=$2; shift ;;
    --rm-image) rm_image=1 ;;
    --purge) purge=1 ;;
    --max-mb) max_mb=$2; shift ;;
    --verbose) verbose=1 ;;
    --no-build) build=0 ;;
    --image) image=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "verify-image: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$engine" in auto | docker | podman | chroot) ;; *) echo "verify-image: bad --engine" >&2; exit 2 ;; esac

name=tanbo-verify-$$
volume=tanbo-verify-data-$$
work=$(mktemp -d "${TMPDIR:-/tmp}/tanbo-verify.XXXXXX")
[ "$fresh" = 1 ] && store="$work/store"
logs="$work/logs"
mkdir -p "$logs"

# --- reporting ------------------------------------------------------------------------------
t_start=$(date +%s.%N)
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
say() { printf '[%7ss] %s\n' "$(since "$t_start")" "$*"; }
fail() {
  say "FAILED: $*"
  exit 1
}
# step NAME FUNCTION [ARGS]: runs one step, prints its name, its time and OK, or fails the run.
step() {
  local title=$1 t0
  shift
  t0=$(date +%s.%N)
  say "== $title"
  "$@" || fail "$title"
  say "   ok: $title ($(since "$t0") s)"
}

# --- cleanup --------------------------------------------------------------------------------
ctr=""            # docker or podman, once chosen
server_pid=""     # the chroot run's unshare process
wc=""             # the chroot run's buildah working container
cleanup() {
  local rc=$?
  set +e
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    stop_chroot || kill -KILL "$server_pid"  # unshare --kill-child takes the server with it
    wait "$server_pid" 2>/dev/null
  fi
  if [ -n "$ctr" ]; then
    $ctr rm -f "$name" >/dev/null 2>&1
    $ctr volume rm -f "$volume" >/dev/null 2>&1
    [ "$rm_image" = 1 ] && $ctr rmi -f "$image" >/dev/null 2>&1
  fi
  if [ -n "$wc" ]; then
    buildah umount "$wc" >/dev/null 2>&1
    buildah rm "$wc" >/dev/null 2>&1
  fi
  if [ "$rc" != 0 ] && [ -d "$logs" ]; then
    for f in "$logs"/*.log; do
      [ -s "$f" ] || continue
      echo "---- last lines of $(basename "$f")"
      tail -n 40 "$f"
    done
  fi
  # Never delete through a mount point that something left under our directories.
  for dir in "$work" "$([ "$purge" = 1 ] && echo "$store")"; do
    if [ -z "$dir" ] || [ ! -d "$dir" ]; then continue; fi
    awk -v d="$dir/" 'index($5, d) == 1 { print $5 }' /proc/self/mountinfo | sort -r |
      while read -r m; do umount -l "$m"; done
    rm -rf --one-file-system "$dir"
  done
  say "$([ "$rc" = 0 ] && echo PASSED || echo "FAILED (exit $rc)") in $(since "$t_start") s"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- host tools -----------------------------------------------------------------------------
need_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ "${#missing[@]}" = 0 ] && return 0
  say "   installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq >"$logs/apt.log" 2>&1 &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      -o DPkg::Lock::Timeout=600 "${missing[@]}" >>"$logs/apt.log" 2>&1
}

install_tools() {
  local packages=()
  command -v node >/dev/null || packages+=(nodejs)
  if [ "$engine" != docker ]; then
    packages+=(debootstrap buildah podman runc catatonit)
  fi
  need_packages "${packages[@]}"
}

choose_engine() {
  if [ "$engine" = auto ]; then
    if command -v docker >/dev/null && timeout 10 docker info >/dev/null 2>&1; then
      engine=docker
    else
      engine=podman
    fi
  fi
  if [ "$engine" = docker ]; then
    timeout 10 docker info >/dev/null 2>&1 || { say "   no Docker engine answers"; return 1; }
  fi
  say "   engine: $engine"
}

# --- private podman/buildah configuration ---------------------------------------------------
private_config() {
  mkdir -p "$store/storage" "$store/run" "$store/tmp" "$store/volumes" "$work/conf"
  cat >"$work/conf/storage.conf" <<EOF
[storage]
driver = "vfs"
graphroot = "$store/storage"
runroot = "$store/run"
EOF
  # crun refuses this machine's mixed cgroup set-up; root cannot raise rlimits past the hard
  # limits, so the defaults (nofile 1048576) fail: use the hard limits.
  local nofile nproc
  nofile=$(ulimit -Hn)
  nproc=$(ulimit -Hu)
  [ "$nofile" = unlimited ] && nofile=1048576
  [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ] && nproc=32768
  cat >"$work/conf/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
log_driver = "k8s-file"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$store/events.log"
tmp_dir = "$store/tmp"
volume_path = "$store/volumes"

[network]
network_config_dir = "$store/networks"
EOF
  # No registry is searched for a short name: bases are local, and --pull=never everywhere.
  cat >"$work/conf/registries.conf" <<EOF
unqualified-search-registries = []
short-name-mode = "permissive"
EOF
  export CONTAINERS_STORAGE_CONF="$work/conf/storage.conf"
  export CONTAINERS_CONF="$work/conf/containers.conf"
  export CONTAINERS_REGISTRIES_CONF="$work/conf/registries.conf"
  export BUILDAH_ISOLATION=chroot
  ctr=podman
  # A run killed before its cleanup may have left containers in the store; old cache layers go
  # after 12 hours (with vfs each is a full copy of the file system).
  buildah rm --all >/dev/null
  podman image prune -f --filter until=12h >/dev/null
  podman ps -a --format '{{.Names}}' | grep '^tanbo-verify-' | xargs -r podman rm -f >/dev/null
  podman volume ls --format '{{.Name}}' | grep '^tanbo-verify-' | xargs -r podman volume rm -f >/dev/null
  say "   storage root $store (vfs), config in $work/conf"
}

# --- base images: debootstrap, trimmed like the official ones --------------------------------
apt_uri() {  # the archive apt already uses for suite $1, else $2
  local uri
  # shellcheck disable=SC2016 # apt's own $(FIELD) syntax
  uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
    awk -v s="$1" '$2 == s { print $1; exit }')
  echo "${uri:-$2}"
}

trim_rootfs() {  # $1 root, $2 slim (0/1)
  local root=$1
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
    "$root"/var/cache/debconf/*-old "$root"/var/lib/dpkg/*-old "$root"/etc/hostname
  find "$root/var/log" -type f -exec truncate -s 0 {} +
  : >"$root/etc/resolv.conf"
  : >"$root/etc/machine-id"
  cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  echo 'Acquire::Languages "none";' >"$root/etc/apt/apt.conf.d/docker-no-languages"
  echo 'Acquire::GzipIndexes "true";' >"$root/etc/apt/apt.conf.d/docker-gzip-indexes"
  if [ "$2" = 1 ]; then
    # What debian:12-slim leaves out, for the packages installed later too.
    cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
    find "$root/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
    find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
    rm -rf "$root"/usr/share/man/* "$root"/usr/share/groff/* "$root"/usr/share/info/* \
      "$root"/usr/share/lintian/* "$root"/usr/share/linda/*
    find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
  fi
}

import_rootfs() {  # $1 root, $2 name
  tar --numeric-owner --xattrs -C "$1" -c . |
    podman import --change 'CMD ["bash"]' \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$2" >/dev/null
}

base_images() {
  if [ "$engine" = docker ]; then
    say "   docker pulls debian:12 and debian:12-slim itself"
    return 0
  fi
  if podman image exists debian:12 && podman image exists debian:12-slim; then
    say "   debian:12 and debian:12-slim already in $store (delete it, or --fresh, to remake)"
    return 0
  fi
  local mirror security root="$work/rootfs"
  mirror=$(apt_uri bookworm http://deb.debian.org/debian/)
  security=$(apt_uri bookworm-security http://deb.debian.org/debian-security/)
  say "   debootstrap --variant=minbase bookworm from $mirror"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$logs/debootstrap.log" 2>&1 || return 1
  rm -f "$root/etc/apt/sources.list"
  cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  trim_rootfs "$root" 0
  import_rootfs "$root" debian:12 || return 1
  trim_rootfs "$root" 1
  import_rootfs "$root" debian:12-slim || return 1
  rm -rf --one-file-system "$root"
  podman images --format '   {{.Repository}}:{{.Tag}} {{.Size}}' | grep debian
}

# --- build ----------------------------------------------------------------------------------
build_image() {
  [ -d "$repo/web" ] || { say "   $repo/web is missing: the Dockerfile copies it"; return 1; }
  local cmd
  if [ "$engine" = docker ]; then
    cmd=(docker build -f "$repo/docker/Dockerfile" -t "$image" "$repo")
  else
    # --pull=never: a missing base must not send the tools to a public registry. --format docker:
    # the OCI format drops HEALTHCHECK. --layers: reuse unchanged steps from the previous run; vfs
    # copies the whole file system per layer (and deleting a copy is slow on a disk mounted with
    # `discard`), so a --fresh run, which has nothing to reuse, builds each stage in one go.
    local layers=--layers
    [ "$fresh" = 1 ] && layers=--layers=false
    cmd=(buildah bud "$layers" --force-rm --pull=never --isolation chroot --format docker
      -f "$repo/docker/Dockerfile" -t "$image" "$repo")
  fi
  if [ "$verbose" = 1 ]; then
    "${cmd[@]}" 2>&1 | tee "$logs/build.log"
  else
    "${cmd[@]}" >"$logs/build.log" 2>&1
  fi
}

check_image() {
  local bytes mb config health
  bytes=$($ctr image inspect --format '{{.Size}}' "$image")
  mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
  say "   image size: $mb MB (limit $max_mb MB)"
  awk -v b="$bytes" -v m="$max_mb" 'BEGIN { exit !(b <= m * 1e6) }' || return 1
  config=$($ctr image inspect --format '{{json .Config}}' "$image")
  say "   config: $config"
  grep -q '"User":"tanbo"' <<<"$config" || { say "   USER is not tanbo"; return 1; }
  grep -q '"/data"' <<<"$config" || { say "   no /data volume"; return 1; }
  local field=.HealthCheck  # podman shows it beside .Config, docker inside
  [ "$ctr" = docker ] && field=.Config.Healthcheck
  health=$($ctr image inspect --format "{{json $field}}" "$image")
  say "   healthcheck: $health"
  grep -q 'tanbo-server' <<<"$health" || { say "   no HEALTHCHECK (OCI format?)"; return 1; }
}

# --- run: podman or docker ------------------------------------------------------------------
port=""
pick_port() {  # a free loopback port
  port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => {
    console.log(s.address().port); s.close(); });')
}

can_run_containers() {
  [ "$engine" = chroot ] && return 1
  [ "$engine" = docker ] && return 0
  podman run --rm --pull=never --network none --no-healthcheck --entrypoint /bin/true "$image" \
    >"$logs/probe.log" 2>&1
}

start_container() {
  if [ "$ctr" = docker ]; then
    docker run -d --name "$name" -p "127.0.0.1:$port:8080" -v "$volume:/data" "$image" >/dev/null
  else
    # Host network: no bridge, no firewall rules left on the machine; TANBO_PORT moves the server
    # and its HEALTHCHECK together.
    # Without systemd podman cannot schedule the HEALTHCHECK (it says so on stderr, kept in
    # run.log); the next steps run it on demand.
    podman run -d --name "$name" --pull=never --network host -e "TANBO_PORT=$port" \
      -v "$volume:/data" "$image" >/dev/null 2>"$logs/run.log"
  fi
}

wait_healthy() {
  for _ in $(seq 1 100); do
    if node "$repo/docker/smoke-client.mjs" health "127.0.0.1:$port" >"$logs/health.out" 2>&1; then
      say "   /healthz: $(cat "$logs/health.out")"
      return 0
    fi
    sleep 0.2
  done
  say "   /healthz never answered: $(cat "$logs/health.out")"
  if [ "$engine" = chroot ]; then tail -n 20 "$logs/server.log"; else $ctr logs "$name" 2>&1 | tail -n 20; fi
  return 1
}

check_web() {
  local out
  out=$(node "$repo/docker/smoke-client.mjs" web "127.0.0.1:$port") || return 1
  say "   $out"
}

container_healthcheck() {
  if [ "$ctr" = podman ]; then
    podman healthcheck run "$name"  # no systemd to schedule it: run it on demand
  else
    docker exec "$name" tanbo-server --healthcheck
  fi
}

uid_of() {  # the real, effective, saved and filesystem uids of /proc/$1/status, as one line
  awk '/^Uid:/ { print $2, $3, $4, $5 }' "/proc/$1/status"
}

check_user() {
  local uids pid
  uids=$($ctr exec "$name" cat /proc/1/status | awk '/^Uid:/ { print $2, $3, $4, $5 }')
  say "   PID 1 in the container: uid $uids"
  [ "$uids" = "10001 10001 10001 10001" ] || return 1
  if [ "$ctr" = podman ]; then
    pid=$(podman inspect --format '{{.State.Pid}}' "$name")
    say "   host process $pid ($(tr '\0' ' ' <"/proc/$pid/cmdline")): uid $(uid_of "$pid")"
    [ "$(uid_of "$pid")" = "10001 10001 10001 10001" ] || return 1
  fi
}

room=""
play_game() {
  local out
  out=$(node "$repo/docker/smoke-client.mjs" play "127.0.0.1:$port") || return 1
  say "   $out"
  room=${out#*\"room\":\"}
  room=${room%%\"*}
}

check_data() {
  local listing mountpoint
  listing=$($ctr exec "$name" ls -ln /data)
  say "   /data: $(tr '\n' ' ' <<<"$listing")"
  grep -Eq ' 10001 +[0-9]+ .* tanbo\.db$' <<<"$listing" || return 1
  # The volume as the image made /data: the server's user alone reads it and its database.
  grep -Eq '^-rw------- .* tanbo\.db$' <<<"$listing" || return 1
  [ "$($ctr exec "$name" stat -c %a /data)" = 700 ] || return 1
  if [ "$ctr" = podman ]; then
    mountpoint=$(podman volume inspect --format '{{.Mountpoint}}' "$volume")
    say "   volume $volume on the host: $mountpoint"
    [ -s "$mountpoint/tanbo.db" ] || return 1
  fi
}

restart_container() {
  local t0 took
  t0=$(date +%s.%N)
  $ctr stop -t 10 "$name" >/dev/null 2>>"$logs/run.log" || return 1
  took=$(since "$t0")
  say "   stopped in $took s (SIGTERM), exit code $($ctr inspect --format '{{.State.ExitCode}}' "$name")"
  awk -v t="$took" 'BEGIN { exit !(t < 8) }' || { say "   SIGTERM was not handled: stop waited for SIGKILL"; return 1; }
  [ "$($ctr inspect --format '{{.State.ExitCode}}' "$name")" = 0 ] || return 1
  $ctr start "$name" >/dev/null 2>>"$logs/run.log"
}

check_game_kept() {
  local out
  out=$(node "$repo/docker/smoke-client.mjs" games "127.0.0.1:$port" "$room") || return 1
  say "   $out"
}

# --- run: the chroot fallback ---------------------------------------------------------------
root=""
data_dir=""
unpack_image() {
  wc=$(buildah from --pull=never "$image")
  root=$(buildah mount "$wc")
  data_dir="$work/data"
  mkdir -p "$data_dir"
  chown 10001:10001 "$data_dir"
  chmod 700 "$data_dir"  # as the image's own /data
  say "   image unpacked at $root; /data is $data_dir"
}

image_env=()
run_as=""
start_chroot() {
  # The image's own entrypoint, user and environment, in new PID and mount namespaces with the
  # data directory bound on /data; the host network, like `podman run --network host`.
  local entrypoint user
  entrypoint=$(buildah inspect --type image --format '{{range .Docker.Config.Entrypoint}}{{.}} {{end}}' "$image")
  user=$(buildah inspect --type image --format '{{.Docker.Config.User}}' "$image")
  run_as=$(grep "^$user:" "$root/etc/passwd" | cut -d: -f3,4)
  mapfile -t image_env < <(buildah inspect --type image --format '{{range .Docker.Config.Env}}{{println .}}{{end}}' "$image" | sed '/^$/d')
  image_env+=("TANBO_PORT=$port" "HOME=/data")
  say "   entrypoint: $entrypoint as $user ($run_as)"
  # shellcheck disable=SC2086,SC2016 # the entrypoint is a list of words; sh expands $1 $2
  unshare --fork --pid --mount --mount-proc="$root/proc" --kill-child \
    sh -c 'mount --bind "$1" "$2/data" && mount --rbind /dev "$2/dev" && shift 2 && exec "$@"' \
    sh "$data_dir" "$root" \
    chroot --userspec="$run_as" "$root" env -i "${image_env[@]}" $entrypoint \
    >>"$logs/server.log" 2>&1 &
  server_pid=$!
}

chroot_server_pid() {  # the server: the child of unshare
  awk '{ print $1 }' "/proc/$server_pid/task/$server_pid/children" 2>/dev/null
}

stop_chroot() {  # SIGTERM to the server, as `podman stop` would; false if it outlives 10 s
  local pid
  pid=$(chroot_server_pid)
  [ -n "$pid" ] && kill -TERM "$pid"
  for _ in $(seq 1 50); do
    kill -0 "$server_pid" 2>/dev/null || return 0
    sleep 0.2
  done
  return 1
}

chroot_healthcheck() {
  # The image's HEALTHCHECK command, from the same root, as the same user, with the same
  # environment (the probe needs no namespace of the server's: it dials loopback).
  chroot --userspec="$run_as" "$root" env -i "${image_env[@]}" tanbo-server --healthcheck
}

chroot_check_user() {
  local pid
  pid=$(chroot_server_pid)
  [ -n "$pid" ] || return 1
  say "   host process $pid ($(tr '\0' ' ' <"/proc/$pid/cmdline")): uid $(uid_of "$pid")"
  [ "$(uid_of "$pid")" = "10001 10001 10001 10001" ]
}

chroot_check_data() {
  say "   /data: $(find "$data_dir" -mindepth 1 -printf '%f (uid %U, %s bytes) ' )"
  [ "$(stat -c %u "$data_dir/tanbo.db")" = 10001 ] && [ -s "$data_dir/tanbo.db" ] &&
    [ "$(stat -c %a "$data_dir/tanbo.db")" = 600 ]
}

chroot_restart() {
  local t0 rc=0
  t0=$(date +%s.%N)
  stop_chroot || { say "   SIGTERM was not handled in 10 s"; return 1; }
  wait "$server_pid" || rc=$?
  server_pid=""
  say "   stopped in $(since "$t0") s (SIGTERM), exit code $rc"
  [ "$rc" = 0 ] || return 1
  start_chroot
}

# --- the run --------------------------------------------------------------------------------
cd "$repo"
say "verify-image: $repo/docker/Dockerfile, $(nproc) cores"
step "host tools" install_tools
step "container engine" choose_engine
if [ "$engine" = docker ]; then
  ctr=docker
else
  step "private storage and configuration" private_config
fi
if [ "$build" = 1 ]; then
  step "base images debian:12, debian:12-slim" base_images
  step "build $image" build_image
fi
step "image size and configuration" check_image
pick_port
if can_run_containers; then
  ctr_label="$ctr run"
  step "start the container (port $port, volume $volume)" start_container
  step "/healthz" wait_healthy
  step "the browser client at /" check_web
  step "HEALTHCHECK" container_healthcheck
  step "the server runs as uid 10001" check_user
  step "a random mancala-simple game through /ws" play_game
  step "tanbo.db in the /data volume" check_data
  step "restart the container" restart_container
  step "/healthz after the restart" wait_healthy
  step "the finished game survived the restart" check_game_kept
else
  if [ "$engine" = chroot ]; then
    say "NOTE: --engine chroot: the image is not run as a container"
  else
    say "NOTE: podman cannot run a container here: $(tail -n 1 "$logs/probe.log" 2>/dev/null)"
  fi
  say "NOTE: running the image's entrypoint from its unpacked root with unshare + chroot instead"
  ctr_label="unshare + chroot"
  [ "$engine" = docker ] || engine=chroot
  step "unpack the image" unpack_image
  step "start the entrypoint (port $port)" start_chroot
  step "/healthz" wait_healthy
  step "the browser client at /" check_web
  step "HEALTHCHECK command" chroot_healthcheck
  step "the server runs as uid 10001" chroot_check_user
  step "a random mancala-simple game through /ws" play_game
  step "tanbo.db in /data" chroot_check_data
  step "restart the server" chroot_restart
  step "/healthz after the restart" wait_healthy
  step "the finished game survived the restart" check_game_kept
fi
say "image $image verified with $ctr_label"
