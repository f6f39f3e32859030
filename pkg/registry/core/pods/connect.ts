// pods/log, exec, attach, portforward and proxy: where each goes (upstream: the pod
// strategy's LogLocation, ExecLocation, AttachLocation, PortForwardLocation,
// ResourceLocation). The connect handler does the talking.
import { arr, obj, str, type Obj } from '../../../apis/core/types.js';
import { errors, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { ConnectContext, ConnectDef, ConnectTarget } from '../../rest/resource.js';
import { boolParam, intParam } from '../connect/options.js';
import { hostPort, isGlobalUnicast, proxyURL, splitSchemeNamePort } from '../connect/location.js';

const podsResource = { group: '', resource: 'pods' };

async function getPod(c: ConnectContext, name: string): Promise<KubeObject> {
  const store = c.stores('', 'pods');
  if (!store) throw errors.notFound(podsResource, name);
  return store.get(c.namespace, name);
}

function names(list: Obj[]): string {
  return list.map((x) => str(x.name)).join(' ');
}

/** The named container, or the only one; upstream's messages otherwise. */
function chooseContainer(pod: KubeObject, requested: string): string {
  const spec = obj(pod.spec) ?? {};
  const containers = arr(spec.containers);
  const name = pod.metadata.name ?? '';
  if (!requested) {
    if (containers.length === 1) return str(containers[0].name);
    if (containers.length === 0) throw errors.badRequest(`a container name must be specified for pod ${name}`);
    let msg = `a container name must be specified for pod ${name}, choose one of: [${names(containers)}]`;
    const init = arr(spec.initContainers);
    if (init.length > 0) msg += ` or one of the init containers: [${names(init)}]`;
    throw errors.badRequest(msg);
  }
  const all = [...containers, ...arr(spec.initContainers), ...arr(spec.ephemeralContainers)];
  if (!all.some((x) => str(x.name) === requested)) throw errors.badRequest(`container ${requested} is not valid for pod ${name}`);
  return requested;
}

async function kubeletOf(c: ConnectContext, pod: KubeObject) {
  const nodes = c.stores('', 'nodes');
  const nodeName = str(obj(pod.spec)?.nodeName);
  return c.kubelet.connectionInfo(async (n) => {
    if (!nodes) throw errors.notFound({ group: '', resource: 'nodes' }, n);
    return nodes.get('', n);
  }, nodeName);
}

/** Upstream's ValidatePodLogOptions. */
function validateLogOptions(q: URLSearchParams): FieldError[] {
  const errs: FieldError[] = [];
  const tail = intParam(q, 'tailLines');
  const limit = intParam(q, 'limitBytes');
  const since = intParam(q, 'sinceSeconds');
  if (tail !== undefined && tail < 0) errs.push({ type: 'FieldValueInvalid', field: 'tailLines', value: tail, detail: 'must be greater than or equal to 0' });
  if (limit !== undefined && limit < 1) errs.push({ type: 'FieldValueInvalid', field: 'limitBytes', value: limit, detail: 'must be greater than 0' });
  if (since !== undefined && q.get('sinceTime') !== null) {
    errs.push({ type: 'FieldValueForbidden', field: '', detail: 'at most one of `sinceTime` or `sinceSeconds` may be specified' });
  } else if (since !== undefined && since < 1) {
    errs.push({ type: 'FieldValueInvalid', field: 'sinceSeconds', value: since, detail: 'must be greater than 0' });
  }
  return errs;
}

function sinceTimeParam(v: string): string {
  const t = new Date(v);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(v) || Number.isNaN(t.getTime())) {
    throw errors.badRequest(`parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"`);
  }
  return t.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

async function logTarget(c: ConnectContext): Promise<ConnectTarget> {
  const q = c.query;
  const errs = validateLogOptions(q);
  if (errs.length > 0) throw errors.invalid('', 'PodLogOptions', c.name, errs);
  const pod = await getPod(c, c.name);
  const container = chooseContainer(pod, q.get('container') ?? '');
  const base = { kind: 'stream' as const, contentType: 'text/plain', resource: { group: '', resource: 'pods/log' }, name: c.name };
  // An unscheduled pod has no logs yet: upstream answers with an empty stream.
  if (!str(obj(pod.spec)?.nodeName)) return base;
  const info = await kubeletOf(c, pod);
  const params = new URLSearchParams();
  for (const b of ['follow', 'previous', 'timestamps']) if (boolParam(q, b)) params.set(b, 'true');
  for (const n of ['sinceSeconds', 'tailLines', 'limitBytes']) {
    const v = intParam(q, n);
    if (v !== undefined) params.set(n, String(v));
  }
  const sinceTime = q.get('sinceTime');
  if (sinceTime !== null) params.set('sinceTime', sinceTimeParam(sinceTime));
  params.sort();
  const url = new URL(`https://${hostPort(info.hostname, info.port)}/containerLogs/${seg(c.namespace)}/${seg(c.name)}/${seg(container)}`);
  url.search = params.toString();
  const transport = boolParam(q, 'insecureSkipTLSVerifyBackend') ? info.insecureTransport : info.transport;
  return { ...base, url, transport };
}

function seg(s: string): string {
  return encodeURIComponent(s);
}

/** exec and attach: /<path>/<ns>/<pod>/<container>?input=1&output=1&error=1&tty=1&command=... */
function streamTarget(path: 'exec' | 'attach'): (c: ConnectContext) => Promise<ConnectTarget> {
  return async (c) => {
    const q = c.query;
    const pod = await getPod(c, c.name);
    const container = chooseContainer(pod, q.get('container') ?? '');
    if (!str(obj(pod.spec)?.nodeName)) throw errors.badRequest(`pod ${c.name} does not have a host assigned`);
    const info = await kubeletOf(c, pod);
    const params = new URLSearchParams();
    const flags: Array<[string, string]> = [['stdin', 'input'], ['stdout', 'output'], ['stderr', 'error'], ['tty', 'tty']];
    for (const [opt, param] of flags) if (boolParam(q, opt)) params.append(param, '1');
    if (path === 'exec') for (const cmd of q.getAll('command')) params.append('command', cmd);
    params.sort();
    const url = new URL(`https://${hostPort(info.hostname, info.port)}/${path}/${seg(c.namespace)}/${seg(c.name)}/${seg(container)}`);
    url.search = params.toString();
    return { kind: 'proxy', url, transport: info.transport, upgradeRequired: true };
  };
}

async function portForwardTarget(c: ConnectContext): Promise<ConnectTarget> {
  const pod = await getPod(c, c.name);
  if (!str(obj(pod.spec)?.nodeName)) throw errors.badRequest(`pod ${c.name} does not have a host assigned`);
  const info = await kubeletOf(c, pod);
  const params = new URLSearchParams();
  for (const p of c.query.getAll('ports')) {
    for (const one of p.split(',')) {
      if (!/^\d+$/.test(one)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(one)}: invalid syntax`);
      params.append('port', one);
    }
  }
  const url = new URL(`https://${hostPort(info.hostname, info.port)}/portForward/${seg(c.namespace)}/${seg(c.name)}`);
  url.search = params.toString();
  return { kind: 'proxy', url, transport: info.transport, upgradeRequired: true };
}

/** pods/proxy: the pod IP and a port (the first declared container port when none is named). */
async function proxyTarget(c: ConnectContext): Promise<ConnectTarget> {
  const id = splitSchemeNamePort(c.name);
  if (!id) throw errors.badRequest(`invalid pod request ${JSON.stringify(c.name)}`);
  const pod = await getPod(c, id.name);
  let port = id.port;
  if (!port) {
    for (const ctr of arr(obj(pod.spec)?.containers)) {
      const ports = arr(ctr.ports);
      if (ports.length > 0) { port = String(ports[0].containerPort); break; }
    }
  }
  const status = obj(pod.status) ?? {};
  const podIP = str(arr(status.podIPs)[0]?.ip) || str(status.podIP);
  if (!isGlobalUnicast(podIP)) throw errors.badRequest('address not allowed');
  return { kind: 'proxy', url: proxyURL(id.scheme, hostPort(podIP, port), c.path), transport: c.kubelet.proxyTransport, upgradeRequired: false, rootRedirect: c.path === '' };
}

const proxyMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** PodExecOptions / PodAttachOptions as decoded from the query (Go omits false and empty). */
function streamOptions(kind: string) {
  return (c: ConnectContext): Record<string, unknown> => {
    const o: Record<string, unknown> = { kind, apiVersion: 'v1' };
    for (const b of ['stdin', 'stdout', 'stderr', 'tty']) if (boolParam(c.query, b)) o[b] = true;
    const container = c.query.get('container');
    if (container) o.container = container;
    if (kind === 'PodExecOptions') o.command = c.query.getAll('command');
    return o;
  };
}

export function proxyOptions(kind: string) {
  return (c: ConnectContext): Record<string, unknown> => ({ kind, apiVersion: 'v1', ...(c.path ? { path: c.path } : {}) });
}

export const podConnect: Record<string, ConnectDef> = {
  log: { methods: ['GET'], target: logTarget },
  exec: { methods: ['GET', 'POST'], target: streamTarget('exec'), options: streamOptions('PodExecOptions') },
  attach: { methods: ['GET', 'POST'], target: streamTarget('attach'), options: streamOptions('PodAttachOptions') },
  portforward: {
    methods: ['GET', 'POST'], target: portForwardTarget,
    options: (c) => ({ kind: 'PodPortForwardOptions', apiVersion: 'v1', ports: c.query.getAll('ports').flatMap((p) => p.split(',')).map(Number) }),
  },
  proxy: { methods: proxyMethods, target: proxyTarget, options: proxyOptions('PodProxyOptions') },
};

export { proxyMethods };
