// The request's query, parsed once: the filters (request info, deadline, APF, metrics, the
// request line) and the handler each read it, and parsed apiece it was five or six
// URLSearchParams a request. Nothing changes it once parsed (every reader only gets), and it
// is parsed again if a filter rewrites the target's query.
interface Parsed { querystring: string; query: URLSearchParams }

const parsedKey = 'requestQueryParsed';

export interface QueryHolder {
  readonly querystring: string;
  readonly state: Record<string, unknown>;
}

/** `new URLSearchParams(ctx.querystring)`, shared by everything that reads this request's query. */
export function requestQuery(ctx: QueryHolder): URLSearchParams {
  const querystring = ctx.querystring;
  const memo = ctx.state[parsedKey] as Parsed | undefined;
  if (memo && memo.querystring === querystring) return memo.query;
  const query = new URLSearchParams(querystring);
  ctx.state[parsedKey] = { querystring, query } satisfies Parsed;
  return query;
}
