// Upstream's ValidateEncryptionConfiguration, field paths and messages alike.
import type { EncryptionConfiguration, Key, KMSConfiguration, ProviderConfiguration } from './types.js';
import { parseGroupResource } from './types.js';

const aesKeySizes = [16, 24, 32];
const secretboxKeySizes = [32];

/** field.Invalid's value as Go prints it: strings quoted, string lists as a Go literal. */
function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[]string{${v.map((s) => JSON.stringify(s)).join(', ')}}`;
  return String(v);
}
const invalid = (path: string, value: unknown, detail: string) => `${path}: Invalid value: ${show(value)}: ${detail}`;
const required = (path: string, detail: string) => `${path}: Required value: ${detail}`;

export function validateEncryptionConfiguration(c: EncryptionConfiguration, reload: boolean): string[] {
  if (c.resources.length === 0) return [required('resources', 'at least one resources is required')];
  const errors: string[] = [];
  const kmsNames = new Set<string>();
  c.resources.forEach((conf, i) => {
    const r = `resources[${i}].resources`;
    const p = `resources[${i}].providers`;
    if (conf.resources.length === 0) errors.push(required(r, `at least one ${r} is required`));
    errors.push(...validateResourceOverlap(conf.resources, r), ...validateResourceNames(conf.resources, r));
    if (conf.providers.length === 0) errors.push(required(p, `at least one ${p} is required`));
    conf.providers.forEach((provider, j) => {
      const path = `${p}[${j}]`;
      const single = validateSingleProvider(provider, path);
      errors.push(...single);
      if (provider.kms) {
        errors.push(...validateKMS(provider.kms, `${path}.kms`, kmsNames, reload));
        kmsNames.add(provider.kms.name);
      } else if (provider.aesgcm) errors.push(...validateKeys(provider.aesgcm.keys, `${path}.aesgcm.keys`, aesKeySizes));
      else if (provider.aescbc) errors.push(...validateKeys(provider.aescbc.keys, `${path}.aescbc.keys`, aesKeySizes));
      else if (provider.secretbox) errors.push(...validateKeys(provider.secretbox.keys, `${path}.secretbox.keys`, secretboxKeySizes));
    });
  });
  return errors;
}

function validateResourceOverlap(resources: string[], path: string): string[] {
  if (resources.length < 2) return [];
  const grs = resources.map(parseGroupResource);
  let overlap = false;
  let duplicate = false;
  grs.forEach((a, i) => grs.forEach((b, j) => {
    if (i === j) return;
    if (a.group === b.group && a.resource === b.resource) { duplicate = true; return; }
    if (overlap) return;
    if (a.group === '*' && a.resource === '*') { overlap = true; return; }
    if (a.group !== b.group) return;
    if (a.resource === '*' || b.resource === '*') overlap = true;
  }));
  const out: string[] = [];
  if (duplicate) out.push(invalid(path, resources, 'the same resource cannot be specified multiple times'));
  if (overlap) out.push(invalid(path, resources, "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked"));
  return out;
}

function validateResourceNames(resources: string[], path: string): string[] {
  const out: string[] = [];
  resources.forEach((res, j) => {
    const at = `${path}[${j}]`;
    const gr = parseGroupResource(res);
    if (res.toLowerCase() !== res) out.push(invalid(at, res, 'resource name should not contain capital letters'));
    else if (res === '*') out.push(invalid(at, res, "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources"));
    else if (['apiserveripinfo', 'serviceipallocations', 'servicenodeportallocations'].includes(res)) {
      out.push(invalid(at, res, 'resources which do not have REST API/s cannot be encrypted'));
    } else if (gr.group === 'events.k8s.io') {
      out.push(invalid(at, res, "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file"));
    } else if (gr.group === 'extensions') out.push(invalid(at, res, "'extensions' group has been removed and cannot be used for encryption"));
    else if (gr.group === '*' && gr.resource !== '*') out.push(invalid(at, res, 'encrypting the same resource across groups is not supported'));
  });
  return out;
}

function validateSingleProvider(p: ProviderConfiguration, path: string): string[] {
  const found = [p.kms, p.aesgcm, p.aescbc, p.secretbox, p.identity].filter((x) => x !== undefined).length;
  if (found === 0) return [invalid(path, '', 'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity')];
  if (found > 1) return [invalid(path, '', 'more than one provider specified in a single element, should split into different list elements')];
  return [];
}

function validateKeys(keys: Key[], path: string, sizes: number[]): string[] {
  if (keys.length === 0) return [required(path, 'at least one keys is required')];
  const out: string[] = [];
  keys.forEach((key, i) => {
    const at = `${path}[${i}]`;
    if (key.name === '') out.push(required(`${at}.name`, 'name is a mandatory field for a key'));
    if (key.secret === '') { out.push(required(`${at}.secret`, 'secret is a mandatory field for a key')); return; }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(key.secret) || key.secret.length % 4 !== 0) {
      out.push(invalid(`${at}.secret`, 'REDACTED', 'secrets must be base64 encoded'));
      return;
    }
    const len = Buffer.from(key.secret, 'base64').length;
    if (!sizes.includes(len)) out.push(invalid(`${at}.secret`, 'REDACTED', `secret is not of the expected length, got ${len}, expected one of [${sizes.join(' ')}]`));
  });
  return out;
}

function validateKMS(c: KMSConfiguration, path: string, names: Set<string>, reload: boolean): string[] {
  const out: string[] = [];
  if (c.name === '') out.push(required(`${path}.name`, 'name is a mandatory field for a provider'));
  if (c.apiVersion !== 'v1' && c.name.includes(':')) out.push(invalid(`${path}.name`, c.name, `invalid KMS provider name ${c.name}, must not contain ':'`));
  if ((reload || c.apiVersion !== 'v1') && names.has(c.name)) out.push(invalid(`${path}.name`, c.name, `duplicate KMS provider name ${c.name}, names must be unique`));
  if (!(c.timeoutMs > 0)) out.push(invalid(`${path}.timeout`, c.timeout, 'timeout should be a positive value'));
  if (c.endpoint === '') out.push(invalid(`${path}.endpoint`, '', 'endpoint is a mandatory field for a kms'));
  else {
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(c.endpoint)?.[1] ?? '';
    if (scheme !== 'unix') out.push(invalid(`${path}.endpoint`, c.endpoint, `unsupported scheme "${scheme}" for KMS provider, only unix is supported`));
  }
  if (c.apiVersion !== 'v1' && c.cachesize !== undefined) out.push(invalid(`${path}.cachesize`, c.cachesize, 'cachesize is not supported in v2'));
  if (c.apiVersion === 'v1' && c.cachesize === 0) out.push(invalid(`${path}.cachesize`, 0, 'cachesize should be a positive value, or negative to disable'));
  if (c.apiVersion !== 'v1' && c.apiVersion !== 'v2') out.push(invalid(`${path}.apiVersion`, c.apiVersion, 'unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported'));
  return out;
}
