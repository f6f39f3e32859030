// podSpecDiff against go-cmp's rules. The expected texts were derived by hand from
// go-cmp's reporter (context records, elision counts, type names on differing
// composites, verbosity limits, column alignment); only the fixture-shaped case was
// checked against real upstream output (test/integration surface sweep).
import { expect } from 'chai';
import { podSpecDiff } from './diff.js';

const base = {
  containers: [{ name: 'c', image: 'x', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }],
  restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', securityContext: {},
};
const lines = (...l: string[]): string => `${l.join('\n')}\n`;

describe('podSpecDiff (go-cmp report of core.PodSpec)', () => {
  it('is empty for equal specs', () => {
    expect(podSpecDiff(base, structuredClone(base))).to.equal('');
  });

  it('a changed scalar: -/+ records, two records of context, the rest elided', () => {
    expect(podSpecDiff(base, { ...base, dnsPolicy: 'Default' })).to.equal(lines(
      '  core.PodSpec{',
      '  \t... // 5 identical fields',
      '  \tTerminationGracePeriodSeconds: nil,',
      '  \tActiveDeadlineSeconds:         nil,',
      '- \tDNSPolicy:                     "ClusterFirst",',
      '+ \tDNSPolicy:                     "Default",',
      '  \tNodeSelector:                  nil,',
      '  \tServiceAccountName:            "",',
      '  \t... // 23 identical fields',
      '  }',
    ));
  });

  it('an added list item: the slice typed, equal elements compact, the new one marked +', () => {
    expect(podSpecDiff({ ...base, imagePullSecrets: [{ name: 'a' }] }, { ...base, imagePullSecrets: [{ name: 'a' }, { name: 'b' }] })).to.equal(lines(
      '  core.PodSpec{',
      '  \t... // 11 identical fields',
      '  \tNodeName:        "",',
      '  \tSecurityContext: &{},',
      '  \tImagePullSecrets: []core.LocalObjectReference{',
      '  \t\t{Name: "a"},',
      '+ \t\t{Name: "b"},',
      '  \t},',
      '  \tHostname:  "",',
      '  \tSubdomain: "",',
      '  \t... // 17 identical fields',
      '  }',
    ));
  });

  it('a pointer field set: nil against &value', () => {
    expect(podSpecDiff(base, { ...base, priority: 5 })).to.equal(lines(
      '  core.PodSpec{',
      '  \t... // 20 identical fields',
      '  \tHostAliases:       nil,',
      '  \tPriorityClassName: "",',
      '- \tPriority:          nil,',
      '+ \tPriority:          &5,',
      '  \tPreemptionPolicy:  nil,',
      '  \tDNSConfig:         nil,',
      '  \t... // 8 identical fields',
      '  }',
    ));
  });

  it('a pointer to a struct set: typed, multi-line, nested values cut at the verbosity limit', () => {
    const probe = { exec: { command: ['true'] }, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 };
    expect(podSpecDiff(base, { ...base, containers: [{ ...base.containers[0], livenessProbe: probe }] })).to.equal(lines(
      '  core.PodSpec{',
      '  \tVolumes:        nil,',
      '  \tInitContainers: nil,',
      '  \tContainers: []core.Container{',
      '  \t\t{',
      '  \t\t\t... // 11 identical fields',
      '  \t\t\tVolumeMounts:  nil,',
      '  \t\t\tVolumeDevices: nil,',
      '- \t\t\tLivenessProbe: nil,',
      '+ \t\t\tLivenessProbe: &core.Probe{',
      '+ \t\t\t\tProbeHandler:     core.ProbeHandler{Exec: &core.ExecAction{Command: []string{...}}},',
      '+ \t\t\t\tTimeoutSeconds:   1,',
      '+ \t\t\t\tPeriodSeconds:    10,',
      '+ \t\t\t\tSuccessThreshold: 1,',
      '+ \t\t\t\tFailureThreshold: 3,',
      '+ \t\t\t},',
      '  \t\t\tReadinessProbe: nil,',
      '  \t\t\tStartupProbe:   nil,',
      '  \t\t\t... // 8 identical fields',
      '  \t\t},',
      '  \t},',
      '  \tEphemeralContainers: nil,',
      '  \tRestartPolicy:       "Always",',
      '  \t... // 28 identical fields',
      '  }',
    ));
  });

  it('a map entry changed: entries keyed by quoted key', () => {
    expect(podSpecDiff({ ...base, nodeSelector: { a: '1', b: '2' } }, { ...base, nodeSelector: { a: '1', b: '3' } })).to.equal(lines(
      '  core.PodSpec{',
      '  \t... // 6 identical fields',
      '  \tActiveDeadlineSeconds: nil,',
      '  \tDNSPolicy:             "ClusterFirst",',
      '  \tNodeSelector: map[string]string{',
      '  \t\t"a": "1",',
      '- \t\t"b": "2",',
      '+ \t\t"b": "3",',
      '  \t},',
      '  \tServiceAccountName:           "",',
      '  \tAutomountServiceAccountToken: nil,',
      '  \t... // 22 identical fields',
      '  }',
    ));
  });

  it('a one-entry map changed: the whole map removed and inserted on one line each', () => {
    expect(podSpecDiff({ ...base, nodeSelector: { a: '1' } }, { ...base, nodeSelector: { a: '2' } })).to.contain(lines(
      '- \tNodeSelector:                 map[string]string{"a": "1"},',
      '+ \tNodeSelector:                 map[string]string{"a": "2"},',
    ));
  });

  it('hostNetwork shows inside the internal PodSecurityContext', () => {
    expect(podSpecDiff(base, { ...base, hostNetwork: true })).to.contain(lines(
      '  \tSecurityContext: &core.PodSecurityContext{',
      '- \t\tHostNetwork: false,',
      '+ \t\tHostNetwork: true,',
      '  \t\tHostPID:     false,',
      '  \t\tHostIPC:     false,',
      '  \t\t... // 12 identical fields',
      '  \t},',
    ));
  });
});
