// --admission-control-config-file: an AdmissionConfiguration whose `plugins` entries give
// each plugin its configuration, inline or in a file named by `path` (a relative path is
// resolved against the AdmissionConfiguration's own directory, as upstream does).
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

/** What one plugin was configured with, and where relative names inside it are resolved. */
export interface PluginConfig {
  configuration: unknown;
  /** The directory of the file the configuration came from. */
  baseDir: string;
}

const acceptedVersions = new Set(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1alpha1', 'apiserver.k8s.io/v1alpha1']);

/** Reads the file once at start; a bad file is a startup error naming the file. */
export function readAdmissionConfiguration(file: string | undefined): Map<string, PluginConfig> {
  const out = new Map<string, PluginConfig>();
  if (!file) return out;
  const doc = parseFile(file) as { apiVersion?: string; kind?: string; plugins?: unknown };
  if (doc?.kind !== 'AdmissionConfiguration' || !acceptedVersions.has(doc.apiVersion ?? '')) {
    throw new Error(`admission-control-config-file ${file}: expected kind AdmissionConfiguration in apiserver.config.k8s.io/v1, got ${doc?.apiVersion ?? ''} ${doc?.kind ?? ''}`.trimEnd());
  }
  const baseDir = dirname(resolve(file));
  for (const entry of (Array.isArray(doc.plugins) ? doc.plugins : []) as Array<Record<string, unknown>>) {
    const name = typeof entry?.name === 'string' ? entry.name : '';
    if (!name) throw new Error(`admission-control-config-file ${file}: a plugins entry has no name`);
    if (typeof entry.path === 'string' && entry.path !== '') {
      const path = isAbsolute(entry.path) ? entry.path : resolve(baseDir, entry.path);
      out.set(name, { configuration: parseFile(path), baseDir: dirname(path) });
    } else if (entry.configuration !== undefined) {
      out.set(name, { configuration: entry.configuration, baseDir });
    }
  }
  return out;
}

function parseFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`unable to read admission control configuration from ${JSON.stringify(path)} [${(err as Error).message}]`);
  }
  try {
    return parseYaml(text);
  } catch (err) {
    throw new Error(`unable to decode ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
}
