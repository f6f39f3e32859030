// Moves objects that earlier versions of this server wrote under group-qualified keys
// (/registry/rbac.authorization.k8s.io/roles/...) to upstream's layout
// (/registry/roles/...). Runs at every start and is idempotent: each key moves in one
// transaction that only succeeds if the old value is unchanged and the new key is
// free, so replicas starting together move every object exactly once and lose none.
// An encrypted value is decrypted under its old key and encrypted again under the new
// one: aesgcm and KMS v2 authenticate the etcd key, so a copied value would not decrypt
// at its new key. One this replica cannot decrypt stays where it is, reported.
import type { Etcd3 } from 'etcd3';
import { storageSegment, type TypeDef } from '../../runtime/scheme.js';
import type { ValueTransformer } from '../value/encryption-at-rest.js';
import { prefixEnd } from './keys.js';

export interface KeyMove { from: string; to: string }

export interface MigrationResult {
  moved: number;
  /** Keys left in place, each with why. */
  refused: Array<{ key: string; reason: string }>;
}

const encryptedPrefix = Buffer.from('k8s:enc:');

/** The value as it must be stored under `to`; throws why it cannot be moved. */
async function resealed(value: Buffer, from: Buffer, to: Buffer, transformer: ValueTransformer | undefined): Promise<Buffer> {
  if (!value.subarray(0, encryptedPrefix.length).equals(encryptedPrefix)) return value;
  const provider = value.subarray(0, value.indexOf(':', encryptedPrefix.length) + 1).toString();
  if (!transformer) {
    throw new Error(`the value is encrypted (${provider}...) and no --encryption-provider-config is given to decrypt it under its old key and encrypt it under the new one`);
  }
  let plain: Buffer;
  try {
    plain = (await transformer.fromStorage(from, value)).data;
  } catch (err) {
    throw new Error(`the value is encrypted (${provider}...) and cannot be decrypted with --encryption-provider-config: ${(err as Error).message}`);
  }
  if (plain.subarray(0, encryptedPrefix.length).equals(encryptedPrefix)) {
    throw new Error(`the value is encrypted (${provider}...) and no provider of --encryption-provider-config covers its resource`);
  }
  return transformer.toStorage(to, plain);
}

/**
 * Where earlier versions of this server kept built-in groups' objects: `<group>/<plural>`.
 * `stored`: the persisted resources, one per storage location.
 */
export function legacyKeyMoves(stored: TypeDef[], prefix: string): KeyMove[] {
  return stored
    .filter((d) => d.group !== '' && storageSegment(d) !== `${d.group}/${d.plural}`)
    .map((d) => ({ from: `${prefix}/${d.group}/${d.plural}/`, to: `${prefix}/${storageSegment(d)}/` }));
}

/** etcd's default --max-txn-ops. */
const maxTxnOps = 128;

/**
 * The moves whose old prefix holds any key, found with count-only ranges in read-only
 * transactions rather than a range per move: nearly every start finds none.
 */
async function pendingMoves(client: Etcd3, moves: KeyMove[]): Promise<KeyMove[]> {
  const pending: KeyMove[] = [];
  for (let i = 0; i < moves.length; i += maxTxnOps) {
    const batch = moves.slice(i, i + maxTxnOps);
    const res = await client.kv.txn({
      compare: [],
      success: batch.map(({ from }) => ({ request_range: { key: Buffer.from(from), range_end: prefixEnd(Buffer.from(from)), count_only: true } })),
      failure: [],
    });
    batch.forEach((m, j) => { if (Number(res.responses[j]?.response_range?.count ?? 1) > 0) pending.push(m); });
  }
  return pending;
}

export async function migrateKeyPrefixes(client: Etcd3, moves: KeyMove[], transformer?: ValueTransformer): Promise<MigrationResult> {
  let moved = 0;
  const refused = new Map<string, string>();
  for (const { from, to } of await pendingMoves(client, moves)) {
    const start = Buffer.from(from);
    let after = start;
    for (;;) {
      const page = await client.kv.range({ key: after, range_end: prefixEnd(start), limit: 500 });
      if (page.kvs.length === 0) break;
      let raced = false;
      for (const kv of page.kvs) {
        const newKey = Buffer.from(to + kv.key.subarray(start.length).toString());
        let value: Buffer;
        try {
          value = await resealed(kv.value, kv.key, newKey, transformer);
        } catch (err) {
          refused.set(kv.key.toString(), (err as Error).message);
          continue;
        }
        const res = await client.kv.txn({
          compare: [{ key: kv.key, target: 'Mod', result: 'Equal', mod_revision: kv.mod_revision }],
          success: [{
            request_txn: {
              compare: [{ key: newKey, target: 'Create', result: 'Equal', create_revision: 0 }],
              // The new key is free: the object moves. Taken (another replica moved it,
              // or it was written anew since): the old copy is only dropped.
              success: [{ request_put: { key: newKey, value, lease: kv.lease } }, { request_delete_range: { key: kv.key } }],
              failure: [{ request_delete_range: { key: kv.key } }],
            },
          }],
          failure: [],
        });
        if (res.succeeded && res.responses[0]?.response_txn?.succeeded) moved++;
        // Changed since it was read: the page is read again and the key retried.
        if (!res.succeeded) raced = true;
      }
      // Refused keys stay where they are: the next page starts after this one.
      if (!raced) after = Buffer.concat([page.kvs[page.kvs.length - 1]!.key, Buffer.from([0])]);
    }
  }
  return { moved, refused: [...refused].map(([key, reason]) => ({ key, reason })) };
}
