export { createVersionHandler, platform, versionInfo, type VersionInfo } from './version.js';
