// `kubectl get flowschemas` / `prioritylevelconfigurations`, as upstream prints them
// (every column typed "string" even where the cell is a number).
import { column, humanAge, type TableConvertor } from '../../runtime/table.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (isPlainObject(v) ? v : {});

const docs = {
  name: 'Name must be unique within a namespace.',
  age: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  plRefName: '`name` is the name of the priority level configuration being referenced Required.',
  matchingPrecedence: '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.',
  distinguisherMethod: '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.',
  type: '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.',
  nominalConcurrencyShares: '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server\'s concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level. This field has a default value of 30.',
  queues: '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.',
  handSize: '`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request\'s flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.',
  queueLengthLimit: '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.',
};

const precedence = (obj: KubeObject): number => {
  const v = o(obj.spec).matchingPrecedence;
  return typeof v === 'number' ? v : 0;
};

export const flowSchemaTable: TableConvertor = {
  columns: [
    column('Name', 'string', docs.name),
    column('PriorityLevel', 'string', docs.plRefName),
    column('MatchingPrecedence', 'string', docs.matchingPrecedence),
    column('DistinguisherMethod', 'string', docs.distinguisherMethod),
    column('Age', 'string', docs.age),
    column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  cells: (obj) => {
    const spec = o(obj.spec);
    const dm = o(spec.distinguisherMethod).type;
    const conditions = Array.isArray(o(obj.status).conditions) ? (o(obj.status).conditions as unknown[]).map(o) : [];
    const dangling = conditions.find((c) => c.type === 'Dangling');
    return [
      obj.metadata.name ?? '',
      String(o(spec.priorityLevelConfiguration).name ?? ''),
      precedence(obj),
      isPlainObject(spec.distinguisherMethod) ? String(dm ?? '') : '<none>',
      humanAge(obj.metadata.creationTimestamp),
      dangling ? String(dangling.status ?? '') : '?',
    ];
  },
  // Upstream lists schemas in the order they are matched: by precedence, then name.
  sortRows: (a, b) => precedence(a) - precedence(b) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
};

export const priorityLevelTable: TableConvertor = {
  columns: [
    column('Name', 'string', docs.name),
    column('Type', 'string', docs.type),
    column('NominalConcurrencyShares', 'string', docs.nominalConcurrencyShares),
    column('Queues', 'string', docs.queues),
    column('HandSize', 'string', docs.handSize),
    column('QueueLengthLimit', 'string', docs.queueLengthLimit),
    column('Age', 'string', docs.age),
  ],
  cells: (obj) => {
    const spec = o(obj.spec);
    const limited = isPlainObject(spec.limited) ? spec.limited : undefined;
    const queuing = limited && isPlainObject(o(limited.limitResponse).queuing) ? o(o(limited.limitResponse).queuing) : undefined;
    const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
    return [
      obj.metadata.name ?? '',
      String(spec.type ?? ''),
      limited ? num(limited.nominalConcurrencyShares ?? limited.assuredConcurrencyShares) : '<none>',
      queuing ? num(queuing.queues) : '<none>',
      queuing ? num(queuing.handSize) : '<none>',
      queuing ? num(queuing.queueLengthLimit) : '<none>',
      humanAge(obj.metadata.creationTimestamp),
    ];
  },
};
