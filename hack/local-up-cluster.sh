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
#        SKIP_BUILD=1 to use dist/ as it is; extra arguments go to every replica,
#        ETCD_TLS=1: kubeadm's shape: its PKI layout under pki/ (ca, apiserver,
#          apiserver-kubelet-client, front-proxy-ca, front-proxy-client, sa, etcd/ca,
#          etcd/server, etcd/peer, etcd/healthcheck-client, apiserver-etcd-client), three
#          etcd members requiring client certificates on client and peer ports (client
#          ports ETCD_CLIENT_PORT, +2, +4; peer ports ETCD_PEER_PORT, +2, +4), and
#          replicas run with kubeadm v1.28's kube-apiserver command line.
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
node "$cli" pki "$out" "$replicas" "$base_port" >"$out/kubeconfigs.txt"
pki="$out/pki"

if [ "${ETCD_TLS:-}" = "1" ]; then
  members=3
  scheme=https
else
  members=1
  scheme=http
fi
cluster=""
etcd_urls=()
for ((m = 0; m < members; m++)); do
  cluster+="${cluster:+,}local-up-$m=$scheme://127.0.0.1:$((etcd_peer_port + 2 * m))"
  etcd_urls+=("$scheme://127.0.0.1:$((etcd_client_port + 2 * m))")
done
etcd_url="$(IFS=,; echo "${etcd_urls[*]}")"
for ((m = 0; m < members; m++)); do
  mkdir -p -m 0700 "$out/etcd/m$m"
  client="${etcd_urls[$m]}"
  peer="$scheme://127.0.0.1:$((etcd_peer_port + 2 * m))"
  tls=()
  if [ "$scheme" = https ]; then
    # As kubeadm's etcd static pod: client certificates required on both ports.
    tls=(--cert-file="$pki/etcd/server.crt" --key-file="$pki/etcd/server.key"
      --trusted-ca-file="$pki/etcd/ca.crt" --client-cert-auth=true
      --peer-cert-file="$pki/etcd/peer.crt" --peer-key-file="$pki/etcd/peer.key"
      --peer-trusted-ca-file="$pki/etcd/ca.crt" --peer-client-cert-auth=true)
  fi
  "$etcd_bin" --name="local-up-$m" --data-dir="$out/etcd/m$m" \
    --listen-client-urls="$client" --advertise-client-urls="$client" \
    --listen-peer-urls="$peer" --initial-advertise-peer-urls="$peer" \
    --initial-cluster="$cluster" --initial-cluster-state=new \
    "${tls[@]}" --logger=zap --log-outputs=stderr --log-level=warn >"$out/logs/etcd-$m.log" 2>&1 &
  pids+=($!)
  echo "local-up: etcd member $m pid $! at $client (log $out/logs/etcd-$m.log)" >&2
done

if [ "$scheme" = https ]; then
  # kubeadm v1.28's kube-apiserver manifest, paths under our pki/ for /etc/kubernetes/pki.
  server_args=(
    --advertise-address=127.0.0.1 --allow-privileged=true --authorization-mode=Node,RBAC
    --client-ca-file="$pki/ca.crt" --enable-admission-plugins=NodeRestriction --enable-bootstrap-token-auth=true
    --etcd-cafile="$pki/etcd/ca.crt" --etcd-certfile="$pki/apiserver-etcd-client.crt" --etcd-keyfile="$pki/apiserver-etcd-client.key"
    --etcd-servers="$etcd_url"
    --kubelet-client-certificate="$pki/apiserver-kubelet-client.crt" --kubelet-client-key="$pki/apiserver-kubelet-client.key"
    --kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname
    --proxy-client-cert-file="$pki/front-proxy-client.crt" --proxy-client-key-file="$pki/front-proxy-client.key"
    --requestheader-allowed-names=front-proxy-client --requestheader-client-ca-file="$pki/front-proxy-ca.crt"
    --requestheader-extra-headers-prefix=X-Remote-Extra- --requestheader-group-headers=X-Remote-Group
    --requestheader-username-headers=X-Remote-User
    --service-account-issuer=https://kubernetes.default.svc.cluster.local
    --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key"
    --service-cluster-ip-range=10.96.0.0/12
    --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key"
  )
else
  server_args=(
    --etcd-servers="$etcd_url"
    --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key"
    --client-ca-file="$pki/ca.crt"
    --authorization-mode=AlwaysAllow
    --service-account-issuer=https://kubernetes.default.svc.cluster.local
    --service-account-key-file="$pki/sa.pub"
    --service-account-signing-key-file="$pki/sa.key"
    --service-cluster-ip-range=10.0.0.0/24
  )
fi

for ((i = 0; i < replicas; i++)); do
  port=$((base_port + i))
  node dist/cmd/apiserver.js \
    --secure-port="$port" --bind-address=127.0.0.1 "${server_args[@]}" \
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

replica_pids=("${pids[@]:members}")
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
