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

/** RFC 3339 with second precision, as metav1.Time serializes. */
export function nowTimestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}
