// How etcd3 treats a failing etcd member. Its default puts a circuit breaker in front of
// each member that opens after 3 consecutive "recoverable" errors of any kind (a busy
// member's "request timed out" or "too many requests" included) and refuses every call to
// that member for 5 s. Upstream's Go client has no breaker: it retries and fails over
// between members. With one member there is nothing to fail over to, so an open breaker
// only turns a slow burst into 5 s of 503s for every request of the replica (what the
// 200-node cluster load hit). Here:
//  - one member: no breaker, every call goes to etcd and fails or succeeds on its own;
//  - several members: a member is skipped for a while only after it failed to take calls
//    (UNAVAILABLE: refused, no leader, timed out), and never when every other member is
//    skipped too, so the last member standing is always tried.
import { CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen, noop, type CircuitBreakerPolicy, type IDefaultPolicyContext, type IPolicy } from 'cockatiel';
import { GRPCUnavailableError, type IOptions } from 'etcd3';

/** Consecutive failures that open a member's breaker, and how long it stays open. */
export const memberBreakerSettings = { failures: 3, openMs: 5_000 };

const memberUnavailable = (err: Error): boolean => err instanceof GRPCUnavailableError;

/** A member's breaker, bypassed while every member's breaker is open. */
class MemberBreaker implements IPolicy {
  declare readonly _altReturn: never;
  readonly breaker: CircuitBreakerPolicy;

  constructor(private readonly members: MemberBreaker[]) {
    this.breaker = circuitBreaker(handleWhen(memberUnavailable), {
      halfOpenAfter: memberBreakerSettings.openMs, breaker: new ConsecutiveBreaker(memberBreakerSettings.failures),
    });
  }

  get onSuccess() { return this.breaker.onSuccess; }
  get onFailure() { return this.breaker.onFailure; }

  execute<T>(fn: (context: IDefaultPolicyContext) => PromiseLike<T> | T, signal?: AbortSignal): Promise<T> {
    if (this.members.every((m) => m.breaker.state === CircuitState.Open)) {
      return Promise.resolve().then(() => fn({ signal: signal ?? new AbortController().signal }));
    }
    return this.breaker.execute(fn, signal);
  }
}

/** etcd3's `faultHandling.host` for a client of these members. */
export function memberFaultHandling(endpoints: string[]): NonNullable<IOptions['faultHandling']> {
  if (endpoints.length <= 1) return { host: () => noop };
  const members: MemberBreaker[] = [];
  return {
    host: () => {
      const m = new MemberBreaker(members);
      members.push(m);
      return m;
    },
  };
}
