// YAML bodies as upstream's YAML decoding sees them: a repeated key is not a syntax
// error but a strict-decoding issue reported with its line ("line 12: key \"paused\"
// already set in map"), and the later value wins.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { errors } from '../../runtime/errors.js';
import { yamlDocumentValue } from '../negotiation/yaml-value.js';

export interface YamlBody {
  value: unknown;
  /** One line per repeated key, in document order. */
  duplicateLines: string[];
}

export function decodeYamlBody(text: string, errorPrefix = 'error converting YAML to JSON: '): YamlBody {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, lineCounter });
  if (doc.errors.length > 0) throw errors.badRequest(`${errorPrefix}${doc.errors[0].message}`);
  const duplicateLines: string[] = [];
  const walk = (node: unknown): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = pair.key as Node | null;
        const name = isScalar(key) ? String(key.value) : JSON.stringify(key);
        if (seen.has(name)) {
          const offset = key?.range?.[0] ?? 0;
          duplicateLines.push(`line ${lineCounter.linePos(offset).line}: key ${JSON.stringify(name)} already set in map`);
        }
        seen.add(name);
        walk(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item);
    }
  };
  walk(doc.contents);
  return { value: yamlDocumentValue(doc, errorPrefix), duplicateLines };
}
