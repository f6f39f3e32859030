// The modes in order, as the union authorizer tries them: everyone any mode allows. A
// mode that allows everyone ends the walk, as it ends every decision.
import { mergeSubjects, noSubjects, type Action, type AllowedSubjects, type SubjectLocator } from './interfaces.js';
import { alwaysAllowLocator } from './modes.js';

export class UnionSubjectLocator implements SubjectLocator {
  constructor(private readonly members: SubjectLocator[]) {}

  async allowedSubjects(action: Action): Promise<AllowedSubjects> {
    const out = noSubjects();
    for (const m of this.members) {
      mergeSubjects(out, await m.allowedSubjects(action));
      if (m === alwaysAllowLocator) break;
    }
    return out;
  }
}
