import {
  aCertificate,
  aCredential,
  aFlow,
  aLead,
  anAlert,
  anEvent,
  anExport,
  aSearchDocument,
  freshId,
} from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';
import {
  credentialDocument,
  eventDocument,
  exportDocument,
  flowDocument,
  leadDocument,
  toCredential,
  toEvent,
  toExport,
  toFlow,
  toLead,
} from './records';
import { alertDocument, certificateDocument, jobDocument, toAlert, toCertificate, toJob } from './records-work';
import { searchDocument, toSearchDocument } from './search-document';

describe('record documents', () => {
  it('come back exactly as the ports gave them', () => {
    const account = freshId();
    const flow = aFlow(account);
    const lead = aLead(account, {
      returned_at: '2026-03-01T12:00:00.000Z',
      fields: { $where: 1, 'a.b': [null, { c: 'd' }] },
    });
    const event = anEvent(account);
    const credential = aCredential(account);
    const bare = anExport(account);
    const done = anExport(account, {
      status: 'complete',
      file_name: 'a.csv',
      file_key: 'k',
      reason: { message: 'm' },
      error: 'e',
      downloads: [{ at: '2026-03-01T11:00:00.000Z', user: bare.user }],
    });
    const certificate = aCertificate({
      claims: [{ at: '2026-01-16T00:00:00.000Z', event_id: freshId(), lead_id: freshId() }],
    });
    const alert = anAlert(account);
    const search = aSearchDocument(account, { first_name: 'Zoë', phone_1: '(555) 123-4567' });
    expect(toFlow(flowDocument(flow))).toEqual(flow);
    expect(toLead(leadDocument(lead))).toEqual(lead);
    expect(toEvent(eventDocument(event))).toEqual(event);
    expect(toCredential(credentialDocument(credential))).toEqual(credential);
    expect(toExport(exportDocument(bare))).toEqual(bare);
    expect(toExport(exportDocument(done))).toEqual(done);
    expect(toCertificate(certificateDocument(certificate))).toEqual(certificate);
    expect(toAlert(alertDocument(alert))).toEqual(alert);
    expect(toSearchDocument(searchDocument(search, 7))).toEqual(search);
    expect(toJob(jobDocument({ kind: 'export', id: 'x', dueAt: 5 }, 3))).toEqual({
      kind: 'export',
      id: 'x',
      payload: {},
      state: 'pending',
      dueAt: 5,
      attempts: 0,
      enqueuedAt: 3,
    });
  });

  it('keep what queries use as fields of their own, times as Dates', () => {
    const lead = leadDocument(aLead(freshId(), { returned_at: null }));
    expect(lead.returned_at).toBeNull();
    expect(lead.expires_at).toBeInstanceOf(Date);
    expect(JSON.parse(lead.body)).not.toHaveProperty('returned_at');
    const event = eventDocument(anEvent(freshId(), { key: undefined }));
    expect(event.key).toBeNull();
    expect(event.expires_at).toBeInstanceOf(Date);
    const exp = exportDocument(anExport(freshId()));
    expect(JSON.parse(exp.body)).not.toHaveProperty('status');
    expect(exp).not.toHaveProperty('file_name');
    expect(() => leadDocument(aLead(freshId(), { expires_at: 'soon' }))).toThrow(RangeError);
  });

  it('index a lead under its ID and each field’s normalized terms, phones by their digits', () => {
    const doc = aSearchDocument(freshId(), {
      first_name: 'Zoë Ann',
      email: 'z.ann@example.com',
      phone_1: '+1 (555) 123-4567',
    });
    const entry = searchDocument(doc, 3);
    expect(entry.terms).toEqual(
      expect.arrayContaining([doc.lead_id, 'zoe', 'ann', 'example', 'com', '5551234567', '1234567', '4567']),
    );
    expect(new Set(entry.terms).size).toBe(entry.terms.length);
    expect(entry.phrase_text).toContain(' zoe ann ');
    expect(entry.sort_keys).toMatchObject({ first_name: 'zoe ann', last_name: '', lead_id: doc.lead_id });
    expect(entry._id).toEqual({ account_id: doc.account_id, lead_id: doc.lead_id });
  });
});
