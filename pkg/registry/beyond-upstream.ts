// API groups this server serves beyond kube-apiserver v1.28's surface. None collides
// with an upstream group; the parity checks against upstream's OpenAPI leave them out.
import { historyGroup } from './history/index.js';
import { openshiftAuthorizationGroup } from './openshiftauthorization/index.js';

export const beyondUpstreamGroups: ReadonlySet<string> = new Set([openshiftAuthorizationGroup, historyGroup]);
