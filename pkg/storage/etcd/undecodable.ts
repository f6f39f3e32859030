// Values in etcd that no codec could read, by key: logged once each and reported by
// /readyz?verbose, so an operator learns which key is damaged instead of seeing a replica
// that silently never syncs. The value itself is left alone (never overwritten).

const seen = new Map<string, string>();
let log: (key: string, reason: string) => void = () => {};

/** Where reports go (the server's logger). */
export function setUndecodableLogger(fn: (key: string, reason: string) => void): void {
  log = fn;
}

export function reportUndecodable(key: string, reason: string): void {
  if (seen.get(key) === reason) return;
  seen.set(key, reason);
  log(key, reason);
}

/** Keys whose values failed to decode, with the reason, oldest first. */
export function undecodableValues(): Array<{ key: string; reason: string }> {
  return [...seen].map(([key, reason]) => ({ key, reason }));
}
