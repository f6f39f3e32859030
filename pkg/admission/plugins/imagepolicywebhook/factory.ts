// The plugin as the admission configuration file describes it.
import type { PluginConfig } from '../../config.js';
import { httpsReviewBackend } from './backend.js';
import { parseImagePolicyConfig } from './config.js';
import { ImagePolicyWebhook } from './index.js';

export function imagePolicyWebhookFromConfig(config: PluginConfig | undefined): ImagePolicyWebhook {
  const cfg = parseImagePolicyConfig(config);
  return new ImagePolicyWebhook(cfg, httpsReviewBackend(cfg.kubeConfigFile));
}
