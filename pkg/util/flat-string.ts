// A string as one flat piece. V8 keeps a string built with `+` or a template (13 characters
// or more) as a tree of its pieces (a cons string), flattened only when something reads it
// whole. A string kept for a long time (a watch's, for its life) is cheaper to the collector
// as one object than as a tree it marks again at every major GC.

/** `s` copied into one flat string (UTF-8 round trip: any well-formed string comes back equal). */
export function flatString(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}
