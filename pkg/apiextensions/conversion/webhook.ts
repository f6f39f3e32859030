// Strategy Webhook (upstream's webhookConverter): the objects not yet in the desired
// version go to the CRD's webhook in one ConversionReview; each answer is checked (same
// count, desired apiVersion, same kind and identity) and gets the original's metadata
// back, except labels and annotations.
import { randomUUID } from 'node:crypto';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { requestURL, unexpectedStatus, WebhookClient, type Endpoint, type WebhookResponse } from '../../util/webhook/client.js';
import { resolveClientConfig, type ClientConfig, type ResolvedClientConfig } from '../../util/webhook/endpoint.js';
import { ConversionError, gvkString } from './errors.js';
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

  constructor(private readonly webhook: WebhookConversion, deps: ConverterDeps) {
    const cc = webhook.clientConfig ?? {};
    this.target = resolveClientConfig(cc, deps.services);
    this.client = new WebhookClient(cc.caBundle);
    this.timeoutSeconds = deps.webhookTimeoutSeconds ?? defaultConversionTimeoutSeconds;
  }

  async convert(objects: KubeObject[], toAPIVersion: string, opts: ConvertOptions = {}): Promise<KubeObject[]> {
    // An object with nothing but apiVersion and kind converts to an empty object (upstream
    // special-cases the cacher's probe of exactly that rather than bother the webhook).
    const out = objects.map((o) => (isTypeMetaOnly(o) ? relabel(o, toAPIVersion) : o));
    const pending = out.flatMap((o, i) => (o.apiVersion === toAPIVersion ? [] : [i]));
    const asList = isListCall(objects, opts);
    const subject = asList
      ? gvkString(toAPIVersion, opts.listKind ?? `${objects[0]?.kind ?? ''}List`)
      : gvkString(objects[0]?.apiVersion, objects[0]?.kind);
    const version = negotiateReviewVersion(this.webhook.conversionReviewVersions);
    if (!version) throw new ConversionError('no supported conversion review versions');
    if (pending.length === 0) return out;

    const uid = randomUUID();
    const sent = pending.map((i) => out[i]!);
    const res = await this.call(subject, reviewRequest(version, uid, toAPIVersion, sent));
    let answered: unknown[];
    try {
      answered = convertedObjects(version, uid, res.status, res.contentType, res.body);
    } catch (err) {
      if (err instanceof ReviewError) throw new ConversionError(`conversion webhook for ${subject} failed: ${err.message}`);
      throw err;
    }
    if (answered.length !== sent.length) {
      throw new ConversionError(`conversion webhook for ${subject} returned ${answered.length} objects, expected ${sent.length}`);
    }
    const check = asList ? listChecks : singleChecks;
    pending.forEach((at, n) => { out[at] = accept(sent[n]!, answered[n], n, toAPIVersion, `conversion webhook for ${subject}`, check); });
    return out;
  }

  close(): void {
    this.client.close();
  }

  /** POSTs the review; every failure before a usable 2xx answer in client-go's words. */
  private async call(subject: string, body: string): Promise<WebhookResponse> {
    const failed = (why: string) => new ConversionError(`conversion webhook for ${subject} failed: ${why}`);
    let ep: Endpoint;
    try {
      ep = this.target.endpoint();
    } catch (err) {
      // Upstream resolves a service when dialling, so Go's client reports it for the POST.
      throw failed(`Post "${requestURL(this.target.url, this.timeoutSeconds)}": ${(err as Error).message}`);
    }
    let res: WebhookResponse;
    try {
      res = await this.client.post(ep, body, this.timeoutSeconds);
    } catch (err) {
      throw failed((err as Error).message);
    }
    if (res.status < 200 || res.status > 206) throw failed(unexpectedStatus(res).message);
    return res;
  }
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
