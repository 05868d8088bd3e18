/**
 * The zarr-extensions `struct` data type (and its legacy read-only name
 * `structured`): fixed-size records of named fields packed without padding.
 * Held as a Uint8Array of the packed records (`lanes` = the record's size),
 * each field in little-endian byte order, so reading, writing, fill values and
 * selections move records as whole byte groups; `structColumns` and
 * `structFromColumns` turn them into one typed array per field and back.
 */
import {
  type ArrayData,
  InvalidMetadataError,
  InvalidSelectionError,
  type Scalar,
  showValue,
  UnsupportedError,
} from "@zarrkit/registry";

/** What a struct type needs of its field types (core's DataType, without importing it). */
export interface FieldType {
  readonly name: string;
  readonly kind: string;
  readonly byteSize: number | undefined;
  readonly lanes: number;
  readonly arrayType: unknown;
  readonly storedSlotSize: number;
  readonly widenedFloat16: boolean;
  readonly narrow?: unknown;
  readonly struct?: StructLayout;
  allocate(elements: number): ArrayData;
}

/** One field: its name, type and byte offset in the record. */
export interface StructField {
  /** The field's name, unique in its struct. */
  readonly name: string;
  /** Its data type. */
  readonly type: FieldType;
  /** Its byte offset in the record. */
  readonly offset: number;
}

/** A struct type's fields and record size. */
export interface StructLayout {
  /** The fields, in declaration (and storage) order. */
  readonly fields: readonly StructField[];
  /** The record's size in bytes: the sum of the fields' sizes. */
  readonly size: number;
}

/**
 * The fields of a `struct` configuration (`{"fields": [{"name", "data_type"}, ...]}`) or, with `legacy`, of
 * `structured`'s (`{"fields": [[name, data_type], ...]}`), each type resolved by `resolve`. Errors name the field.
 */
export function parseStructFields(
  configuration: unknown,
  field: string,
  legacy: boolean,
  resolve: (value: unknown, field: string) => FieldType,
): StructLayout {
  const base = `${field}.configuration.fields`;
  const fields =
    typeof configuration === "object" && configuration !== null
      ? (configuration as { fields?: unknown }).fields
      : undefined;
  if (!Array.isArray(fields) || fields.length === 0) {
    throw new InvalidMetadataError(`${base} must be a non-empty list of fields, got ${showValue(fields)}`, {
      field: base,
    });
  }
  const extra = Object.keys(configuration as object).find((k) => k !== "fields");
  if (extra !== undefined)
    throw new InvalidMetadataError(`${field}.configuration.${extra} is not a field of struct`, {
      field: `${field}.configuration.${extra}`,
    });
  const out: StructField[] = [];
  let offset = 0;
  for (const [i, entry] of fields.entries()) {
    const at = `${base}[${i}]`;
    let name: unknown;
    let typeValue: unknown;
    if (legacy && Array.isArray(entry) && entry.length === 2) [name, typeValue] = entry;
    else if (!legacy && typeof entry === "object" && entry !== null && !Array.isArray(entry)) {
      const keys = Object.keys(entry);
      const unknown = keys.find((k) => k !== "name" && k !== "data_type");
      if (unknown !== undefined)
        throw new InvalidMetadataError(`${at}.${unknown} is not a field of a struct field`, {
          field: `${at}.${unknown}`,
        });
      ({ name, data_type: typeValue } = entry as { name?: unknown; data_type?: unknown });
    } else {
      const form = legacy ? "[name, data_type]" : '{"name", "data_type"}';
      throw new InvalidMetadataError(`${at} must be ${form}, got ${showValue(entry)}`, { field: at });
    }
    if (typeof name !== "string" || name === "")
      throw new InvalidMetadataError(`${at}.name must be a non-empty string, got ${showValue(name)}`, {
        field: `${at}.name`,
      });
    if (out.some((f) => f.name === name))
      throw new InvalidMetadataError(`${at}.name ${showValue(name)} is not unique`, { field: `${at}.name` });
    const type = resolve(typeValue, `${at}.data_type`);
    // Held as stored bytes: only types whose in-memory element is their stored bytes can be fields.
    if (
      type.byteSize === undefined ||
      type.arrayType === undefined ||
      type.narrow !== undefined ||
      type.widenedFloat16 ||
      type.name === "float16"
    ) {
      throw new UnsupportedError(
        `${at}.data_type: ${type.name} cannot be a struct field here (fixed-size types held as stored only)`,
        { field: `${at}.data_type` },
      );
    }
    out.push({ name, type, offset });
    offset += type.byteSize;
  }
  return { fields: out, size: offset };
}

/** The JSON of a struct's fields, as zarr.json stores them. */
export function structFieldsJSON(
  layout: StructLayout,
  typeJSON: (type: FieldType) => unknown,
): { name: string; data_type: unknown }[] {
  return layout.fields.map((f) => ({ name: f.name, data_type: typeJSON(f.type) }));
}

/** Reverse the bytes of every multi-byte slot of every field of `count` records, in place (byte order change). */
export function swapStructBytes(bytes: Uint8Array, layout: StructLayout, count: number, start = 0): void {
  for (let r = 0; r < count; r++) {
    const record = start + r * layout.size;
    for (const f of layout.fields) {
      if (f.type.struct) {
        swapStructBytes(bytes, f.type.struct, 1, record + f.offset);
        continue;
      }
      const slot = f.type.storedSlotSize;
      if (slot <= 1) continue;
      for (let s = record + f.offset; s < record + f.offset + f.type.byteSize!; s += slot) {
        for (let a = s, b = s + slot - 1; a < b; a++, b--) {
          const t = bytes[a]!;
          bytes[a] = bytes[b]!;
          bytes[b] = t;
        }
      }
    }
  }
}

/** Each field of `count` records as its own array (a copy), by field name; nested structs as their record bytes. */
export function structColumns(layout: StructLayout, records: Uint8Array): Record<string, ArrayData> {
  const count = records.length / layout.size;
  const out: Record<string, ArrayData> = {};
  for (const f of layout.fields) {
    const column = f.type.allocate(count) as Uint8Array;
    const target = new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
    const width = f.type.byteSize!;
    for (let r = 0; r < count; r++)
      target.set(records.subarray(r * layout.size + f.offset, r * layout.size + f.offset + width), r * width);
    out[f.name] = column;
  }
  return out;
}

/** Records from one array per field (each of the field type's in-memory class and `count` elements). */
export function structFromColumns(layout: StructLayout, columns: Record<string, ArrayData>, count: number): Uint8Array {
  const records = new Uint8Array(count * layout.size);
  for (const f of layout.fields) {
    const column = Object.hasOwn(columns, f.name) ? columns[f.name] : undefined;
    const width = f.type.byteSize!;
    const ctor = f.type.allocate(0).constructor;
    if (!column || Array.isArray(column) || column.constructor !== ctor || column.byteLength !== count * width) {
      throw new InvalidSelectionError(
        `Field ${showValue(f.name)} needs ${count} elements of ${f.type.name} (${(ctor as { name: string }).name})`,
        { field: f.name },
      );
    }
    const source = new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
    for (let r = 0; r < count; r++)
      records.set(source.subarray(r * width, (r + 1) * width), r * layout.size + f.offset);
  }
  return records;
}

/** A struct fill value (an object with every field's fill value) as the record's bytes. */
export function parseStructScalar(
  value: unknown,
  layout: StructLayout,
  field: string,
  parseField: (value: unknown, type: FieldType, field: string) => Scalar,
): Uint8Array {
  if (value instanceof Uint8Array && value.length === layout.size) return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidMetadataError(
      `${field} must be an object with a fill value for every field, got ${showValue(value)}`,
      { field },
    );
  }
  const extra = Object.keys(value).find((k) => !layout.fields.some((f) => f.name === k));
  if (extra !== undefined)
    throw new InvalidMetadataError(`${field}.${extra} is not a field of the struct`, { field: `${field}.${extra}` });
  const record = new Uint8Array(layout.size);
  for (const f of layout.fields) {
    if (!Object.hasOwn(value, f.name))
      throw new InvalidMetadataError(`${field}.${f.name} is missing (every field needs a fill value)`, {
        field: `${field}.${f.name}`,
      });
    const scalar = parseField((value as Record<string, unknown>)[f.name], f.type, `${field}.${f.name}`);
    const one = f.type.allocate(1);
    writeScalar(one, scalar, f.type);
    record.set(new Uint8Array((one as Uint8Array).buffer), f.offset);
  }
  return record;
}

function writeScalar(one: ArrayData, scalar: Scalar, type: FieldType): void {
  const slots = one as unknown as Scalar[];
  if (scalar instanceof Uint8Array) (one as Uint8Array).set(scalar);
  else if (Array.isArray(scalar)) (one as Float64Array).set(scalar as readonly number[]);
  else
    slots[0] =
      typeof scalar === "boolean"
        ? scalar
          ? 1
          : 0
        : type.arrayType === BigInt64Array || type.arrayType === BigUint64Array
          ? BigInt(scalar as number)
          : scalar;
}

/** A record's bytes as the JSON fill value (`serializeField` gives each field's JSON). */
export function serializeStructScalar(
  record: Uint8Array,
  layout: StructLayout,
  serializeField: (value: Scalar, type: FieldType) => unknown,
): Record<string, unknown> {
  const columns = structColumns(layout, record);
  const out: Record<string, unknown> = {};
  for (const f of layout.fields) {
    const column = columns[f.name] as unknown as ArrayLike<number | bigint>;
    let scalar: Scalar;
    if (f.type.kind === "raw") scalar = column as Uint8Array;
    else if (f.type.kind === "complex") scalar = [column[0] as number, column[1] as number];
    else if (f.type.kind === "bool") scalar = column[0] === 1;
    else scalar = column[0]!;
    out[f.name] = serializeField(scalar, f.type);
  }
  return out;
}
