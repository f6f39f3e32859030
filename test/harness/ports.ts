// The harness uses the same free-port finder as the embedded etcd.
export { freePort, freePorts } from '../../pkg/util/net/ports.js';
