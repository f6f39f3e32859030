// Upstream's "admission" flag set (AdmissionOptions): which plugins run and their
// configuration file.
import { enabledAdmissionPlugins, isKnownAdmissionPlugin } from '../../admission/ordered.js';
import type { FlagSection, FlagValues } from '../flags.js';

export interface AdmissionOptions {
  /** --enable-admission-plugins / --disable-admission-plugins (names as upstream's). */
  enableAdmissionPlugins: string[];
  disableAdmissionPlugins: string[];
  /** --admission-control-config-file: an AdmissionConfiguration naming each plugin's configuration. */
  admissionControlConfigFile?: string;
}

export const admissionSection: FlagSection<AdmissionOptions> = {
  name: 'admission',
  flags: [
    { name: 'admission-control', type: 'strings', usage: 'Admission plugins, in one list.', notImplemented: true,
      deprecated: 'Use --enable-admission-plugins or --disable-admission-plugins instead. Will be removed in a future version.' },
    { name: 'admission-control-config-file', type: 'string', usage: 'AdmissionConfiguration file giving plugins their configuration.' },
    { name: 'disable-admission-plugins', type: 'strings', usage: 'Admission plugins to turn off, default ones included; order does not matter.' },
    { name: 'enable-admission-plugins', type: 'strings', usage: 'Admission plugins to run besides the default ones; order does not matter.' },
  ],
  read(f: FlagValues): AdmissionOptions {
    const enable = f.list('enable-admission-plugins');
    const disable = f.list('disable-admission-plugins');
    for (const [flag, names] of [['enable-admission-plugins', enable], ['disable-admission-plugins', disable]] as const) {
      for (const p of names) {
        if (!isKnownAdmissionPlugin(p)) throw new Error(`${flag} plugin ${JSON.stringify(p)} is unknown`);
      }
    }
    // Throws upstream's message for a plugin both enabled and disabled.
    enabledAdmissionPlugins(enable, disable);
    return { enableAdmissionPlugins: enable, disableAdmissionPlugins: disable, admissionControlConfigFile: f.string('admission-control-config-file') };
  },
};
