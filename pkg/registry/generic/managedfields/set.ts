// A set of field paths stored as a trie, the shape of a FieldsV1 document: each node
// has members (paths ending here) and children (paths continuing). A node is never
// kept empty, so equality of sets is equality of tries.
import { compareElements, elementKey, parseElementKey, type Path, type PathElement } from './path.js';

interface Child { pe: PathElement; set: FieldSet }

const noMembers: ReadonlyMap<string, PathElement> = new Map();
const noChildren: ReadonlyMap<string, Child> = new Map();

export class FieldSet {
  // Made on first use: most nodes have members or children, not both, and every write
  // makes a few dozen sets (the comparison's three, their unions and differences, the
  // owners' sets), each with two Maps when empty ones were made up front.
  private members?: Map<string, PathElement>;
  private children?: Map<string, Child>;
  /**
   * The FieldsV1 document this set was read from, while it is unchanged: an owner whose
   * fields a write does not touch keeps its document instead of having it rebuilt (read
   * only, like every object the store hands around).
   */
  private document?: Record<string, unknown>;

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  private get memberMap(): ReadonlyMap<string, PathElement> {
    return this.members ?? noMembers;
  }

  private get childMap(): ReadonlyMap<string, Child> {
    return this.children ?? noChildren;
  }

  private putMember(k: string, pe: PathElement): void {
    (this.members ??= new Map()).set(k, pe);
  }

  private putChild(k: string, c: Child): void {
    (this.children ??= new Map()).set(k, c);
  }

  /** Adds `path`; its elements are kept, the array is not (callers may reuse it). */
  insert(path: Path): void {
    if (path.length === 0) return;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    let node: FieldSet = this;
    for (let i = 0; ; i++) {
      node.document = undefined;
      const pe = path[i];
      const k = elementKey(pe);
      if (i === path.length - 1) {
        node.putMember(k, pe);
        return;
      }
      let c = node.children?.get(k);
      if (!c) {
        c = { pe, set: new FieldSet() };
        node.putChild(k, c);
      }
      node = c.set;
    }
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    const k = elementKey(path[0]);
    if (path.length === 1) return this.memberMap.has(k);
    return this.children?.get(k)?.set.has(path.slice(1)) ?? false;
  }

  hasMember(pe: PathElement): boolean {
    return this.memberMap.has(elementKey(pe));
  }

  child(pe: PathElement): FieldSet | undefined {
    return this.children?.get(elementKey(pe))?.set;
  }

  isEmpty(): boolean {
    return this.memberMap.size === 0 && this.childMap.size === 0;
  }

  /** Direct children that are themselves members or have descendants. */
  childElements(): PathElement[] {
    return [...this.childMap.values()].map((c) => c.pe);
  }

  memberElements(): PathElement[] {
    return [...this.memberMap.values()];
  }

  addMember(pe: PathElement): void {
    this.document = undefined;
    this.putMember(elementKey(pe), pe);
  }

  setChild(pe: PathElement, set: FieldSet): void {
    this.document = undefined;
    if (set.isEmpty()) this.children?.delete(elementKey(pe));
    else this.putChild(elementKey(pe), { pe, set });
  }

  clone(): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.memberMap) out.putMember(k, pe);
    for (const [k, c] of this.childMap) out.putChild(k, { pe: c.pe, set: c.set.clone() });
    return out;
  }

  /**
   * Members and children of either set. With one side empty the answer is the other set
   * itself, as difference() answers this set when nothing is taken away: a write's
   * changed fields are mostly added (a create) or mostly modified (an update), and the
   * result was a copy of the other side's whole trie.
   */
  union(o: FieldSet): FieldSet {
    if (o.isEmpty()) return this;
    if (this.isEmpty()) return o;
    const out = new FieldSet();
    for (const [k, pe] of this.memberMap) out.putMember(k, pe);
    for (const [k, pe] of o.memberMap) out.putMember(k, pe);
    for (const [k, c] of this.childMap) {
      const oc = o.children?.get(k);
      out.putChild(k, { pe: c.pe, set: oc ? c.set.union(oc.set) : c.set.clone() });
    }
    for (const [k, c] of o.childMap) if (!this.childMap.has(k)) out.putChild(k, { pe: c.pe, set: c.set.clone() });
    return out;
  }

  /**
   * Members and children of this set that are not in `o` (node by node, not by prefix).
   * When `o` takes nothing away, the answer is this set itself.
   */
  difference(o: FieldSet): FieldSet {
    if (!this.overlaps(o)) return this;
    const out = new FieldSet();
    for (const [k, pe] of this.memberMap) if (!o.memberMap.has(k)) out.putMember(k, pe);
    for (const [k, c] of this.childMap) {
      const oc = o.children?.get(k);
      out.setChild(c.pe, oc ? c.set.difference(oc.set) : c.set.clone());
    }
    return out;
  }

  /** Whether every member of `o` is a member of this set. */
  covers(o: FieldSet): boolean {
    for (const k of o.memberMap.keys()) if (!this.memberMap.has(k)) return false;
    for (const [k, oc] of o.childMap) {
      const c = this.children?.get(k);
      if (!c || !c.set.covers(oc.set)) return false;
    }
    return true;
  }

  /** Whether a member of `o` is a member of this set at the same place. */
  overlaps(o: FieldSet): boolean {
    for (const k of o.memberMap.keys()) if (this.memberMap.has(k)) return true;
    for (const [k, oc] of o.childMap) {
      const c = this.children?.get(k);
      if (c && c.set.overlaps(oc.set)) return true;
    }
    return false;
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.memberMap) if (o.memberMap.has(k)) out.putMember(k, pe);
    for (const [k, c] of this.childMap) {
      const oc = o.children?.get(k);
      if (oc) out.setChild(c.pe, c.set.intersection(oc.set));
    }
    return out;
  }

  /** Like difference, but a member of `o` also removes everything below it. */
  recursiveDifference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.memberMap) if (!o.memberMap.has(k)) out.putMember(k, pe);
    for (const [k, c] of this.childMap) {
      if (o.memberMap.has(k)) continue;
      const oc = o.children?.get(k);
      out.setChild(c.pe, oc ? c.set.recursiveDifference(oc.set) : c.set.clone());
    }
    return out;
  }

  equals(o: FieldSet): boolean {
    return JSON.stringify(this.toFieldsV1()) === JSON.stringify(o.toFieldsV1());
  }

  /** Every path of the set, in smd's order. */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = [];
    for (const pe of this.sortedElements()) {
      const k = elementKey(pe);
      if (this.memberMap.has(k)) out.push([...prefix, pe]);
      const c = this.children?.get(k);
      if (c) out.push(...c.set.paths([...prefix, pe]));
    }
    return out;
  }

  private sortedElements(): PathElement[] {
    const all = new Map<string, PathElement>(this.memberMap);
    for (const [k, c] of this.childMap) all.set(k, c.pe);
    return [...all.values()].sort(compareElements);
  }

  /** The FieldsV1 document: `.` marks a node that is both a member and has children. */
  toFieldsV1(): Record<string, unknown> {
    if (this.document) return this.document;
    const out: Record<string, unknown> = {};
    for (const pe of this.sortedElements()) {
      const k = elementKey(pe);
      const c = this.children?.get(k);
      if (!c) { out[k] = {}; continue; }
      const inner = c.set.toFieldsV1();
      out[k] = this.memberMap.has(k) ? { '.': {}, ...inner } : inner;
    }
    return out;
  }

  /**
   * `stored`: the document is one this server wrote (a live object's), so in the form
   * toFieldsV1 gives; a client's may not be, and is written back as toFieldsV1 puts it.
   */
  static fromFieldsV1(doc: unknown, stored = false): FieldSet {
    const s = new FieldSet();
    fill(s, doc);
    if (stored) s.document = doc as Record<string, unknown>;
    return s;
  }
}

function fill(s: FieldSet, doc: unknown): void {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new Error('expected an object in FieldsV1');
  }
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    if (k === '.') continue;
    const pe = parseElementKey(k);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error(`expected an object for ${JSON.stringify(k)} in FieldsV1`);
    const entries = Object.keys(v as Record<string, unknown>);
    if (entries.length === 0 || entries.includes('.')) s.addMember(pe);
    if (entries.some((e) => e !== '.')) {
      const child = new FieldSet();
      fill(child, v);
      s.setChild(pe, child);
    }
  }
}
