/**
 * Writes the OpenAPI document the HTTP handler serves at /openapi.json to stdout (or to
 * the file named as the first argument): what `npm run openapi:lint` gives Redocly, and
 * what openapi-typescript reads in test/http/openapi-types.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createCertificateHandler, createHttpHandler, createLeadService } from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';

/** The served document, as JSON text: the API's, or the certificate handler's (`{cert_url}/openapi.json`). */
export async function openApiText(which: 'api' | 'certificates' = 'api'): Promise<string> {
  const service = createLeadService({ storage: memoryStorage() });
  const handler = which === 'api' ? createHttpHandler(service) : createCertificateHandler(service);
  const response = await handler({ method: 'GET', url: '/openapi.json', headers: { accept: 'application/json' } });
  await service.close();
  if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}`);
  return typeof response.body === 'string' ? response.body : Buffer.from(response.body ?? []).toString('utf8');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await openApiText();
  const file = process.argv[2];
  if (file) writeFileSync(file, text);
  else process.stdout.write(text);
}
