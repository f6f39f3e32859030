// certificates.k8s.io/v1 CertificateSigningRequest validation with upstream's messages
// (pkg/apis/certificates/validation).
import type { FieldError } from '../../runtime/errors.js';
import { GoLiteral } from '../../runtime/gofmt.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { byteLength, child, duplicate, forbidden, index, invalid, notSupported, required, tooLong } from '../validation/field.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../validation/names.js';
import { certificateError, csrRequestError, goBytes } from './pem.js';
import { legacyUnknownSignerName } from './signers.js';

export const allValidUsages = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment',
  'decipher only', 'digital signature', 'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel',
  'ipsec user', 'key agreement', 'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime',
  'server auth', 'signing', 'timestamping',
];

export interface CSRValidationOptions {
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowDuplicateUsages: boolean;
  allowUnknownUsages: boolean;
  allowBothApprovedAndDenied: boolean;
  /** The request was already stored (updates copy it from the old object): not parsed again. */
  skipRequestCheck: boolean;
  allowSettingCertificate: boolean;
  allowSettingApprovalConditions: boolean;
}

type Obj = Record<string, unknown>;
const specOf = (o: KubeObject): Obj => (isPlainObject(o.spec) ? o.spec : {});
const statusOf = (o: KubeObject): Obj => (isPlainObject(o.status) ? o.status : {});
const conditionsOf = (o: KubeObject): Obj[] => (Array.isArray(statusOf(o).conditions) ? (statusOf(o).conditions as unknown[]).filter(isPlainObject) : []);
const usagesOf = (o: KubeObject): string[] => (Array.isArray(specOf(o).usages) ? (specOf(o).usages as unknown[]).map(String) : []);
export const bytesOf = (v: unknown): Buffer => (typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0));

export const strictCSROptions: CSRValidationOptions = {
  allowLegacySignerName: false, allowDuplicateConditionTypes: false, allowEmptyConditionType: false,
  allowArbitraryCertificate: false, allowDuplicateUsages: false, allowUnknownUsages: false,
  allowBothApprovedAndDenied: false, skipRequestCheck: false, allowSettingCertificate: false, allowSettingApprovalConditions: false,
};

/** Updates keep tolerating what the stored object already had (upstream: getValidationOptions). */
export function updateCSROptions(old: KubeObject, subresource: string | undefined): CSRValidationOptions {
  const conds = conditionsOf(old);
  const types = conds.map((c) => String(c.type ?? ''));
  const usages = usagesOf(old);
  return {
    allowLegacySignerName: specOf(old).signerName === legacyUnknownSignerName,
    allowDuplicateConditionTypes: new Set(types).size !== types.length,
    allowEmptyConditionType: types.includes(''),
    allowArbitraryCertificate: certificateError(bytesOf(statusOf(old).certificate)) !== undefined,
    allowDuplicateUsages: new Set(usages).size !== usages.length,
    allowUnknownUsages: usages.some((u) => !allValidUsages.includes(u)),
    allowBothApprovedAndDenied: types.includes('Approved') && types.includes('Denied'),
    skipRequestCheck: true,
    allowSettingCertificate: subresource === 'status',
    allowSettingApprovalConditions: subresource === 'approval',
  };
}

export function validateCSR(csr: KubeObject, opts: CSRValidationOptions): FieldError[] {
  const spec = specOf(csr);
  const errs: FieldError[] = [];
  if (!opts.skipRequestCheck) {
    const req = bytesOf(spec.request);
    const err = csrRequestError(req);
    if (err) errs.push(invalid('spec.request', new GoLiteral(goBytes(req)), err));
  }
  const usages = usagesOf(csr);
  if (usages.length === 0) errs.push(required('spec.usages'));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!allValidUsages.includes(u)) errs.push(notSupported(index('spec.usages', i), u, allValidUsages));
    });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(duplicate(index('spec.usages', i), u));
      seen.add(u);
    });
  }
  const signer = typeof spec.signerName === 'string' ? spec.signerName : '';
  if (!opts.allowLegacySignerName && signer === legacyUnknownSignerName) {
    errs.push(invalid('spec.signerName', signer, 'the legacy signerName is not allowed via this API version'));
  } else {
    errs.push(...validateSignerName('spec.signerName', signer));
  }
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600) {
    errs.push(invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errs.push(...validateConditions(csr, opts));
  if (!opts.allowArbitraryCertificate) {
    const err = certificateError(bytesOf(statusOf(csr).certificate));
    if (err) errs.push(invalid('status.certificate', '<certificate data>', err));
  }
  return errs;
}

function validateConditions(csr: KubeObject, opts: CSRValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(csr).forEach((c, i) => {
    const path = index('status.conditions', i);
    const type = typeof c.type === 'string' ? c.type : '';
    const status = typeof c.status === 'string' ? c.status : '';
    if (!opts.allowEmptyConditionType && type === '') errs.push(required(child(path, 'type')));
    const allowed = type === 'Approved' || type === 'Denied' ? ['True'] : ['False', 'True', 'Unknown'];
    if (status === '') errs.push(required(child(path, 'status')));
    else if (!allowed.includes(status)) errs.push(notSupported(child(path, 'status'), status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (type === 'Approved') {
        approved = true;
        if (denied) errs.push(invalid(child(path, 'type'), type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === 'Denied') {
        denied = true;
        if (approved) errs.push(invalid(child(path, 'type'), type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errs.push(duplicate(child(path, 'type'), type));
      seen.add(type);
    }
  });
  return errs;
}

export function validateCSRUpdate(csr: KubeObject, old: KubeObject, opts: CSRValidationOptions): FieldError[] {
  const errs = validateCSR(csr, opts);
  const count = (o: KubeObject, t: string) => conditionsOf(o).filter((c) => c.type === t).length;
  for (const t of ['Approved', 'Denied', 'Failed']) {
    if (count(csr, t) < count(old, t)) errs.push(forbidden('status.conditions', `updates may not remove a condition of type "${t}"`));
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const t of ['Approved', 'Denied']) {
      if (count(csr, t) > count(old, t)) errs.push(forbidden('status.conditions', `updates may not add a condition of type "${t}"`));
    }
  }
  const cert = bytesOf(statusOf(csr).certificate);
  const oldCert = bytesOf(statusOf(old).certificate);
  if (!opts.allowSettingCertificate) {
    if (!cert.equals(oldCert)) errs.push(forbidden('status.certificate', 'updates may not set certificate content'));
  } else if (oldCert.length > 0 && !cert.equals(oldCert)) {
    errs.push(forbidden('status.certificate', 'updates may not modify existing certificate content'));
  }
  return errs;
}

/** apimachinery ValidateSignerName. */
export function validateSignerName(path: string, signerName: string): FieldError[] {
  if (signerName === '') return [required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  const errs: FieldError[] = [];
  if (byteLength(segments[0]) > 253) errs.push(tooLong(path, 253));
  const domainLabels = segments[0].split('.');
  for (const lbl of domainLabels) {
    const e = isDNS1123Label(lbl);
    if (e.length > 0) {
      for (const m of e) errs.push(invalid(path, segments[0], `validating label "${lbl}": ${m}`));
      break;
    }
  }
  if (domainLabels.length < 2) errs.push(invalid(path, segments[0], 'should be a domain with at least two segments separated by dots'));
  for (const lbl of segments[1].split('.')) {
    const e = isDNS1123Subdomain(lbl);
    if (e.length > 0) {
      for (const m of e) errs.push(invalid(path, segments[1], `validating label "${lbl}": ${m}`));
      break;
    }
  }
  // The path may hold a DNS label and a subdomain joined by '.', so the whole name may
  // reach 253 (domain) + 1 + 317 (path) = 571 characters.
  const maxSignerNameLength = 253 + (253 + 63 + 1) + 1;
  if (byteLength(signerName) > maxSignerNameLength) errs.push(tooLong(path, maxSignerNameLength));
  return errs;
}
