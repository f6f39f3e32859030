import { expect } from 'chai';
import { parseCommand, parseOptions } from './options.js';

describe('kube-apiserver command line', () => {
  it('-h and --help ask for help before anything else is validated, --version and --version=raw for the version', () => {
    expect(parseCommand(['-h'])).to.deep.equal({ action: 'help' });
    expect(parseCommand(['--help', '--authorization-mode=Nope'])).to.deep.equal({ action: 'help' });
    expect(parseCommand(['--version'])).to.deep.equal({ action: 'version', raw: false });
    expect(parseCommand(['--version=true'])).to.deep.equal({ action: 'version', raw: false });
    expect(parseCommand(['--version=raw'])).to.deep.equal({ action: 'version', raw: true });
    expect(parseCommand(['--version=false']).action).to.equal('run');
    expect(() => parseCommand(['--version=maybe'])).to.throw('invalid argument "maybe" for "--version" flag: strconv.ParseBool: parsing "maybe": invalid syntax');
  });

  it('refuses a flag upstream v1.28 does not have, in pflag\'s words, even beside -h', () => {
    expect(() => parseCommand(['--foo'])).to.throw('unknown flag: --foo');
    expect(() => parseCommand(['--foo=bar', '-h'])).to.throw('unknown flag: --foo');
    expect(() => parseCommand(['--insecure-port=0'])).to.throw('unknown flag: --insecure-port');
    expect(() => parseCommand(['-x'])).to.throw("unknown shorthand flag: 'x' in -x");
    expect(() => parseCommand(['-etcd-servers=http://x'])).to.throw("unknown shorthand flag: 'e' in -etcd-servers=http://x");
    expect(() => parseCommand(['--etcd-prefix'])).to.throw('flag needs an argument: --etcd-prefix');
    expect(() => parseCommand(['serve'])).to.throw('"kube-apiserver" does not take any arguments, got ["serve"]');
  });

  it('accepts upstream\'s flags it does not implement, naming them for the start-up warning', () => {
    const c = parseCommand(['--profiling=false', '--allow-privileged=true', '--etcd-servers=http://127.0.0.1:2379', '--admission-control=AlwaysAdmit']);
    expect(c.action).to.equal('run');
    if (c.action !== 'run') return;
    expect(c.options.ignoredFlags).to.have.members(['profiling', 'allow-privileged', 'admission-control']);
    expect(c.warnings).to.deep.equal(['Flag --admission-control has been deprecated, Use --enable-admission-plugins or --disable-admission-plugins instead. Will be removed in a future version.']);
    expect(parseOptions(['--etcd-servers=http://127.0.0.1:2379']).ignoredFlags).to.deep.equal([]);
  });

  it('takes -v as pflag does: -v=4, -v4, -v 4, --v=4', () => {
    for (const argv of [['-v=4'], ['-v4'], ['-v', '4'], ['--v=4']]) expect(parseOptions(argv).logLevel, argv.join(' ')).to.equal('debug');
  });

  it('reads an absent flag as its declared default', () => {
    const o = parseOptions([]);
    expect(o).to.include({ etcdPrefix: '/registry', securePort: 6443, certDir: '/var/run/kubernetes', etcdCompactionIntervalMs: 300_000, eventTTLSeconds: 3600 });
    expect(o.authorizationModes).to.deep.equal(['AlwaysAllow']);
    expect(o.audit).to.deep.equal({ policyFile: undefined });
    const audit = parseOptions(['--audit-webhook-config-file=/w']).audit.webhook!;
    expect(audit.mode).to.equal('batch');
    expect(audit.batch).to.deep.equal({ bufferSize: 10000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15 });
    expect(parseOptions(['--audit-webhook-config-file=/w', '--audit-webhook-batch-throttle-qps=2.5']).audit.webhook!.batch.throttleQPS).to.equal(2.5);
    expect(() => parseOptions(['--audit-webhook-config-file=/w', '--audit-webhook-batch-throttle-qps=fast']))
      .to.throw('invalid argument "fast" for "--audit-webhook-batch-throttle-qps" flag: strconv.ParseFloat: parsing "fast": invalid syntax');
    expect(parseOptions(['--shadow-fraction=0.25']).shadowFraction).to.equal(0.25);
    expect(() => parseOptions(['--shadow-fraction=half'])).to.throw('invalid argument "half" for "--shadow-fraction" flag: strconv.ParseFloat: parsing "half": invalid syntax');
    expect(() => parseOptions(['--shadow-fraction=1.5'])).to.throw('invalid argument "1.5" for "--shadow-fraction" flag: must be between 0 and 1');
  });

  it('takes --goaway-chance from 0 to 0.02 and --http2-max-streams-per-connection 0 as 250, as upstream', () => {
    expect(parseOptions([]).goawayChance).to.equal(0);
    expect(parseOptions(['--goaway-chance=0.02']).goawayChance).to.equal(0.02);
    expect(() => parseOptions(['--goaway-chance=0.03'])).to.throw('--goaway-chance can not be less than 0 or greater than 0.02');
    expect(() => parseOptions(['--goaway-chance=-0.01'])).to.throw('--goaway-chance can not be less than 0 or greater than 0.02');
    expect(() => parseOptions(['--goaway-chance=abc'])).to.throw('invalid argument "abc" for "--goaway-chance" flag: strconv.ParseFloat: parsing "abc": invalid syntax');
    expect(parseOptions([]).http2MaxStreamsPerConnection).to.equal(250);
    expect(parseOptions(['--http2-max-streams-per-connection=1000']).http2MaxStreamsPerConnection).to.equal(1000);
  });
});
