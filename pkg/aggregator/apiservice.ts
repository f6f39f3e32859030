// Typed reads of apiregistration.k8s.io/v1 APIService objects and upstream's condition
// helper (SetAPIServiceCondition): what the proxy, the availability controller and
// discovery need to know about one.
import { isPlainObject, type KubeObject } from '../runtime/object.js';

export interface ServiceReference {
  namespace: string;
  name: string;
  /** Defaulted to 443 by the strategy. */
  port: number;
}

export interface APIServiceSpec {
  group: string;
  version: string;
  /** Absent: served by this server ("local"). */
  service?: ServiceReference;
  /** base64 PEM bundle verifying the service's serving certificate. */
  caBundle?: string;
  insecureSkipTLSVerify: boolean;
  groupPriorityMinimum: number;
  versionPriority: number;
}

export interface APIServiceCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export function apiServiceSpec(o: KubeObject): APIServiceSpec {
  const s = isPlainObject(o.spec) ? o.spec : {};
  const svc = isPlainObject(s.service) ? s.service : undefined;
  return {
    group: typeof s.group === 'string' ? s.group : '',
    version: typeof s.version === 'string' ? s.version : '',
    service: svc && {
      namespace: typeof svc.namespace === 'string' ? svc.namespace : '',
      name: typeof svc.name === 'string' ? svc.name : '',
      port: typeof svc.port === 'number' ? svc.port : 443,
    },
    caBundle: typeof s.caBundle === 'string' && s.caBundle !== '' ? s.caBundle : undefined,
    insecureSkipTLSVerify: s.insecureSkipTLSVerify === true,
    groupPriorityMinimum: typeof s.groupPriorityMinimum === 'number' ? s.groupPriorityMinimum : 0,
    versionPriority: typeof s.versionPriority === 'number' ? s.versionPriority : 0,
  };
}

export function conditions(o: KubeObject): APIServiceCondition[] {
  const st = isPlainObject(o.status) ? o.status : {};
  return Array.isArray(st.conditions) ? st.conditions.filter(isPlainObject) as unknown as APIServiceCondition[] : [];
}

export function availableCondition(o: KubeObject): APIServiceCondition | undefined {
  return conditions(o).find((c) => c.type === 'Available');
}

/** Upstream's IsAPIServiceConditionTrue(Available). */
export function isAvailable(o: KubeObject): boolean {
  return availableCondition(o)?.status === 'True';
}

/**
 * Upstream's SetAPIServiceCondition: a new status replaces the condition (with its new
 * transition time); the same status keeps the old transition time and takes the new
 * reason and message.
 */
export function setCondition(o: KubeObject, c: APIServiceCondition): void {
  const status = isPlainObject(o.status) ? o.status : (o.status = {});
  const list = conditions(o);
  const i = list.findIndex((x) => x.type === c.type);
  if (i < 0) list.push(c);
  else if (list[i]!.status !== c.status) list[i] = c;
  else list[i] = { ...list[i]!, reason: c.reason, message: c.message };
  status.conditions = list;
}
