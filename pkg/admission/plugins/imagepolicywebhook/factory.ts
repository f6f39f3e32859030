// The plugin as the admission configuration file describes it.
import type { PluginConfig } from '../../config.js';
import { httpsReviewBackend } from './backend.js';
import { parseImagePolicyConfig } from './config.js';
import { ImagePolicyWebhook } from './index.js';

/** A bad configuration stops the server, worded as upstream's plugin initialisation. */
export function imagePolicyWebhookFromConfig(config: PluginConfig | undefined): ImagePolicyWebhook {
  try {
    const cfg = parseImagePolicyConfig(config);
    return new ImagePolicyWebhook(cfg, httpsReviewBackend(cfg.kubeConfigFile));
  } catch (err) {
    throw new Error(`couldn't init admission plugin "ImagePolicyWebhook": ${(err as Error).message}`);
  }
}
