export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
}

/**
 * A fetch that records every request before passing it on to the real one, or
 * to `respond` when that returns a response (for answers radosgw never gives).
 */
export function recordingFetch(respond?: (request: Request) => Response | Promise<Response> | undefined): {
  fetch: typeof globalThis.fetch;
  requests: RecordedRequest[];
} {
  const requests: RecordedRequest[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    requests.push({ method: request.method, url: new URL(request.url), headers: request.headers });
    return (await respond?.(request)) ?? globalThis.fetch(request);
  };
  return { fetch, requests };
}

/** The requests with `method` and, optionally, a query parameter. */
export function count(requests: RecordedRequest[], method: string, parameter?: string): number {
  return requests.filter((r) => r.method === method && (parameter === undefined || r.url.searchParams.has(parameter)))
    .length;
}
