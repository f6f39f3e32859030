// nodes/proxy: to the node's kubelet with the kubelet credentials, or to another port on
// the node's address with the plain proxy transport (upstream: node ResourceLocation).
import { errors } from '../../../runtime/errors.js';
import type { ConnectContext, ConnectDef, ConnectTarget } from '../../rest/resource.js';
import { hostPort, proxyURL, requireProxyable, splitSchemeNamePort } from '../connect/location.js';
import { proxyMethods, proxyOptions } from '../pods/connect.js';

async function nodeProxyTarget(c: ConnectContext): Promise<ConnectTarget> {
  const id = splitSchemeNamePort(c.name);
  if (!id) throw errors.badRequest(`invalid node request ${JSON.stringify(c.name)}`);
  const nodes = c.stores('', 'nodes');
  const info = await c.kubelet.connectionInfo(async (n) => {
    if (!nodes) throw errors.notFound({ group: '', resource: 'nodes' }, n);
    return nodes.get('', n);
  }, id.name);
  await requireProxyable(info.hostname);
  const rootRedirect = c.path === '';
  if (!id.port || id.port === info.port) {
    return { kind: 'proxy', url: proxyURL(info.scheme, hostPort(info.hostname, info.port), c.path), transport: info.transport, upgradeRequired: false, rootRedirect };
  }
  return { kind: 'proxy', url: proxyURL(id.scheme, hostPort(info.hostname, id.port), c.path), transport: c.kubelet.proxyTransport, upgradeRequired: false, rootRedirect };
}

export const nodeProxy: ConnectDef = { methods: proxyMethods, target: nodeProxyTarget, options: proxyOptions('NodeProxyOptions') };
