// Secret: key format, 1 MiB total, per-type required keys, type and `immutable` rules.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { forbidden, invalid, key, required, tooLong } from '../../../apis/validation/field.js';
import { goUnmarshalMapError } from '../../../apis/validation/gojson.js';
import { nameIsDNSSubdomain, validateConfigMapKey } from '../../../apis/validation/names.js';
import { validateImmutableField } from '../../../apis/validation/objectmeta.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import { decodedLength, ImmutableFieldMsg, MaxDataSize, stringMap } from '../configmaps/strategy.js';
import { x509KeyPairError } from './tls.js';

export const SecretTypes = {
  Opaque: 'Opaque',
  ServiceAccountToken: 'kubernetes.io/service-account-token',
  Dockercfg: 'kubernetes.io/dockercfg',
  DockerConfigJSON: 'kubernetes.io/dockerconfigjson',
  BasicAuth: 'kubernetes.io/basic-auth',
  SSHAuth: 'kubernetes.io/ssh-auth',
  TLS: 'kubernetes.io/tls',
  BootstrapToken: 'bootstrap.kubernetes.io/token',
} as const;

export const ServiceAccountNameKey = 'kubernetes.io/service-account.name';

/** stringData is write-only: it is folded into data (winning over it) and never stored. */
export function foldStringData(obj: KubeObject): void {
  if (obj.stringData === undefined) return;
  const extra = stringMap(obj.stringData);
  delete obj.stringData;
  if (Object.keys(extra).length === 0) return;
  const data = stringMap(obj.data);
  for (const [k, v] of Object.entries(extra)) data[k] = Buffer.from(v, 'utf8').toString('base64');
  obj.data = data;
}

function dataBytes(data: Record<string, string>, k: string): Buffer | undefined {
  return k in data ? Buffer.from(data[k], 'base64') : undefined;
}

export class SecretStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain });
  }

  override applyDefaults(obj: KubeObject): void {
    foldStringData(obj);
    if (!obj.type) obj.type = SecretTypes.Opaque;
  }

  protected override prepareObjectForCreate(obj: KubeObject): void {
    foldStringData(obj);
  }

  protected override prepareObjectForUpdate(obj: KubeObject, old: KubeObject): void {
    foldStringData(obj);
    if (!obj.type) obj.type = old.type;
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    const errs: FieldError[] = [];
    const data = stringMap(obj.data);
    let total = 0;
    for (const [k, v] of Object.entries(data)) {
      errs.push(...validateConfigMapKey(k, key('data', k)));
      total += decodedLength(v);
    }
    if (total > MaxDataSize) errs.push(tooLong('data', MaxDataSize));
    errs.push(...typeErrors(obj, data));
    return errs;
  }

  protected override validateObjectUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
    const errs = validateImmutableField(obj.type ?? '', old.type ?? '', 'type');
    if (old.immutable === true) {
      if (obj.immutable !== true) errs.push(forbidden('immutable', ImmutableFieldMsg));
      if (!deepEqual(stringMap(obj.data), stringMap(old.data))) errs.push(forbidden('data', ImmutableFieldMsg));
    }
    return [...errs, ...this.validateObject(obj)];
  }

  warnings(obj: KubeObject): string[] {
    if (obj.type !== SecretTypes.TLS) return [];
    const data = stringMap(obj.data);
    const problem = x509KeyPairError(dataBytes(data, 'tls.crt') ?? Buffer.alloc(0), dataBytes(data, 'tls.key') ?? Buffer.alloc(0));
    return problem ? [problem] : [];
  }
}

/** Keys each built-in type requires (bootstrap tokens are checked by their consumers, not here). */
function typeErrors(obj: KubeObject, data: Record<string, string>): FieldError[] {
  const errs: FieldError[] = [];
  switch (obj.type) {
    case SecretTypes.ServiceAccountToken: {
      const annotations = isPlainObject(obj.metadata.annotations) ? obj.metadata.annotations : {};
      if (!annotations[ServiceAccountNameKey]) errs.push(required(key('metadata.annotations', ServiceAccountNameKey)));
      break;
    }
    case SecretTypes.Dockercfg:
    case SecretTypes.DockerConfigJSON: {
      const k = obj.type === SecretTypes.Dockercfg ? '.dockercfg' : '.dockerconfigjson';
      const bytes = dataBytes(data, k);
      if (!bytes) {
        errs.push(required(key('data', k)));
        break;
      }
      const problem = goUnmarshalMapError(bytes);
      if (problem) errs.push(invalid(key('data', k), '<secret contents redacted>', problem));
      break;
    }
    case SecretTypes.BasicAuth:
      // Either may be empty, but one of them must be present.
      if (!('username' in data) && !('password' in data)) {
        errs.push(required(key('data', 'username')), required(key('data', 'password')));
      }
      break;
    case SecretTypes.SSHAuth:
      if (!dataBytes(data, 'ssh-privatekey')?.length) errs.push(required(key('data', 'ssh-privatekey')));
      break;
    case SecretTypes.TLS:
      if (!('tls.crt' in data)) errs.push(required(key('data', 'tls.crt')));
      if (!('tls.key' in data)) errs.push(required(key('data', 'tls.key')));
      break;
    default:
      break;
  }
  return errs;
}
