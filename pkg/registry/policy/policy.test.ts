import { expect } from 'chai';
import {
  columnsOf, createStatus, createThrough, invalidFixture, objectFixture, stripVolatile, tableFixture, withVolatileCells,
} from '../../../test/harness/surface-fixtures.js';
import { poddisruptionbudgets } from './poddisruptionbudgets/index.js';

/** Go prints the spec's pointers as addresses, which change on every run (upstream's too). */
const addresses = (v: unknown) => JSON.parse(JSON.stringify(v).replace(/0xc[0-9a-f]+/g, '0xADDR')) as unknown;

describe('policy/v1 poddisruptionbudgets', () => {
  it('creates policy_v1.PodDisruptionBudget.pdb as upstream answered', () => {
    const f = objectFixture('policy_v1.PodDisruptionBudget.pdb');
    expect(stripVolatile(createThrough(poddisruptionbudgets, f.request))).to.deep.equal(stripVolatile(f.response));
  });

  it('prints upstream\'s columns and cells', () => {
    const t = tableFixture('policy_v1.PodDisruptionBudget');
    expect(columnsOf(poddisruptionbudgets)).to.deep.equal(t.columnDefinitions);
    const cells = poddisruptionbudgets.table!.cells(createThrough(poddisruptionbudgets, objectFixture('policy_v1.PodDisruptionBudget.pdb').request));
    expect(cells).to.deep.equal(withVolatileCells(poddisruptionbudgets, t.rows[0]!, cells));
  });

  it('rejects pdb-both-min-max with upstream\'s status (pointer addresses aside)', () => {
    const f = invalidFixture('pdb-both-min-max');
    expect(addresses(createStatus(poddisruptionbudgets, f.request.body))).to.deep.equal(addresses(f.response));
  });
});
