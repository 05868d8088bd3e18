/**
 * The fixed parts of the ZIP format (APPNOTE 6.3.10) that the reader and the
 * writer share: record signatures and sizes, the ZIP64 sentinels, and
 * little-endian field access.
 */

export const LOCAL_HEADER_SIGNATURE = 0x04034b50;
export const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
export const END_SIGNATURE = 0x06054b50;
export const ZIP64_END_SIGNATURE = 0x06064b50;
export const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;

export const LOCAL_HEADER_BYTES = 30;
export const CENTRAL_HEADER_BYTES = 46;
export const END_BYTES = 22;
export const ZIP64_END_BYTES = 56;
export const ZIP64_LOCATOR_BYTES = 20;
/** The archive comment's length is a 16-bit field. */
export const MAX_COMMENT_BYTES = 0xffff;

/** The ZIP64 extra field's header ID. */
export const ZIP64_EXTRA_ID = 0x0001;
/** A 32-bit (16-bit) field holding this says "see the ZIP64 record". */
export const U32_SENTINEL = 0xffffffff;
export const U16_SENTINEL = 0xffff;

export const METHOD_STORED = 0;
export const METHOD_DEFLATED = 8;

/** General purpose flags: 0 encrypted, 3 sizes in a data descriptor, 6 strong encryption, 11 UTF-8 names. */
export const FLAG_ENCRYPTED = 1 << 0;
export const FLAG_DATA_DESCRIPTOR = 1 << 3;
export const FLAG_STRONG_ENCRYPTION = 1 << 6;
export const FLAG_UTF8 = 1 << 11;

/** Little-endian reads at an offset of a byte array. */
export class Fields {
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u16(at: number): number {
    return this.view.getUint16(at, true);
  }
  u32(at: number): number {
    return this.view.getUint32(at, true);
  }
  /** A 64-bit field as a number; undefined past 2^53 (no archive is that large). */
  u64(at: number): number | undefined {
    const value = this.view.getBigUint64(at, true);
    return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
  }
}

/** Little-endian writes into a fresh record of `length` bytes. */
export class RecordWriter {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  constructor(length: number) {
    this.bytes = new Uint8Array(length);
    this.view = new DataView(this.bytes.buffer);
  }
  u16(at: number, value: number): this {
    this.view.setUint16(at, value, true);
    return this;
  }
  u32(at: number, value: number): this {
    this.view.setUint32(at, value >>> 0, true);
    return this;
  }
  u64(at: number, value: number): this {
    this.view.setBigUint64(at, BigInt(value), true);
    return this;
  }
  set(at: number, bytes: Uint8Array): this {
    this.bytes.set(bytes, at);
    return this;
  }
}
