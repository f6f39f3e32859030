// Strategy Webhook (upstream's webhookConverter): the objects not yet in the desired
// version go to the CRD's webhook in one ConversionReview; each answer is checked (same
// count, desired apiVersion, same kind and identity) and gets the original's metadata
// back, except labels and annotations.
import { randomUUID } from 'node:crypto';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { requestURL, unexpectedStatus, WebhookClient, type Endpoint, type WebhookResponse } from '../../util/webhook/client.js';
import { resolveClientConfig, type ClientConfig, type ResolvedClientConfig } from '../../util/webhook/endpoint.js';
import { ConversionError, gvkString } from './errors.js';
import { conversionMetrics, type ConversionFailureType, type ConversionMetrics } from './metrics.js';
import { identityChange, MetadataError, restoreObjectMeta } from './metadata.js';
import { relabel } from './nop.js';
import { convertedObjects, negotiateReviewVersion, reviewRequest, ReviewError } from './review.js';
import { isListCall, type Converter, type ConverterDeps, type ConvertOptions } from './types.js';

/** Upstream's webhook client timeout for conversion calls. */
export const defaultConversionTimeoutSeconds = 30;

export interface WebhookConversion {
  clientConfig?: ClientConfig;
  conversionReviewVersions?: string[];
}

export class WebhookConverter implements Converter {
  private readonly target: ResolvedClientConfig;
  private readonly client: WebhookClient;
  private readonly timeoutSeconds: number;
  private readonly metrics: ConversionMetrics | undefined;

  constructor(private readonly crdName: string, private readonly webhook: WebhookConversion, deps: ConverterDeps) {
    const cc = webhook.clientConfig ?? {};
    this.target = resolveClientConfig(cc, deps.services);
    this.client = new WebhookClient(cc.caBundle);
    this.timeoutSeconds = deps.webhookTimeoutSeconds ?? defaultConversionTimeoutSeconds;
    this.metrics = deps.metricsRegistry ? conversionMetrics(deps.metricsRegistry) : undefined;
  }

  async convert(objects: KubeObject[], toAPIVersion: string, opts: ConvertOptions = {}): Promise<KubeObject[]> {
    const asList = isListCall(objects, opts);
    // Upstream names what it was handed: the list (in the version asked for) or the object.
    const from = asList ? toAPIVersion : objects[0]?.apiVersion ?? '';
    const subject = gvkString(from, asList ? opts.listKind ?? `${objects[0]?.kind ?? ''}List` : objects[0]?.kind);
    const started = performance.now();
    let succeeded = false;
    try {
      const out = await this.convertAs(objects, toAPIVersion, `conversion webhook for ${subject}`, asList ? listChecks : singleChecks);
      succeeded = true;
      return out;
    } finally {
      const [fromVersion, toVersion] = [versionOf(from), versionOf(toAPIVersion)];
      if (fromVersion !== toVersion) this.metrics?.conversion(this.crdName, fromVersion, toVersion, (performance.now() - started) / 1000, succeeded);
    }
  }

  close(): void {
    this.client.close();
  }

  private async convertAs(objects: KubeObject[], toAPIVersion: string, prefix: string, checks: Checks): Promise<KubeObject[]> {
    // An object with nothing but apiVersion and kind converts to an empty object (upstream
    // special-cases the cacher's probe of exactly that rather than bother the webhook).
    const out = objects.map((o) => (isTypeMetaOnly(o) ? relabel(o, toAPIVersion) : o));
    const pending = out.flatMap((o, i) => (o.apiVersion === toAPIVersion ? [] : [i]));
    const version = negotiateReviewVersion(this.webhook.conversionReviewVersions);
    if (!version) throw new ConversionError('no supported conversion review versions');
    if (pending.length === 0) return out;

    const uid = randomUUID();
    const sent = pending.map((i) => out[i]!);
    const started = performance.now();
    const observe = (failure?: ConversionFailureType) => this.metrics?.call((performance.now() - started) / 1000, failure);
    let answered: unknown[];
    try {
      const res = await this.post(reviewRequest(version, uid, toAPIVersion, sent));
      answered = convertedObjects(version, uid, res.status, res.contentType, res.body);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      observe(err instanceof ReviewError && !err.undecodable ? 'conversion_webhook_malformed_response_failure' : 'conversion_webhook_call_failure');
      throw new ConversionError(`${prefix} failed: ${why}`);
    }
    if (answered.length !== sent.length) {
      observe('conversion_webhook_partial_response_failure');
      throw new ConversionError(`${prefix} returned ${answered.length} objects, expected ${sent.length}`);
    }
    try {
      pending.forEach((at, n) => { out[at] = accept(sent[n]!, answered[n], n, toAPIVersion, prefix, checks); });
    } catch (err) {
      observe('conversion_webhook_invalid_converted_object_failure');
      throw err;
    }
    observe();
    return out;
  }

  /** POSTs the review; rejects with client-go's words for every failure before a 2xx answer. */
  private async post(body: string): Promise<WebhookResponse> {
    let ep: Endpoint;
    try {
      ep = this.target.endpoint();
    } catch (err) {
      // Upstream resolves a service when dialling, so Go's client reports it for the POST.
      throw new Error(`Post "${requestURL(this.target.url, this.timeoutSeconds)}": ${(err as Error).message}`);
    }
    const res = await this.client.post(ep, body, this.timeoutSeconds);
    if (res.status < 200 || res.status > 206) throw new Error(unexpectedStatus(res).message);
    return res;
  }
}

/** The version of an apiVersion ("group/version" or "version"). */
function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.indexOf('/') + 1);
}

/** Upstream words a list's item errors and a single object's differently. */
interface Checks {
  /** `index` counts from 0 here... */
  unparsable(prefix: string, index: number, why: string): string;
  /** ...and from 1 in the rest (upstream counts on before checking). */
  mismatch(prefix: string, index: number, why: string): string;
  identity(prefix: string, index: number, why: string): string;
  metadata(prefix: string, index: number, why: string): string;
}

const listChecks: Checks = {
  unparsable: (p, i, why) => `${p} returned invalid converted object at index ${i}: ${why}`,
  mismatch: (p, i, why) => `${p} returned invalid converted object at index ${i}: ${why}`,
  identity: (p, i, why) => `${p} returned invalid converted object at index ${i}: ${why}`,
  metadata: (p, i, why) => `${p} returned invalid metadata in object at index ${i}: ${why}`,
};

const singleChecks: Checks = {
  // Returned bare, without naming the webhook.
  unparsable: (_p, _i, why) => why,
  mismatch: (p, _i, why) => `${p} returned invalid object at index 0: ${why}`,
  identity: (p, _i, why) => `${p} returned invalid object: ${why}`,
  metadata: (p, _i, why) => `${p} returned invalid metadata: ${why}`,
};

function accept(original: KubeObject, answer: unknown, n: number, toAPIVersion: string, prefix: string, c: Checks): KubeObject {
  const unparsable = unstructuredError(answer);
  if (unparsable !== undefined) throw new ConversionError(c.unparsable(prefix, n, unparsable));
  const obj = answer as Record<string, unknown> & { kind: string };
  const position = n + 1;
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  if (apiVersion !== toAPIVersion) {
    throw new ConversionError(c.mismatch(prefix, position, `invalid groupVersion (expected ${toAPIVersion}, received ${apiVersion})`));
  }
  if (obj.kind !== original.kind) {
    throw new ConversionError(c.mismatch(prefix, position, `invalid kind (expected ${original.kind ?? ''}, received ${obj.kind})`));
  }
  const changed = identityChange(original, obj);
  if (changed) throw new ConversionError(c.identity(prefix, position, changed));
  try {
    return restoreObjectMeta(original, obj);
  } catch (err) {
    if (err instanceof MetadataError) throw new ConversionError(c.metadata(prefix, position, err.message));
    throw err;
  }
}

/** Why an answered item is no object to client-go's unstructured decoder, if it is not. */
function unstructuredError(answer: unknown): string | undefined {
  if (answer !== null && !isPlainObject(answer)) {
    const type = Array.isArray(answer) ? 'array' : typeof answer === 'boolean' ? 'bool' : typeof answer;
    return `json: cannot unmarshal ${type} into Go value of type map[string]interface {}`;
  }
  if (answer === null || typeof answer.kind !== 'string' || answer.kind === '') return `Object 'Kind' is missing in '${JSON.stringify(answer)}'`;
  return undefined;
}

function isTypeMetaOnly(o: KubeObject): boolean {
  const keys = Object.keys(o);
  return keys.length === 2 && 'apiVersion' in o && 'kind' in o;
}
