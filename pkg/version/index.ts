export { createVersionHandler, kubernetesUserAgent, platform, versionInfo, type VersionInfo } from './version.js';
