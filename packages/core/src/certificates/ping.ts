import type { CertificateRecord } from '../ports/certificates';
import type { PingData } from '../schemas/responses';

export type { PingData } from '../schemas/responses';

/** The ping data of a certificate as seen at `nowMs`; claims and tokens stay inside. */
export function pingData(certificate: CertificateRecord, nowMs: number): PingData {
  const { client, location } = certificate;
  return {
    age: Math.max(0, Math.floor((nowMs - Date.parse(certificate.created_at)) / 1000)),
    client: {
      ip: client.ip,
      user_agent: client.user_agent,
      dimensions: {
        screen: { width: client.dimensions.screen.width, height: client.dimensions.screen.height },
        window: { width: client.dimensions.window.width, height: client.dimensions.window.height },
      },
      geo: {
        city: client.geo.city,
        country: client.geo.country,
        postal_code: client.geo.postal_code,
        subdivisions: [...client.geo.subdivisions],
      },
    },
    created_at: certificate.created_at,
    location: { framed: location.framed, parent_url: location.parent_url, url: location.url },
    time_on_page: certificate.time_on_page,
    type: certificate.type,
  };
}
