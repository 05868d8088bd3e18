/** Requests and bytes seen by a store wrapper or by the HTTP server. */
export interface RequestStats {
  requests: number;
  /** Bytes read (response bodies over HTTP). */
  bytes: number;
  writes: number;
  bytesWritten: number;
}

export function emptyStats(): RequestStats {
  return { requests: 0, bytes: 0, writes: 0, bytesWritten: 0 };
}

/** A mutable tally, reset between timed runs. */
export class RequestCounter {
  private tally = emptyStats();

  read(bytes: number): void {
    this.tally.requests++;
    this.tally.bytes += bytes;
  }

  wrote(bytes: number): void {
    this.tally.writes++;
    this.tally.bytesWritten += bytes;
  }

  reset(): void {
    this.tally = emptyStats();
  }

  snapshot(): RequestStats {
    return { ...this.tally };
  }
}
