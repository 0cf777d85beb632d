import type { LeadWriteBundle } from '@leadroute/core';
import { aLead, anAccount, anEvent, aRollupRow, aSearchDocument } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';
import { commitLeadBundles } from './lead-writes';

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
});
