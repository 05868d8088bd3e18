// The decoded-size cap every decoder honours (CodecContext.maxDecodedBytes):
// decoders stop once their output would pass it, rather than inflating a
// decompression bomb and checking its size afterwards.

/** The error a decoder throws when its output would pass `maxBytes` (`decoding` makes it a CorruptDataError). */
export class DecodedSizeError extends Error {
  constructor(
    readonly format: string,
    readonly maxBytes: number,
    detail?: string,
  ) {
    super(
      `${format} data decodes to more than ${maxBytes} bytes, the most the chunk can ` +
        `hold${detail ? ` (${detail})` : ""}`,
    );
    this.name = "DecodedSizeError";
  }
}

export function tooLarge(format: string, maxBytes: number, detail?: string): DecodedSizeError {
  return new DecodedSizeError(format, maxBytes, detail);
}
