import { describe, expect, it } from 'vitest';
import { alertMessage, alertTypeLabel, type AlertEmailFacts } from './alert';
import { checkEmailMessage } from './check';

const alert: AlertEmailFacts = {
  key: 'recipient-failure:65f0c0ffee0000000000abcd:65f0c0ffee0000000000beef',
  type: 'recipient-failure',
  severity: 'critical',
  message: 'Buyer <One> & Co is failing 92% of leads',
  detail: '46 of 50 deliveries failed in the last hour (baseline 3%).',
  flow_name: 'Auto "Insurance"',
  entity_name: "Buyer <One> & Co's API",
  first_seen_at: '2025-03-01T13:05:00.000Z',
  time_zone: 'Europe/Berlin',
};

describe('alertMessage', () => {
  it('renders a created alert with both bodies', () => {
    const m = alertMessage({
      to: ['alerts@example.com'],
      alert,
      event: 'created',
      accountName: 'Acme',
      link: 'https://app.example.com/alerts/x?y=1&z=2',
    });
    expect(m.to).toEqual(['alerts@example.com']);
    expect(m.subject).toBe('[Acme] Critical alert: Buyer <One> & Co is failing 92% of leads');
    expect(m.text).toContain('Critical alert: Recipient failures');
    expect(m.text).toContain('46 of 50 deliveries failed in the last hour (baseline 3%).');
    expect(m.text).toContain('Flow:');
    expect(m.text).toContain('Auto "Insurance"');
    expect(m.text).toContain("Buyer <One> & Co's API");
    expect(m.text).toContain('2025-03-01 14:05 (Europe/Berlin)');
    expect(m.text).toContain(alert.key);
    expect(m.text).toContain('View the alert: https://app.example.com/alerts/x?y=1&z=2');
    expect(m.html).toContain('Buyer &lt;One&gt; &amp; Co is failing 92% of leads');
    expect(m.html).toContain('Auto &quot;Insurance&quot;');
    expect(m.html).toContain('Buyer &lt;One&gt; &amp; Co&#39;s API');
    expect(m.html).toContain('2025-03-01 14:05 (Europe/Berlin)');
    expect(m.html).toContain('<a href="https://app.example.com/alerts/x?y=1&amp;z=2">View the alert</a>');
    expect(m.html).not.toContain('<One>');
    expect(m.headers).toMatchObject({
      'X-Leadroute-Alert-Key': alert.key,
      'X-Leadroute-Alert-Type': 'recipient-failure',
      'X-Leadroute-Alert-Severity': 'critical',
    });
    expect(checkEmailMessage(m, 'test')).toBeUndefined();
  });

  it('says an escalation rose, and from what', () => {
    const m = alertMessage({
      to: ['a@example.com'],
      alert,
      event: 'escalated',
      previousSeverity: 'serious',
      accountName: 'Acme',
    });
    expect(m.subject).toBe('[Acme] Alert escalated to critical: Buyer <One> & Co is failing 92% of leads');
    expect(m.text).toContain('rose from serious to critical');
    expect(m.html).toContain('rose from serious to critical');
  });

  it('leaves out flow or entity when the alert has none', () => {
    const m = alertMessage({
      to: ['a@example.com'],
      alert: { ...alert, type: 'new-source', severity: 'info', flow_name: null, entity_name: 'New Vendor' },
      event: 'created',
      accountName: 'Acme',
    });
    expect(m.text).not.toContain('Flow:');
    expect(m.text).toContain('Entity:');
    expect(m.html).not.toContain('<a ');
  });

  it('reads only the alert fields it shows: no lead data reaches the e-mail', () => {
    // An Alert record carries more than the e-mail shows; pretend a caller passes
    // one with lead data smuggled into it.
    const record = {
      ...alert,
      data: {
        rate: 0.92,
        baseline_rate: 0.03,
        total: 50,
        sample: { email: 'jane.doe@lead.example', phone_1: '5125550199' },
      },
      lead: { first_name: 'Jane', last_name: 'Doe', email: 'jane.doe@lead.example' },
    };
    const m = alertMessage({ to: ['a@example.com'], alert: record, event: 'created', accountName: 'Acme' });
    const all = [m.subject, m.text, m.html, ...Object.values(m.headers ?? {})].join('\n');
    for (const leadValue of ['jane.doe@lead.example', '5125550199', 'Jane', 'Doe'])
      expect(all).not.toContain(leadValue);
  });

  it('keeps a multi-line headline out of the subject and headers', () => {
    const m = alertMessage({
      to: ['a@example.com'],
      alert: { ...alert, message: 'line one\r\nBcc: x@example.com', key: 'k\r\nX: y' },
      event: 'created',
      accountName: 'Acme',
    });
    expect(m.subject).toBe('[Acme] Critical alert: line one Bcc: x@example.com');
    expect(checkEmailMessage(m, 'test')).toBeUndefined();
  });

  it('labels known and unknown types', () => {
    expect(alertTypeLabel('missing-tf-cert')).toBe('Missing TrustedForm certificates');
    expect(alertTypeLabel('some-new-type')).toBe('Some new type');
  });
});
