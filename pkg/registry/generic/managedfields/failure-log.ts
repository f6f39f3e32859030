// Where a write whose managed fields could not be computed is reported. Upstream logs
// these ("[SHOULD NOT HAPPEN] failed to update managedFields") at most once a second
// and lets the write through; the server points this at its logger.
export interface ManagedFieldsFailure {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  error: string;
}

let log: (f: ManagedFieldsFailure) => void = () => {};
let lastLoggedAt = 0;

export function setManagedFieldsFailureLogger(fn: (f: ManagedFieldsFailure) => void): void {
  log = fn;
}

export function reportManagedFieldsFailure(f: ManagedFieldsFailure): void {
  const now = Date.now();
  if (now - lastLoggedAt < 1000) return;
  lastLoggedAt = now;
  log(f);
}
