// Moves objects that earlier versions of this server wrote under group-qualified keys
// (/registry/rbac.authorization.k8s.io/roles/...) to upstream's layout
// (/registry/roles/...). Runs at every start and is idempotent: each key moves in one
// transaction that only succeeds if the old value is unchanged and the new key is
// free, so replicas starting together move every object exactly once and lose none.
import type { Etcd3 } from 'etcd3';
import { storageSegment, type TypeDef } from '../../runtime/scheme.js';
import { prefixEnd } from './keys.js';

export interface KeyMove { from: string; to: string }

/**
 * Where earlier versions of this server kept built-in groups' objects: `<group>/<plural>`.
 * `stored`: the persisted resources, one per storage location.
 */
export function legacyKeyMoves(stored: TypeDef[], prefix: string): KeyMove[] {
  return stored
    .filter((d) => d.group !== '' && storageSegment(d) !== `${d.group}/${d.plural}`)
    .map((d) => ({ from: `${prefix}/${d.group}/${d.plural}/`, to: `${prefix}/${storageSegment(d)}/` }));
}

export async function migrateKeyPrefixes(client: Etcd3, moves: KeyMove[]): Promise<number> {
  let moved = 0;
  for (const { from, to } of moves) {
    const start = Buffer.from(from);
    for (;;) {
      const page = await client.kv.range({ key: start, range_end: prefixEnd(start), limit: 500 });
      if (page.kvs.length === 0) break;
      for (const kv of page.kvs) {
        const newKey = Buffer.from(to + kv.key.subarray(start.length).toString());
        const res = await client.kv.txn({
          compare: [{ key: kv.key, target: 'Mod', result: 'Equal', mod_revision: kv.mod_revision }],
          success: [{
            request_txn: {
              compare: [{ key: newKey, target: 'Create', result: 'Equal', create_revision: 0 }],
              // The new key is free: the object moves. Taken (another replica moved it,
              // or it was written anew since): the old copy is only dropped.
              success: [{ request_put: { key: newKey, value: kv.value, lease: kv.lease } }, { request_delete_range: { key: kv.key } }],
              failure: [{ request_delete_range: { key: kv.key } }],
            },
          }],
          failure: [],
        });
        if (res.succeeded && res.responses[0]?.response_txn?.succeeded) moved++;
      }
    }
  }
  return moved;
}
