// The service IP and node port repair loop as a controller (upstream runs the
// ipallocator and portallocator Repair controllers under the apiserver's leader loops).
import type { Logger } from 'pino';
import type { AllocationRepair } from '../../registry/core/services/allocator/repair.js';
import type { Controller } from '../manager.js';

/** upstream's repair interval. */
const defaultIntervalMs = 3 * 60_000;

/** Runs the repair at start and then every `intervalMs`, in the elected replica only. */
export function allocationRepairController(repair: AllocationRepair, log: Logger, intervalMs = defaultIntervalMs): Controller {
  return {
    name: 'service-allocation-repair',
    start() {
      let stopped = false;
      const run = (): void => {
        repair.runOnce().catch((err: Error) => {
          if (!stopped) log.warn({ err: err.message }, 'service allocation repair failed; retrying at the next interval');
        });
      };
      run();
      const timer = setInterval(run, intervalMs);
      return () => { stopped = true; clearInterval(timer); };
    },
  };
}
