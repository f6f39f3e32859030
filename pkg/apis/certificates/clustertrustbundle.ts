// ClusterTrustBundle (certificates.k8s.io/v1alpha1) validation with upstream v1.28's
// rules and words: a signer-linked bundle is named `<signer, "/" as ":">:<suffix>`, an
// unlinked one has no ":" in its name; the trust bundle is PEM CERTIFICATE blocks only,
// each an X.509 CA certificate without PEM headers, none repeated, at most 1 MiB.
import { X509Certificate } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import { x509 } from '../../util/cert/x509.js';
import type { FieldError } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { byteLength, invalid, tooLong } from '../validation/field.js';
import { nameIsDNSSubdomain, type NameValidator } from '../validation/names.js';
import { validateImmutableField, validateObjectMeta } from '../validation/objectmeta.js';
import { pemDecode } from './pem.js';
import { validateSignerName } from './validation.js';

/** Upstream's MaxTrustBundleSize. */
export const maxTrustBundleSize = 1024 * 1024;

const trustBundlePath = 'spec.trustBundle';
const signerNamePath = 'spec.signerName';

/** The object's spec.signerName and spec.trustBundle, '' when absent. */
export function bundleSpec(obj: KubeObject): { signerName: string; trustBundle: string } {
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  return {
    signerName: typeof spec.signerName === 'string' ? spec.signerName : '',
    trustBundle: typeof spec.trustBundle === 'string' ? spec.trustBundle : '',
  };
}

/** The name rule, which depends on the bundle's signer (upstream: ValidateClusterTrustBundleName). */
export function clusterTrustBundleNameValidator(signerName: string): NameValidator {
  return (name, prefix) => {
    if (signerName === '') {
      if (name.includes(':')) return ['ClusterTrustBundle without signer name must not have ":" in its name'];
      return nameIsDNSSubdomain(name, prefix);
    }
    const requiredPrefix = `${signerName.replaceAll('/', ':')}:`;
    if (!name.startsWith(requiredPrefix)) {
      return [`ClusterTrustBundle for signerName ${signerName} must be named with prefix ${requiredPrefix}`];
    }
    return nameIsDNSSubdomain(name.slice(requiredPrefix.length), prefix);
  };
}

export interface ClusterTrustBundleValidationOptions {
  /** Skip the PEM checks (an update that leaves trustBundle as it was). */
  suppressBundleParsing?: boolean;
}

/** Metadata (with the signer-dependent name rule), signer name and trust bundle. */
export function validateClusterTrustBundle(obj: KubeObject, opts: ClusterTrustBundleValidationOptions = {}): FieldError[] {
  const { signerName, trustBundle } = bundleSpec(obj);
  const errs = validateObjectMeta(obj.metadata, { namespaced: false, nameValidator: clusterTrustBundleNameValidator(signerName) });
  if (signerName !== '') errs.push(...validateSignerName(signerNamePath, signerName));
  if (!opts.suppressBundleParsing) errs.push(...validateTrustBundle(trustBundlePath, trustBundle));
  return errs;
}

/**
 * The create checks on the new object, the PEM checks only when trustBundle changed
 * (so that a stricter parser never strands stored bundles), and signerName immutable.
 */
export function validateClusterTrustBundleUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const now = bundleSpec(obj);
  const before = bundleSpec(old);
  return [
    ...validateClusterTrustBundle(obj, { suppressBundleParsing: now.trustBundle === before.trustBundle }),
    ...validateImmutableField(now.signerName, before.signerName, signerNamePath),
  ];
}

const omitted = '<value omitted>';

/** Each PEM block a CA certificate without headers, at least one, none twice. */
export function validateTrustBundle(path: string, text: string): FieldError[] {
  if (byteLength(text) > maxTrustBundleSize) return [tooLong(path, maxTrustBundleSize)];
  const errs: FieldError[] = [];
  const seen = new Map<string, number[]>();
  let rest = text;
  for (let i = 0; ; i++) {
    const block = pemDecode(rest);
    if (!block) break;
    rest = block.rest;
    const problem = blockProblem(block.type, block.headers, block.bytes);
    if (problem) {
      errs.push(invalid(path, omitted, `entry ${i} ${problem}`));
      continue;
    }
    const key = block.bytes.toString('base64');
    seen.set(key, [...(seen.get(key) ?? []), i]);
  }
  // A malformed block would make the duplicate and empty checks below misleading.
  if (errs.length > 0) return errs;
  if (seen.size === 0) return [invalid(path, omitted, 'at least one trust anchor must be provided')];
  for (const indices of seen.values()) {
    if (indices.length > 1) errs.push(invalid(path, omitted, `duplicate trust anchor (indices [${indices.join(' ')}])`));
  }
  return errs;
}

/** What is wrong with one block, in upstream's words after "entry N ". */
function blockProblem(type: string, headers: boolean, der: Buffer): string | undefined {
  if (type !== 'CERTIFICATE') return `has bad block type: ${type}`;
  if (headers) return 'has PEM block headers';
  let basicConstraints: X509.BasicConstraintsExtension | null;
  try {
    new X509Certificate(der);
    basicConstraints = new (x509().X509Certificate)(new Uint8Array(der)).getExtension(x509().BasicConstraintsExtension);
  } catch {
    return 'does not parse as X.509';
  }
  if (!basicConstraints?.ca) return 'does not have the CA bit set';
  return undefined;
}
