// The authorization seam: request attributes in, allow / deny / no opinion out.
import type { UserInfo } from '../authentication/user.js';

export interface Attributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** Non-resource requests: the URL path. */
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
}

export type Decision =
  | { decision: 'allow'; reason: string }
  | { decision: 'deny'; reason: string }
  | { decision: 'noOpinion'; reason: string; error?: string };

export interface Authorizer {
  readonly name: string;
  authorize(attrs: Attributes): Promise<Decision>;
}
