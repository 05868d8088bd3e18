import { type BytesToBytesCodec, type CodecFactory, InvalidMetadataError, showValue } from "@zarrkit/registry";

/** example.xor: every byte XOR a key byte (configuration `{ key: 0..255 }`). Its own inverse, same size. */
export const xorCodec: CodecFactory = (configuration) => {
  const key = configuration.key;
  if (!(Number.isInteger(key) && (key as number) >= 0 && (key as number) <= 255)) {
    throw new InvalidMetadataError(`example.xor: configuration.key must be an integer 0-255, got ${showValue(key)}`, {
      field: "configuration.key",
    });
  }
  const flip = (bytes: Uint8Array) => bytes.map((b) => b ^ (key as number));
  const codec: BytesToBytesCodec = {
    kind: "bytes_to_bytes",
    name: "example.xor",
    encode: flip,
    decode: flip,
    encodedSize: (n) => n,
    toJSON: () => ({ name: "example.xor", configuration: { key } }),
  };
  return codec;
};
