// What `/version` reports. We claim upstream v1.28.3 (the same build as the kubectl
// v1.28.3 this project tests with; gitCommit, buildDate and goVersion are that binary's,
// as `kubectl version --client -o json` prints them), so version-skew checks see 1.28.
import type { Context } from 'koa';
import { goJson } from '../runtime/serializer/json/go-escapes.js';

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

const goArch: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' };

/** Platform in Go's GOOS/GOARCH spelling, e.g. linux/amd64. */
export function platform(os: string = process.platform, arch: string = process.arch): string {
  return `${os === 'win32' ? 'windows' : os}/${goArch[arch] ?? arch}`;
}

export const versionInfo: VersionInfo = Object.freeze({
  major: '1',
  minor: '28',
  gitVersion: 'v1.28.3',
  gitCommit: 'a8a1abc25cad87333840cd7d54be2efaf31a3177',
  gitTreeState: 'clean',
  buildDate: '2023-10-18T11:42:52Z',
  goVersion: 'go1.20.10',
  compiler: 'gc',
  platform: platform(),
});

/** Serves GET /version the way upstream does: indented JSON (MarshalIndent, Go's escapes) without a trailing newline. */
export function createVersionHandler(info: VersionInfo = versionInfo): (ctx: Context) => Promise<boolean> {
  return async (ctx) => {
    if (ctx.path !== '/version' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
    ctx.status = 200;
    ctx.body = goJson(info, true);
    ctx.set('Content-Type', 'application/json');
    return true;
  };
}

/** Upstream's DefaultKubernetesUserAgent: `kube-apiserver/v1.28.3 (linux/amd64) kubernetes/a8a1abc`. */
export function kubernetesUserAgent(command: string, info: VersionInfo = versionInfo): string {
  return `${command}/${info.gitVersion} (${info.platform}) kubernetes/${info.gitCommit.slice(0, 7)}`;
}

/** Go's %#v of version.Info, as `kube-apiserver --version=raw` prints it. */
export function goVersionStruct(info: VersionInfo): string {
  const q = JSON.stringify;
  return `version.Info{Major:${q(info.major)}, Minor:${q(info.minor)}, GitVersion:${q(info.gitVersion)}, GitCommit:${q(info.gitCommit)}, `
    + `GitTreeState:${q(info.gitTreeState)}, BuildDate:${q(info.buildDate)}, GoVersion:${q(info.goVersion)}, Compiler:${q(info.compiler)}, Platform:${q(info.platform)}}`;
}
