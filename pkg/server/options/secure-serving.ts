// Upstream's "secure serving" flag set (SecureServingOptions): the listener and its TLS.
import type { TlsOptions } from 'node:tls';
import { parseSNICertKey, parseTLSCipherSuites, parseTLSMinVersion, type SNICertKey } from '../tls-options.js';
import type { FlagSection, FlagValues } from '../flags.js';

export interface SecureServingOptions {
  securePort: number;
  bindAddress: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  certDir: string;
  /** --http2-max-streams-per-connection, 0 already replaced by the default (250). */
  http2MaxStreamsPerConnection: number;
  /** --tls-min-version, --tls-cipher-suites, --tls-sni-cert-key in Node's terms. */
  tls: { minVersion: TlsOptions['minVersion']; ciphers?: string; sniCertKeys: SNICertKey[] };
}

export const secureServingSection: FlagSection<SecureServingOptions> = {
  name: 'secure serving',
  flags: [
    // Upstream's default: every interface. Tests and `make run` pass 127.0.0.1.
    { name: 'bind-address', type: 'ip', default: '0.0.0.0', usage: 'IP address to listen on for --secure-port; 0.0.0.0 or :: for all interfaces.' },
    { name: 'cert-dir', type: 'string', default: '/var/run/kubernetes', usage: 'Directory of the serving pair apiserver.crt/apiserver.key (generated self-signed when absent); ignored with --tls-cert-file.' },
    { name: 'http2-max-streams-per-connection', type: 'int', default: '0', usage: 'Concurrent HTTP/2 streams a client may open per connection (SETTINGS_MAX_CONCURRENT_STREAMS); 0 or less: Go\'s default, 250.' },
    { name: 'permit-address-sharing', type: 'bool', usage: 'Bind with SO_REUSEADDR.', notImplemented: true },
    { name: 'permit-port-sharing', type: 'bool', usage: 'Bind with SO_REUSEPORT, so several processes share the port.', notImplemented: true },
    { name: 'secure-port', type: 'int', default: '6443', usage: 'Port to serve HTTPS on (0: pick a free port).' },
    { name: 'tls-cert-file', type: 'string', usage: 'Serving certificate (PEM), followed by its intermediates.' },
    { name: 'tls-cipher-suites', type: 'strings', usage: 'TLS 1.2 cipher suites to offer, by Go\'s names; default: Node\'s AEAD suites with forward secrecy.' },
    { name: 'tls-min-version', type: 'string', usage: 'Lowest TLS version accepted: VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13.' },
    { name: 'tls-private-key-file', type: 'string', usage: 'Private key of --tls-cert-file (PEM).' },
    { name: 'tls-sni-cert-key', type: 'namedCertKey', default: '[]', usage: 'certfile,keyfile[:name,*.wildcard] served by SNI name; repeatable.' },
  ],
  read(f: FlagValues): SecureServingOptions {
    const securePort = f.int('secure-port');
    if (securePort < 0 || securePort > 65535) throw new Error(`--secure-port ${securePort} must be between 0 and 65535, inclusive`);
    const tlsCertFile = f.string('tls-cert-file');
    const tlsPrivateKeyFile = f.string('tls-private-key-file');
    if (Boolean(tlsCertFile) !== Boolean(tlsPrivateKeyFile)) throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
    const maxStreams = f.int('http2-max-streams-per-connection');
    return {
      securePort,
      // Upstream sets the value only when positive; otherwise Go's http2 default, 250.
      http2MaxStreamsPerConnection: maxStreams > 0 ? Math.min(maxStreams, 0xffffffff) : 250,
      bindAddress: f.string('bind-address')!,
      tlsCertFile,
      tlsPrivateKeyFile,
      certDir: f.string('cert-dir')!,
      tls: {
        minVersion: parseTLSMinVersion(f.string('tls-min-version')),
        ciphers: parseTLSCipherSuites(f.list('tls-cipher-suites')),
        sniCertKeys: f.array('tls-sni-cert-key').map(parseSNICertKey),
      },
    };
  },
};
