// The client alone, typechecked as a browser or edge bundle would be: DOM library, no Node
// types, only the client installed (neither @leadroute/core nor @types/node present).
import { type ClientError, createClient } from '@leadroute/client';

const api = createClient({ baseUrl: 'https://leads.example.com', apiKey: 'key' });
export const entities: Promise<string[]> = api.entities.list().match(
  (list) => list.map((entity) => entity.name),
  (error: ClientError) => [error.type],
);
