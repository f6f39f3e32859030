// Work a resource does beside its own storage write (upstream: the generic Store's
// BeginCreate, BeginUpdate and AfterDelete), e.g. services claiming cluster IPs and node
// ports. A begin hook may change the object before it is written; the finish function it
// returns learns whether the write happened, so the hook can undo its work if not.
import type { KubeObject } from '../../runtime/object.js';

export type FinishFunc = (success: boolean) => Promise<void>;

export interface WriteHooks {
  /** After validation and admission, before the write; on dry run, claims nothing. */
  beginCreate?(obj: KubeObject, dryRun: boolean): Promise<FinishFunc>;
  beginUpdate?(obj: KubeObject, old: KubeObject, dryRun: boolean): Promise<FinishFunc>;
  /** After the object left storage. */
  afterDelete?(obj: KubeObject): Promise<void>;
}
