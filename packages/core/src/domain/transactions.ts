/** What events record of an exchange with a recipient or a source. */

/** An HTTP request as recorded on events (spec "HTTP request object"). */
export interface RecordedRequest {
  readonly method: string;
  readonly url?: string;
  readonly version: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timestamp: number;
}

/** An HTTP response as recorded on events (spec "HTTP response object"). */
export interface RecordedResponse {
  readonly status: number;
  readonly status_text: string;
  readonly version: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timestamp: number;
}

/** One exchange with a recipient. */
export interface Transaction {
  readonly request: RecordedRequest;
  readonly response: RecordedResponse | null;
  readonly ms: number;
}
