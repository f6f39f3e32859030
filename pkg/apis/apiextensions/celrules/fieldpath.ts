// A rule's fieldPath (upstream's ValidFieldPath): a JSON path of `.name` and `['name']`
// steps through properties and additionalProperties of the rule's schema, normalized to
// the field path errors are reported at.
import { isPlainObject } from '../../../runtime/object.js';
import { child, key } from '../../validation/field.js';
import type { JSONSchemaProps } from '../types.js';

export type FieldPathResult = { path: string; error?: undefined } | { path?: undefined; error: string };

/** Splits into `.`, `[`, `]` and the text between them; single-quoted strings stay whole. */
function tokens(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === '\'') {
      let j = i + 1;
      while (j < s.length && !(s[j] === '\'' && s[j - 1] !== '\\')) j++;
      out.push(s.slice(i, Math.min(j + 1, s.length)));
      i = j + 1;
      continue;
    }
    if (s[i] === '.' || s[i] === '[' || s[i] === ']') { out.push(s[i]!); i++; continue; }
    let j = i;
    while (j < s.length && !'.[]'.includes(s[j]!) && s[j] !== '\'') j++;
    if (j === i) j++;
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}

const escapes: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\'': '\'', '\\': '\\' };

export function validFieldPath(jsonPath: string, schema: JSONSchemaProps): FieldPathResult {
  let path = '';
  let s: JSONSchemaProps | undefined = schema;
  const step = (name: string): string | undefined => {
    if (!s) return 'does not refer to a valid field';
    if (isPlainObject(s.properties)) {
      path = child(path, name);
      const next = (s.properties as Record<string, unknown>)[name];
      if (!isPlainObject(next)) return 'does not refer to a valid field';
      s = next as JSONSchemaProps;
      return undefined;
    }
    if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
      path = key(path, name);
      s = isPlainObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined;
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  const toks = tokens(jsonPath);
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!;
    if (tok === '[') {
      const q = toks[++i];
      if (q === undefined) return { error: 'unexpected end of JSON path' };
      if (q.length < 2 || q[0] !== '\'' || q[q.length - 1] !== '\'') return { error: `expected single quoted string but got ${q}` };
      let bad: string | undefined;
      const name = q.slice(1, -1).replace(/\\./g, (m) => {
        const r = escapes[m[1]!];
        if (r === undefined) bad ??= m;
        return r ?? '';
      });
      if (bad) return { error: `invalid string literal: invalid escape char ${bad}` };
      const err = step(name);
      if (err) return { error: err };
      const close = toks[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = toks[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const err = step(name);
      if (err) return { error: err };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path };
}
