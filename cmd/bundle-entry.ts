// Entry of the single-file build (hack/bundle.ts, dist/bundle/kube-apiserver.cjs). Both
// parts load lazily: `command` runs kube-apiserver's command line; `loadServer` only
// evaluates the server's modules, which the build does once to record V8's code cache.
export const command = (): Promise<{ serving: Promise<void> }> => import('./apiserver.js');
export const loadServer = (): Promise<unknown> => import('../pkg/server/server.js');
