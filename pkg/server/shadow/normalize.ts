// What legitimately differs between two servers' answers to one read, taken out before
// comparing: when each manager last wrote (managedFields times), the revision a list was
// read at (the two reads happen at different moments), the order of list items, which
// upstream does not promise, and each server's own address in discovery
// (serverAddressByClientCIDRs).
import { isPlainObject } from '../../runtime/object.js';

export function normalizeAnswer(body: unknown): unknown {
  if (!isPlainObject(body)) return body;
  const out: Record<string, unknown> = { ...body };
  delete out.serverAddressByClientCIDRs;
  if (Array.isArray(out.groups)) out.groups = out.groups.map((g) => normalizeAnswer(g));
  if (isPlainObject(out.metadata)) out.metadata = normalizeMeta(out.metadata, Array.isArray(out.items));
  if (Array.isArray(out.items)) {
    out.items = out.items.map((i) => normalizeAnswer(i)).sort((a, b) => itemKey(a).localeCompare(itemKey(b)));
  }
  return out;
}

function normalizeMeta(meta: Record<string, unknown>, isList: boolean): Record<string, unknown> {
  const out = { ...meta };
  if (isList) {
    delete out.resourceVersion;
    delete out.continue;
  }
  if (Array.isArray(out.managedFields)) {
    out.managedFields = out.managedFields.map((e) => {
      if (!isPlainObject(e)) return e;
      const { time: _t, ...rest } = e;
      return rest;
    });
  }
  return out;
}

function itemKey(item: unknown): string {
  const m = isPlainObject(item) && isPlainObject(item.metadata) ? item.metadata : {};
  return `${String(m.namespace ?? '')}/${String(m.name ?? '')}`;
}

/** JSON pointer of the first place two values differ, or undefined when equal. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (a === b) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}/${i}`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const d = firstDifference(a[k], b[k], `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return path || '/';
}
