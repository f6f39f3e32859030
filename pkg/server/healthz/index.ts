export { HealthRegistry, type HealthCheck, type HealthEndpoint, type HealthRegistryOptions, type PostStartHook } from './registry.js';
export { createHealthHandler, type HealthHandler, type HealthHandlerOptions } from './handler.js';
export { createInformerSyncCheck, createLogCheck, createShutdownCheck, namedCheck, pingCheck, type ShutdownCheck } from './checks.js';
