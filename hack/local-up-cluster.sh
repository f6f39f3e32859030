#!/usr/bin/env bash
# A local multi-replica cluster: one etcd plus REPLICAS (default 2) server replicas on
# consecutive ports from BASE_PORT (default 6443), sharing that etcd. PKI, kubeconfigs
# (one per replica), data and logs live under _output/local-up/. Ctrl-C stops everything
# this script started, by PID.
#   env: REPLICAS, BASE_PORT, ETCD_CLIENT_PORT (22379), ETCD_PEER_PORT (22380),
#        LB_PORT: also start a round-robin TCP load balancer (hack/lb) on this port in
#          front of every replica, with its own kubeconfig (lb.kubeconfig); a replica
#          that dies is then logged and skipped instead of stopping the cluster,
#        LOCAL_UP_DIR (_output/local-up),
#        SKIP_BUILD=1 to use dist/ as it is; extra arguments go to every replica.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

replicas="${REPLICAS:-2}"
base_port="${BASE_PORT:-6443}"
etcd_client_port="${ETCD_CLIENT_PORT:-22379}"
etcd_peer_port="${ETCD_PEER_PORT:-22380}"
out="${LOCAL_UP_DIR:-$root/_output/local-up}"
lb_port="${LB_PORT:-}"
cli="$root/dist/test/harness/local-up-cli.js"

if [ -z "${SKIP_BUILD:-}" ] || [ ! -f dist/cmd/apiserver.js ] || [ ! -f "$cli" ]; then
  make --no-print-directory build >&2
fi
etcd_bin="$(bash hack/install-etcd.sh)"

pids=()
cleanup() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  echo "local-up: stopped" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$out/logs"
mkdir -p -m 0700 "$out/etcd"
etcd_url="http://127.0.0.1:$etcd_client_port"
peer_url="http://127.0.0.1:$etcd_peer_port"
"$etcd_bin" --name=local-up --data-dir="$out/etcd" \
  --listen-client-urls="$etcd_url" --advertise-client-urls="$etcd_url" \
  --listen-peer-urls="$peer_url" --initial-advertise-peer-urls="$peer_url" \
  --initial-cluster="local-up=$peer_url" \
  --logger=zap --log-outputs=stderr --log-level=warn >"$out/logs/etcd.log" 2>&1 &
pids+=($!)
echo "local-up: etcd pid $! at $etcd_url (log $out/logs/etcd.log)" >&2

node "$cli" pki "$out" "$replicas" "$base_port" >"$out/kubeconfigs.txt"

for ((i = 0; i < replicas; i++)); do
  port=$((base_port + i))
  node dist/cmd/apiserver.js \
    --etcd-servers="$etcd_url" \
    --secure-port="$port" --bind-address=127.0.0.1 \
    --tls-cert-file="$out/pki/apiserver.crt" --tls-private-key-file="$out/pki/apiserver.key" \
    --client-ca-file="$out/pki/ca.crt" \
    --authorization-mode=AlwaysAllow \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$out/pki/sa.pub" \
    --service-account-signing-key-file="$out/pki/sa.key" \
    --service-cluster-ip-range=10.0.0.0/24 \
    "$@" >"$out/logs/replica-$i.log" 2>&1 &
  pids+=($!)
  echo "local-up: replica $i pid $! at https://127.0.0.1:$port (log $out/logs/replica-$i.log)" >&2
done

for ((i = 0; i < replicas; i++)); do
  if ! node "$cli" wait "$out" "https://127.0.0.1:$((base_port + i))" 60; then
    echo "local-up: replica $i did not become ready; last log lines:" >&2
    tail -n 30 "$out/logs/replica-$i.log" >&2
    exit 1
  fi
done

replica_pids=("${pids[@]:1}")
if [ -n "$lb_port" ]; then
  backends=()
  for ((i = 0; i < replicas; i++)); do backends+=($((base_port + i))); done
  node dist/hack/lb/main.js "$lb_port" "${backends[@]}" >"$out/logs/lb.log" 2>&1 &
  pids+=($!)
  lb_pid=$!
  for _ in $(seq 100); do grep -q 'lb: listening' "$out/logs/lb.log" && break; sleep 0.1; done
  sed "s#https://127.0.0.1:$base_port#https://127.0.0.1:$lb_port#; s#local-up-0#local-up-lb#g" \
    "$(head -n1 "$out/kubeconfigs.txt")" >"$out/lb.kubeconfig"
  echo "$out/lb.kubeconfig" >>"$out/kubeconfigs.txt"
  echo "local-up: load balancer pid $lb_pid at https://127.0.0.1:$lb_port over ports ${backends[*]} (log $out/logs/lb.log)" >&2
fi

echo "local-up: $replicas replica(s) ready. Kubeconfigs:"
cat "$out/kubeconfigs.txt"
echo "e.g.  KUBECONFIG=$(head -n1 "$out/kubeconfigs.txt") kubectl get ns    (Ctrl-C stops everything)"

# Stay up until Ctrl-C, or until one of our processes dies (with the load balancer, until
# etcd, the balancer or the last replica dies: it routes around a dead replica).
set +e
without() { local x="$1"; shift; for p in "$@"; do [ "$p" = "$x" ] || echo "$p"; done; }
live=("${pids[@]}")
while :; do
  wait -n -p died "${live[@]}"
  code=$?
  if [ -n "$lb_port" ] && [[ " ${replica_pids[*]} " == *" $died "* ]]; then
    live=($(without "$died" "${live[@]}"))
    replica_pids=($(without "$died" "${replica_pids[@]}"))
    if [ "${#replica_pids[@]}" -gt 0 ]; then
      echo "local-up: replica pid $died exited (code $code); the load balancer skips it" >&2
      continue
    fi
  fi
  break
done
if [ "$code" -gt 128 ]; then
  echo "local-up: interrupted; stopping" >&2
else
  echo "local-up: a process exited (code $code); stopping the rest" >&2
fi
exit "$code"
