import { randomInt } from 'node:crypto';

// Upstream's alphabet for generated name suffixes: no vowels (no accidental words) and
// no look-alike characters.
const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
const suffixLength = 5;
const maxGeneratedNameLength = 63;

export function generateName(base: string): string {
  const trimmed = base.length > maxGeneratedNameLength - suffixLength
    ? base.slice(0, maxGeneratedNameLength - suffixLength) : base;
  let suffix = '';
  for (let i = 0; i < suffixLength; i++) suffix += alphabet[randomInt(alphabet.length)];
  return trimmed + suffix;
}

// Every write stamps a time (managed fields, creation): formatted once per second.
let stampedSecond = -1;
let stamp = '';

/** RFC 3339 with second precision, as metav1.Time serializes. */
export function nowTimestamp(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== stampedSecond) {
    stamp = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    stampedSecond = second;
  }
  return stamp;
}
