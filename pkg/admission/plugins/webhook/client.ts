// The admission side of a webhook call's failure; the HTTPS client itself is shared with
// CRD conversion webhooks (pkg/util/webhook).
import type { StatusError } from '../../../runtime/errors.js';

/** A transport-level failure (upstream's ErrCallingWebhook): failurePolicy decides. */
export class CallingWebhookError extends Error {
  constructor(readonly webhookName: string, readonly reason: string, readonly status: StatusError) {
    super(`failed calling webhook "${webhookName}": ${reason}`);
  }
}
