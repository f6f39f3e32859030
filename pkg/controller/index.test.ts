import { expect } from 'chai';
import type { ControllerContext } from './context.js';
import { controllerEnabled, controllerNames, registerControllers } from './index.js';
import type { ControllerManager } from './manager.js';

const deps = (controllers: string[], enableBootstrapTokenAuth = false) =>
  ({ o: { controllers, enableBootstrapTokenAuth } }) as unknown as ControllerContext;

describe('--controllers', () => {
  it('* enables every controller except those off by default', () => {
    const d = deps(['*']);
    expect(controllerEnabled('garbagecollector', d.o)).to.equal(true);
    expect(controllerEnabled('root-ca-cert-publisher', d.o)).to.equal(true);
    expect(controllerEnabled('bootstrapsigner', d.o)).to.equal(false);
    expect(controllerEnabled('tokencleaner', d.o)).to.equal(false);
  });

  it('-name disables and name enables, as kube-controller-manager reads the list', () => {
    const d = deps(['*', '-root-ca-cert-publisher', 'tokencleaner']);
    expect(controllerEnabled('root-ca-cert-publisher', d.o)).to.equal(false);
    expect(controllerEnabled('tokencleaner', d.o)).to.equal(true);
    expect(controllerEnabled('namespace', deps(['tokencleaner']).o)).to.equal(false);
  });

  it('-* (ours) runs none, even those bootstrap-token auth would turn on', () => {
    for (const name of [...controllerNames(), 'bootstrapsigner', 'csrsigning']) {
      expect(controllerEnabled(name, deps(['-*'], true).o), name).to.equal(false);
    }
    const manager = { register: () => { throw new Error('registered'); } } as unknown as ControllerManager;
    expect(() => registerControllers(manager, deps(['-*'], true))).to.not.throw();
  });

  it('bootstrap-token auth turns on the signer and cleaner unless disabled', () => {
    expect(controllerEnabled('bootstrapsigner', deps(['*'], true).o)).to.equal(true);
    expect(controllerEnabled('bootstrapsigner', deps(['*', '-bootstrapsigner'], true).o)).to.equal(false);
  });

  it('refuses an unknown name at start', () => {
    const manager = { register: () => undefined } as unknown as ControllerManager;
    expect(() => registerControllers(manager, deps(['*', '-nosuch']))).to.throw('--controllers: "nosuch" is not in the list of known controllers');
    expect(controllerNames()).to.include.members(['namespace', 'garbagecollector', 'serviceaccount', 'root-ca-cert-publisher', 'csrsigning', 'csrapproving', 'csrcleaner']);
  });
});
