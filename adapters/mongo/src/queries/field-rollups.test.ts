import { describe, expect, it } from 'vitest';
import { fieldRollupCell, fieldRollupPipeline } from './field-rollups';

describe('field rollup query shapes (#22.6)', () => {
  const q = {
    account_id: 'a'.repeat(24),
    field: 'state',
    from: '2026-03-01T05:00:00.000Z',
    to: '2026-03-31T04:00:00.000Z',
    kinds: ['source' as const],
  };

  it('matches one account, field and range of hours, and sums over the columns not kept', () => {
    const [match, group, project] = fieldRollupPipeline({ ...q, keep: ['source_id'] });
    expect(match).toEqual({
      $match: {
        account_id: q.account_id,
        field: 'state',
        hour: { $gte: new Date(q.from), $lt: new Date(q.to) },
        kind: { $in: ['source'] },
      },
    });
    expect(Object.keys((group as { $group: { _id: object } }).$group._id).sort()).toEqual(
      ['category', 'kind', 'outcome', 'source_id', 'stage', 'value'].sort(),
    );
    expect((project as { $project: Record<string, unknown> }).$project).toMatchObject({
      hour: { $literal: new Date(q.from) },
      source_id: '$_id.source_id',
      flow_id: { $literal: '' },
    });
  });

  it('reads whole cells without keep, and keeps a null value apart in the cell filter', () => {
    expect(fieldRollupPipeline(q).map((stage) => Object.keys(stage)[0])).toEqual(['$match', '$sort', '$project']);
    const row = {
      account_id: q.account_id,
      field: 'state',
      value: null,
      hour: q.from,
      flow_id: 'f',
      source_id: 's',
      recipient_id: '',
      step_id: '',
      kind: 'source' as const,
      outcome: 'success',
      category: '',
      stage: '',
      count: 1,
      cost: 0,
      revenue: 0,
      purchase_price: 0,
    };
    expect(fieldRollupCell(row)).toMatchObject({ value: null, hour: new Date(q.from), field: 'state' });
  });
});
