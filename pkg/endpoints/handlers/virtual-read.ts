// GET of a computed resource (componentstatuses): objects made on each read, never
// stored. A list honours label and field selectors like any other list.
import type { VirtualRead } from '../../registry/rest/resource.js';
import { matcherFor } from '../../registry/generic/predicate.js';
import { parseListQuery } from './query.js';
import { writeObject } from './response.js';
import type { HandlerScope } from './scope.js';
import { selectionFor } from './selectors.js';

export function virtualReadHandler(read: VirtualRead): (h: HandlerScope) => Promise<void> {
  return async (h) => {
    if (h.info.verb === 'get') {
      writeObject(h, 200, await read.get(h.info.name, { user: h.user, query: h.query }));
      return;
    }
    const matches = matcherFor(h.def, selectionFor(h.def, parseListQuery(h.query)));
    const items = (await read.list()).filter(matches);
    writeObject(h, 200, { kind: `${h.def.kind}List`, apiVersion: h.def.group ? `${h.def.group}/${h.def.version}` : h.def.version, metadata: {}, items });
  };
}
