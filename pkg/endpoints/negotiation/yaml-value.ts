// A parsed YAML document's JSON value, refusing what go-yaml refuses instead of failing
// later with a 500: an anchor whose own value holds an alias to it (`a: &a [*a]`, a cyclic
// value with no JSON form; JavaScript would build it and overflow the stack on it) and
// "billion laughs" alias expansion (the yaml package's alias-count guard).
import { visit, type Document } from 'yaml';
import { errors } from '../../runtime/errors.js';

export function yamlDocumentValue(doc: Document, errorPrefix: string): unknown {
  const cyclic = selfContainingAnchor(doc);
  if (cyclic !== undefined) throw errors.badRequest(`${errorPrefix}yaml: anchor '${cyclic}' value contains itself`);
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw errors.badRequest(`${errorPrefix}yaml: document contains excessive aliasing (${(err as Error).message})`);
  }
}

function selfContainingAnchor(doc: Document): string | undefined {
  let found: string | undefined;
  visit(doc, {
    Alias(_, node, path) {
      if (path.includes(node.resolve(doc) as never)) {
        found = node.source;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}
