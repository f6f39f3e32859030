// randomUUID() as one flat string. Node builds its UUIDs with `+`, which V8 keeps as a tree
// of string pieces (a cons string: about 16 objects and 480 bytes for 36 characters). An
// audit ID lives as long as its request, and at 1,000 nodes a replica's ten thousand
// watches each held such a tree for the collector to mark again at every major GC.
import { randomUUID } from 'node:crypto';
import { flatString } from './flat-string.js';

export function flatRandomUUID(): string {
  return flatString(randomUUID());
}
