import { expect } from 'chai';
import { allFlags, flagSections } from '../options.js';
import { helpText } from './help.js';

const upstreamSections = ['Generic', 'Etcd', 'Secure serving', 'Auditing', 'Features', 'Authentication', 'Authorization',
  'Cloud provider', 'Api enablement', 'Egress selector', 'Admission', 'Metrics', 'Logs', 'Traces', 'Misc', 'Global'];

/** The help's sections: title -> its flag lines. */
function sections(help: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const block of help.split(/\n(?=[A-Z][a-z -]+ flags:\n)/).slice(1)) {
    const [title, , ...lines] = block.split('\n');
    out.set(title.replace(/ flags:$/, ''), lines.filter(Boolean));
  }
  return out;
}

describe('kube-apiserver --help', () => {
  const help = helpText(flagSections);
  const bySection = sections(help);

  it('starts with the description and the usage line, then upstream v1.28\'s sections in its order, ours last', () => {
    expect(help).to.match(/\n\nUsage:\n {2}kube-apiserver \[flags\]\n\nGeneric flags:\n\n/);
    expect([...bySection.keys()]).to.deep.equal([...upstreamSections, 'Controller manager', 'Non-upstream', 'Shadow mode']);
  });

  it('lists every accepted flag once, deprecated ones hidden as pflag hides them', () => {
    const listed = [...help.matchAll(/^ {2}(?:-\w, | {4})--([a-z0-9-]+)/gm)].map((m) => m[1]);
    const expected = allFlags.filter((f) => !f.deprecated).map((f) => f.name);
    expect([...listed].sort()).to.deep.equal([...expected].sort());
    expect(new Set(allFlags.map((f) => f.name)).size).to.equal(allFlags.length);
    expect(listed).to.not.include('admission-control');
    expect(allFlags.find((f) => f.name === 'admission-control')?.deprecated).to.be.a('string');
  });

  it('prints pflag\'s line layout: sorted names, type words, defaults, usage aligned at widest + 3', () => {
    for (const [title, lines] of bySection) {
      const names = lines.map((l) => /--([a-z0-9-]+)/.exec(l)![1]);
      expect(names, title).to.deep.equal([...names].sort());
      const lefts = lines.map((l) => /^( {2}-\w, --\S+| {6}--\S+)( \S+)?/.exec(l)![0]);
      const column = Math.max(...lefts.map((l) => l.length)) + 3;
      lines.forEach((l, i) => {
        expect(l.slice(lefts[i].length, column).trim(), l).to.equal('');
        expect(l[column], l).to.not.equal(' ');
      });
    }
    const line = (name: string) => help.split('\n').find((l) => new RegExp(`--${name}( |$)`).test(l))!;
    expect(line('etcd-prefix')).to.match(/^ {6}--etcd-prefix string +\S.* \(default "\/registry"\)$/);
    expect(line('watch-cache')).to.match(/^ {6}--watch-cache +\S.* \(default true\)$/);
    expect(line('authorization-mode')).to.match(/^ {6}--authorization-mode strings +\S.* \(default \[AlwaysAllow\]\)$/);
    expect(line('etcd-compaction-interval')).to.match(/\(default 5m0s\)$/);
    expect(line('shutdown-send-retry-after')).to.not.match(/default/);
    expect(line('v')).to.match(/^ {2}-v, --v Level +\S/);
    expect(line('help')).to.match(/^ {2}-h, --help +help for kube-apiserver$/);
    expect(line('version')).to.match(/^ {6}--version version\[=true\] +--version, --version=raw prints version information and quits/);
    expect(line('tls-sni-cert-key')).to.match(/ \(default \[\]\)$/);
  });

  it('holds envtest\'s flags, which controller-runtime looks for in this text before passing them', () => {
    for (const name of ['service-cluster-ip-range', 'allow-privileged', 'disable-admission-plugins', 'cert-dir', 'authorization-mode',
      'secure-port', 'bind-address', 'service-account-issuer', 'service-account-key-file', 'service-account-signing-key-file',
      'etcd-servers', 'client-ca-file', 'advertise-address']) {
      expect(help, name).to.match(new RegExp(`--${name} `));
    }
    expect(help).to.not.match(/--insecure-port/);
  });
});
