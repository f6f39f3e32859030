// Before the configuration informer has listed once, the plugin cannot know which
// webhooks exist; upstream waits up to 10 seconds, then refuses the request.
import { errors } from '../../../runtime/errors.js';
import { syncedWithin } from '../../../util/resolved-within.js';
import type { AdmissionAttributes } from '../../interfaces.js';
import type { WebhookConfigurations } from './source.js';

const readyWaitMs = 10_000;

export async function waitForReady(source: WebhookConfigurations, attrs: AdmissionAttributes): Promise<void> {
  if (!await syncedWithin(source, readyWaitMs)) throw errors.forbidden({ group: attrs.group, resource: attrs.resource }, attrs.name, 'not yet ready to handle request');
}
