# Sourced by hack/install-*.sh: ensure_debian_binary PACKAGE SERVICE CANDIDATE...
# prints the first executable candidate (an empty one is skipped), installing Debian's
# PACKAGE first when none is there. The package may start a system SERVICE; the project
# runs its own on free ports, so that one is stopped and disabled.
ensure_debian_binary() {
  local package=$1 service=$2
  shift 2
  local candidates=("$@")
  find_binary() {
    for c in "${candidates[@]}"; do
      if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
    done
    return 1
  }
  if find_binary; then return 0; fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq --no-install-recommends "$package" >&2
  if command -v systemctl >/dev/null 2>&1; then $sudo systemctl disable --now "$service" >/dev/null 2>&1 || true; fi
  find_binary
}
