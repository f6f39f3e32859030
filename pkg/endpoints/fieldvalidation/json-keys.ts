// Where each object key of a JSON document sits, with the paths upstream's strict
// decoder prints (`spec.template.spec.containers[0].name`, `[1].path` for a list at the
// top) and whether it repeats a key of the same object. The text must be valid JSON.

export interface KeyOccurrence {
  path: string;
  /** The key already appeared earlier in the same object. */
  duplicate: boolean;
  /** Position in document order. */
  order: number;
}

function join(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key;
}

export function scanJsonKeys(text: string): KeyOccurrence[] {
  const out: KeyOccurrence[] = [];
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const readString = (): string => {
    const start = i;
    i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') { i += 2; continue; }
      i++;
      if (c === '"') break;
    }
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        ws();
        const key = readString();
        const p = join(path, key);
        out.push({ path: p, duplicate: seen.has(key), order: out.length });
        seen.add(key);
        ws();
        i++; // ':'
        value(p);
        ws();
        if (text[i] === ',') { i++; continue; }
        i++; // '}'
        return;
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') { i++; return; }
      for (let n = 0; ; n++) {
        value(`${path}[${n}]`);
        ws();
        if (text[i] === ',') { i++; continue; }
        i++; // ']'
        return;
      }
    }
    if (c === '"') { readString(); return; }
    while (i < text.length && !',]} \t\r\n'.includes(text[i])) i++;
  };
  value('');
  return out;
}
