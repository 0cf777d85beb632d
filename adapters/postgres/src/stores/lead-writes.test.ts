import type { LeadWriteBundle } from '@leadroute/core';
import { aLead, anAccount, anEvent, aRollupRow, aSearchDocument } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';
import { commitLeadBundles, summed } from './lead-writes';

const bundle = (accountId: string, events: number): LeadWriteBundle => {
  const lead = aLead(accountId);
  return {
    lead,
    events: Array.from({ length: events }, () => anEvent(accountId, { lead_id: lead.id })),
    rollups: [aRollupRow(accountId)],
    fieldRollups: [{ ...aRollupRow(accountId), field: 'state', value: 'TX' }],
    search: aSearchDocument(accountId, { first_name: 'Ada' }, { lead_id: lead.id }),
  };
};

describe('committing lead bundles', () => {
  it('is one prepared statement of one text whatever the number of leads and events in the batch', () => {
    // Rows go in array parameters, never in the text: a connection parses and plans the statement once (issue 22).
    const account = anAccount().id;
    const kind = commitLeadBundles('s');
    const alone = kind.plan([bundle(account, 4)]).statements;
    const together = kind.plan([bundle(account, 1), bundle(account, 3), bundle(account, 5)]).statements;
    expect(alone).toHaveLength(1);
    expect(together).toHaveLength(1);
    expect(together[0]?.text).toBe(alone[0]?.text);
    expect(together[0]?.values).toHaveLength(alone[0]?.values.length ?? 0);
    expect(alone[0]?.prepared).toBe(true);
  });

  it("sums a batch's rows of one cell into one row, and keeps cells apart however their columns read run together", () => {
    const account = anAccount().id;
    const row = aRollupRow(account, { outcome: 'success', category: '', count: 1, cost: 0.5, revenue: 2 });
    const field = { ...row, field: 'state', value: 'TX' };
    expect(summed([row, { ...row }, { ...row, cost: 0.25 }])).toEqual([{ ...row, count: 3, cost: 1.25, revenue: 6 }]);
    // 'success' + '' and 'succes' + 's' read alike run together; a null value is not ''.
    const apart = [row, { ...row, outcome: 'succes', category: 's' }];
    expect(summed(apart)).toEqual(apart);
    const values = [
      field,
      { ...field, value: null },
      { ...field, value: '' },
      { ...field, field: 'stat', value: 'eTX' },
    ];
    expect(summed(values)).toEqual(values);
    expect(summed([field, field])).toEqual([{ ...field, count: 2, cost: 1, revenue: 4 }]);
  });
});
