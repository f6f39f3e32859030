export { createVersionHandler, goVersionStruct, kubernetesUserAgent, platform, versionInfo, type VersionInfo } from './version.js';
