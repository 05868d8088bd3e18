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

declare module "lzma/src/lzma_worker.js" {
  /** LZMA-JS (CommonJS, no Node built-ins): the "alone" (.lzma) format. */
  const module: {
    LZMA_WORKER: {
      /** Results are signed bytes. */
      compress(data: Uint8Array, mode: number): number[];
      /** A string when the bytes read as UTF-8. */
      decompress(data: Uint8Array): number[] | string;
    };
  };
  export default module;
}
