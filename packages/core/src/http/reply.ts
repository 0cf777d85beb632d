import { XMLBuilder } from 'fast-xml-parser';
import type { Reply } from './types';

/** A JSON reply with `status`, for `.map(json(200))` at the end of a route. */
export const json =
  (status: number) =>
  (value: unknown): Reply => ({ status, json: value });

const xmlBuilder = new XMLBuilder({ format: false, suppressEmptyNode: true });

/** The media types a route answers with when it speaks both JSON and XML; JSON first (the default). */
export const JSON_OR_XML = ['application/json', 'application/xml', 'text/xml'] as const;

/** A reply in the negotiated media type: XML under `root` when the client asked for XML, else JSON. */
export const negotiated =
  (mediaType: string, status: number, root: string) =>
  (value: unknown): Reply =>
    mediaType.endsWith('xml')
      ? {
          status,
          text: `<?xml version="1.0" encoding="UTF-8"?>${xmlBuilder.build({ [root]: value }) as string}`,
          contentType: `${mediaType}; charset=utf-8`,
        }
      : { status, json: value };
