// client-go's NewGenericServerResponse: how an answer that carries no Status becomes one,
// when we are the client (the kubelet behind pods/log and exec, an admission or conversion
// webhook). One table for every caller, since client-go has one.
import { qualifiedResource, StatusError, type GroupResource, type StatusReason } from './errors.js';

export interface GenericResponse {
  code: number;
  /** The HTTP method; POST makes a 409 AlreadyExists, and it is named in the message. */
  verb?: string;
  resource?: GroupResource;
  name?: string;
  /** The body's text; kept where it says what the caller needs (403, 406, 415, 5xx). */
  serverMessage: string;
}

const fixed: Record<number, [StatusReason, string]> = {
  400: ['BadRequest', 'the server rejected our request for an unknown reason'],
  401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
  404: ['NotFound', 'the server could not find the requested resource'],
  405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
};

function reasonAndMessage(code: number, verb: string, serverMessage: string): [StatusReason, string] {
  const known = fixed[code];
  if (known) return known;
  switch (code) {
    case 409: return [verb === 'POST' ? 'AlreadyExists' : 'Conflict', 'the server reported a conflict'];
    case 403: return ['Forbidden', serverMessage];
    case 415: return ['UnsupportedMediaType', serverMessage];
    case 406:
      return ['NotAcceptable', serverMessage === '' || serverMessage === 'unknown'
        ? 'the server was unable to respond with a content type that the client supports' : serverMessage];
    default:
      if (code >= 500) return ['InternalError', `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`];
      return ['', `the server responded with the status code ${code} but did not return more information`];
  }
}

export function genericServerResponse(r: GenericResponse): StatusError {
  const verb = r.verb ?? '';
  const [reason, base] = reasonAndMessage(r.code, verb, r.serverMessage);
  // Its details are always set, so they show (`{}`) even with nothing in them.
  if (!r.resource?.resource) return new StatusError(r.code, reason, base, {});
  const what = r.name ? `${qualifiedResource(r.resource)} ${r.name}` : qualifiedResource(r.resource);
  return new StatusError(r.code, reason, `${base} (${verb.toLowerCase()} ${what})`, { group: r.resource.group, kind: r.resource.resource, name: r.name });
}
