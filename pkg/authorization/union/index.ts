// Modes in order; the first allow or deny decides; all no-opinion is no opinion.
import type { Attributes, Authorizer, Decision } from '../interfaces.js';

export class UnionAuthorizer implements Authorizer {
  readonly name = 'union';
  constructor(private readonly members: Authorizer[]) {}

  async authorize(attrs: Attributes): Promise<Decision> {
    const reasons: string[] = [];
    const errs: string[] = [];
    for (const a of this.members) {
      const d = await a.authorize(attrs);
      if (d.decision !== 'noOpinion') return d;
      if (d.reason) reasons.push(d.reason);
      if (d.error) errs.push(d.error);
    }
    return { decision: 'noOpinion', reason: reasons.join('\n'), error: errs.length ? errs.join(', ') : undefined };
  }
}
