// How conversion failures reach the client. Upstream's converters return plain Go errors,
// which the apiserver answers as a Status of code 500 with no reason (kubectl prints
// "Error from server: conversion webhook for ..."); one typed error carries that here.
import { StatusError } from '../../runtime/errors.js';

export class ConversionError extends StatusError {
  constructor(message: string) {
    super(500, '', message);
    this.name = 'ConversionError';
  }
}

/** Go's GroupVersionKind.String() for an object's apiVersion and kind: `group/version, Kind=Kind`. */
export function gvkString(apiVersion: string | undefined, kind: string | undefined): string {
  const av = apiVersion ?? '';
  return `${av.includes('/') ? av : `/${av}`}, Kind=${kind ?? ''}`;
}

/** Go's %T of a value decoded from JSON into interface{}, for upstream's type-mismatch texts. */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'string': return 'string';
    case 'boolean': return 'bool';
    case 'number': return Number.isInteger(v) ? 'int64' : 'float64';
    default: return 'map[string]interface {}';
  }
}
