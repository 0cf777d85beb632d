import { XMLBuilder } from 'fast-xml-parser';
import type { Reply } from './types';

/** A JSON reply with `status`, for `.map(json(200))` at the end of a route. */
export const json =
  (status: number) =>
  (value: unknown): Reply => ({ status, json: value });

const xmlBuilder = new XMLBuilder({ format: false, suppressEmptyNode: true });

/** The media types a route answers with when it speaks both JSON and XML; JSON first (the default). */
export const JSON_OR_XML = ['application/json', 'application/xml', 'text/xml'] as const;

/** Intake answers also speak a form, for vendors whose systems post and read `application/x-www-form-urlencoded`. */
export const JSON_XML_OR_FORM = [...JSON_OR_XML, 'application/x-www-form-urlencoded'] as const;

/** Nested fields as dotted names (`lead.id`), lists as repeated names: how a form carries an answer. */
function formFields(value: unknown, prefix: string, out: URLSearchParams): URLSearchParams {
  if (Array.isArray(value)) for (const item of value) formFields(item, prefix, out);
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) formFields(item, prefix ? `${prefix}.${key}` : key, out);
  else if (value !== undefined) out.append(prefix, value === null ? '' : String(value));
  return out;
}

/** A reply in the negotiated media type: XML under `root`, a form, or JSON (the default). */
export const negotiated =
  (mediaType: string, status: number, root: string) =>
  (value: unknown): Reply => {
    if (mediaType.endsWith('xml'))
      return {
        status,
        text: `<?xml version="1.0" encoding="UTF-8"?>${xmlBuilder.build({ [root]: value }) as string}`,
        contentType: `${mediaType}; charset=utf-8`,
      };
    if (mediaType === 'application/x-www-form-urlencoded')
      return { status, text: formFields(value, '', new URLSearchParams()).toString(), contentType: mediaType };
    return { status, json: value };
  };
