import { describe, expect, it } from 'vitest';
import { checkEmailMessage } from './check';
import { exportReadyMessage } from './export-ready';

const base = {
  to: ['ops@example.com', 'sales@example.com'],
  exportId: '65f0c0ffee0000000000abcd',
  expiresAt: '2025-03-08T10:00:00.000Z',
  accountName: 'Acme & Sons <Leads>',
  timeZone: 'America/Chicago',
} as const;

describe('exportReadyMessage', () => {
  it('renders a complete export in both bodies', () => {
    const m = exportReadyMessage({
      ...base,
      status: 'complete',
      fileName: 'leads_2025-03-01.csv',
      exportedDocs: 12345,
      downloadUrl: 'https://app.example.com/exports/65f0c0ffee0000000000abcd?tab=files&x=1',
    });
    expect(m.to).toEqual(base.to);
    expect(m.subject).toBe('[Acme & Sons <Leads>] Export ready: leads_2025-03-01.csv');
    for (const body of [m.text, m.html]) {
      expect(body).toContain('leads_2025-03-01.csv');
      expect(body).toContain('12,345');
      expect(body).toContain('2025-03-08 04:00 (America/Chicago)');
      expect(body).toContain(base.exportId);
    }
    expect(m.text).toContain(
      'Download the export: https://app.example.com/exports/65f0c0ffee0000000000abcd?tab=files&x=1',
    );
    expect(m.html).toContain('<a href="https://app.example.com/exports/65f0c0ffee0000000000abcd?tab=files&amp;x=1">');
    expect(m.headers).toMatchObject({ 'X-Leadroute-Export-Id': base.exportId, 'Auto-Submitted': 'auto-generated' });
    expect(checkEmailMessage(m, 'test')).toBeUndefined();
  });

  it('escapes every value in HTML and leaves the text body literal', () => {
    const m = exportReadyMessage({ ...base, status: 'complete', fileName: '<script>x</script>.csv', exportedDocs: 1 });
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('&lt;script&gt;x&lt;/script&gt;.csv');
    expect(m.html).toContain('Acme &amp; Sons &lt;Leads&gt;');
    expect(m.html).not.toContain('Acme & Sons');
    expect(m.text).toContain('<script>x</script>.csv');
    expect(m.text).toContain('Acme & Sons <Leads>');
  });

  it('tells how to download through the API when there is no link, and drops unsafe links', () => {
    const plain = exportReadyMessage({ ...base, status: 'complete', fileName: 'a.csv', exportedDocs: 2 });
    expect(plain.text).toContain(`GET /exports/${base.exportId}/file`);
    const unsafe = exportReadyMessage({
      ...base,
      status: 'complete',
      fileName: 'a.csv',
      exportedDocs: 2,
      downloadUrl: 'javascript:alert(1)',
    });
    expect(unsafe.html).not.toContain('javascript:');
    expect(unsafe.text).not.toContain('javascript:');
  });

  it('#19.10 says when an export stopped at the row limit, why, and that it has no file to download', () => {
    const m = exportReadyMessage({
      ...base,
      status: 'truncated',
      exportedDocs: 1_000_000,
      reason: 'More than 1000000 rows match, the row limit.',
      downloadUrl: 'https://x.example/',
    });
    expect(m.subject).toBe('[Acme & Sons <Leads>] Export stopped at the row limit');
    expect(m.text).toContain('there is no file to download');
    expect(m.text).toContain('Reason: More than 1000000 rows match, the row limit.');
    expect(m.text).not.toContain('https://x.example/');
    expect(m.html).not.toContain('<a ');
  });

  it('reports a failed export without a download', () => {
    const m = exportReadyMessage({
      ...base,
      status: 'error',
      reason: 'Storage unavailable',
      downloadUrl: 'https://x.example/',
    });
    expect(m.subject).toBe('[Acme & Sons <Leads>] Export failed');
    expect(m.text).toContain('Reason: Storage unavailable');
    expect(m.text).not.toContain('https://x.example/');
    expect(m.html).not.toContain('<a ');
  });

  it('keeps the subject on one line and bounded', () => {
    const m = exportReadyMessage({
      ...base,
      accountName: 'Evil\r\nBcc: victim@example.com',
      status: 'complete',
      fileName: `${'x'.repeat(300)}.csv`,
      exportedDocs: 1,
    });
    expect(m.subject).not.toMatch(/[\r\n]/);
    expect(m.subject.length).toBeLessThanOrEqual(200);
    expect(checkEmailMessage(m, 'test')).toBeUndefined();
  });
});
