// Tells who listens (the server's etcd_bookmark_counts) of every etcd progress
// notification a watch of the storage layer receives, by the watched key.
let observer: ((key: string) => void) | undefined;

export function setProgressObserver(fn: ((key: string) => void) | undefined): void {
  observer = fn;
}

export function reportProgress(key: string): void {
  observer?.(key);
}
