// Which cached resource a key belongs to: the root (key prefix) a watch cache serves.

/**
 * The longest of `roots` that `key` (as a directory: with a trailing '/') starts with, so
 * `services/specs/` wins over a shorter root. Every root ends in '/', so only the key's
 * prefixes up to each of its slashes can be one: a few lookups, not a scan of every
 * resource's root (about 1 us a read or write with the built-in resources).
 */
export function longestRoot(roots: ReadonlySet<string>, key: string): string | undefined {
  const k = key.endsWith('/') ? key : `${key}/`;
  for (let i = k.length - 1; i >= 0; i = k.lastIndexOf('/', i - 1)) {
    const prefix = i === k.length - 1 ? k : k.slice(0, i + 1);
    if (roots.has(prefix)) return prefix;
    if (i === 0) break;
  }
  return undefined;
}
