// Types for the untyped libraries the numcodecs codecs load (only what is used).

declare module "seek-bzip" {
  interface InputStream {
    readByte(): number;
    read(buffer: Uint8Array, offset: number, count: number): number;
    seek(position: number): void;
    eof(): boolean;
  }
  interface OutputStream {
    writeByte(byte: number): void;
  }
  const Bunzip: {
    decode(input: InputStream | Uint8Array, output: OutputStream, multistream?: boolean): void;
  };
  export default Bunzip;
}

declare module "lzma" {
  /** LZMA-JS: the "alone" (.lzma) format. Results are signed bytes; decompress returns a string when the bytes read as UTF-8. */
  export function compress(data: Uint8Array, mode: number): number[];
  export function decompress(data: Uint8Array): number[] | string;
}
