import { describe, expect, it } from 'vitest';
import { exportEvent } from './support';
import { csvOf, world } from './world';

const AT = Date.UTC(2026, 2, 2, 17, 30, 5);
const FIELDS = [
  'id',
  'type',
  'outcome',
  'lead.first_name',
  'lead.last_name',
  'vars.lead.comments',
  'lead.dob',
  'lead.submitted_at',
  'start_timestamp',
  'expires_at',
  'lead.score',
  'lead.tags',
  'lead.nested',
  'lead.missing',
  'cap_reached',
  'recipient_id',
];
const LEAD = {
  first_name: 'Ann "The Hammer"',
  last_name: 'Lee, Jr.',
  comments: 'line one\nline two',
  dob: '1980-05-01',
  submitted_at: '2026-03-02T17:30:00Z',
  score: 42,
  tags: ['a', 'b'],
  nested: { x: 1 },
  state: 'TX',
};

async function exportOne(standard: boolean, lead: Record<string, unknown> = LEAD) {
  const w = await world();
  const event = exportEvent(w.principal.account.id, AT, lead);
  (await w.storage.events.insert(event))._unsafeUnwrap();
  const exp = (
    await w.service.exports.create(w.principal, {
      start: '2026-03-01',
      end: '2026-03-03',
      fields: FIELDS,
      standard_dates: standard,
    })
  )._unsafeUnwrap();
  expect(await w.service.exports.runPending()).toBe(1);
  return { csv: csvOf(w, exp.id), id: event.id };
}

describe('export CSV', () => {
  it('writes the requested fields in order, quoting commas, quotes and newlines, with legacy dates in the account zone', async () => {
    const { csv, id } = await exportOne(false);
    expect(csv).toBe(
      `${FIELDS.join(',')}\n` +
        `${id},source,success,"Ann ""The Hammer""","Lee, Jr.","line one\nline two",1980-05-01,2026-03-02 12:30:00,2026-03-02 12:30:05,` +
        // expires_at falls after the switch to daylight time: EDT, four hours behind UTC.
        '2026-05-31 13:30:05,42,"[""a"",""b""]","{""x"":1}",,false,\n',
    );
  });

  it('writes standard dates as ISO 8601 UTC', async () => {
    const { csv, id } = await exportOne(true);
    const row = csv.split('\n').slice(1).join('\n');
    expect(row).toBe(
      `${id},source,success,"Ann ""The Hammer""","Lee, Jr.","line one\nline two",1980-05-01,2026-03-02T17:30:00.000Z,2026-03-02T17:30:05.000Z,` +
        '2026-05-31T17:30:05.000Z,42,"[""a"",""b""]","{""x"":1}",,false,\n',
    );
  });

  it('quotes a value with a carriage return or a leading quote, and leaves plain text alone', async () => {
    const { csv } = await exportOne(false, { ...LEAD, first_name: 'a\r\nb', last_name: '"quoted"', comments: 'plain' });
    expect(csv.split(',').slice(FIELDS.length + 3 - 1, FIELDS.length + 3 + 2)).toEqual([
      '"a\r\nb"',
      '"""quoted"""',
      'plain',
    ]);
  });

  it('exports only events in [start, end) that pass the filter rules, oldest first', async () => {
    const w = await world();
    const account = w.principal.account.id;
    const at = (d: number, h = 12) => Date.UTC(2026, 2, d, h);
    const events = [
      exportEvent(account, at(1, 4), { first_name: 'before', state: 'TX' }), // 2026-02-28 23:00 in New York
      exportEvent(account, at(1, 5), { first_name: 'first', state: 'TX' }), // midnight in New York: start is inclusive
      exportEvent(account, at(2), { first_name: 'ca', state: 'CA' }),
      exportEvent(account, at(3), { first_name: 'second', state: 'TX' }, { outcome: 'failure' }),
      exportEvent(account, at(4), { first_name: 'third', state: 'TX' }),
      exportEvent(account, at(5, 5), { first_name: 'end', state: 'TX' }), // the end is exclusive
    ];
    for (const e of events) (await w.storage.events.insert(e))._unsafeUnwrap();
    // Dates without an offset are the account's wall time; rules read lead fields bare or under vars.
    const exp = (
      await w.service.exports.create(w.principal, {
        start: '2026-03-01',
        end: '2026-03-05T00:00:00',
        fields: ['lead.first_name', 'outcome'],
        filter_rules: [
          { lhv: 'lead.state', op: 'is equal to', rhv: 'TX' },
          { lhv: 'vars.lead.first_name', op: 'is not equal to', rhv: 'nobody' },
        ],
      })
    )._unsafeUnwrap();
    expect(exp.start).toBe('2026-03-01T05:00:00.000Z');
    await w.service.exports.runPending();
    expect(csvOf(w, exp.id)).toBe('lead.first_name,outcome\nfirst,success\nsecond,failure\nthird,success\n');
    expect((await w.service.exports.get(w.principal, exp.id))._unsafeUnwrap().exported_docs).toBe(3);
  });

  it('writes only the header when nothing matches, and still completes', async () => {
    const w = await world();
    const exp = (
      await w.service.exports.create(w.principal, {
        start: '2026-03-01',
        end: '2026-03-02',
        fields: ['id', 'lead.email'],
      })
    )._unsafeUnwrap();
    await w.service.exports.runPending();
    expect(csvOf(w, exp.id)).toBe('id,lead.email\n');
    expect((await w.service.exports.get(w.principal, exp.id))._unsafeUnwrap()).toMatchObject({
      status: 'complete',
      exported_docs: 0,
    });
  });
});
