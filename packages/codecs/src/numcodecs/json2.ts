import {
  type ArrayToBytesCodec,
  type CodecFactory,
  CorruptDataError,
  InvalidMetadataError,
  InvalidSelectionError,
  showValue,
  UnsupportedError,
} from "@zarrkit/registry";
import { checkKeys, type Configuration, readBoolean, readString } from "../config.js";
import { elementCount } from "../vlen-framing.js";

// numcodecs' JSON defaults (get_config), which zarr-python stores in full.
const DEFAULTS: Configuration = {
  encoding: "utf-8",
  skipkeys: false,
  ensure_ascii: true,
  check_circular: true,
  allow_nan: true,
  sort_keys: true,
  indent: null,
  separators: [",", ":"],
  strict: true,
};

/** A JSON string as Python's json module writes it (ensure_ascii escapes everything outside space..~ as \uXXXX). */
export function pythonJsonString(text: string, ensureAscii: boolean): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const ch = text[i]!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (c < 0x20 || (ensureAscii && c > 0x7e)) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** The nested lists of `items` in C order for `shape`, as NumPy's tolist() gives them. */
function nested(items: readonly string[], shape: readonly number[], ensureAscii: boolean, separator: string): string {
  let at = 0;
  const level = (dim: number): string => {
    const parts: string[] = [];
    for (let i = 0; i < shape[dim]!; i++) {
      parts.push(dim === shape.length - 1 ? pythonJsonString(items[at++]!, ensureAscii) : level(dim + 1));
    }
    return `[${parts.join(separator)}]`;
  };
  return level(0);
}

/**
 * `numcodecs.json2`: numcodecs' JSON codec for object arrays: one JSON
 * document `[nested items..., "|O", shape]` (the items as NumPy's tolist()
 * nests them). zarrkit's object arrays are string arrays, so every item must
 * be a string. Writes numcodecs' default form (ensure_ascii, no indent);
 * `separators` are honoured, other formatting options refuse to encode.
 */
export const numcodecsJson2CodecFactory: CodecFactory = (configuration, ctx): ArrayToBytesCodec => {
  const field = ctx.field;
  checkKeys(configuration, Object.keys(DEFAULTS), field);
  if (ctx.spec.dataType.kind !== "string") {
    throw new InvalidMetadataError(
      `${field}: numcodecs.json2 stores object (string) arrays, not ${ctx.spec.dataType.name}`,
      { field },
    );
  }
  const encoding = readString(configuration, "encoding", field) ?? "utf-8";
  if (!["utf-8", "utf8", "UTF-8"].includes(encoding)) {
    const path = `${field}.configuration.encoding`;
    throw new UnsupportedError(`${path}: only UTF-8 JSON is supported, got ${showValue(encoding)}`, { field: path });
  }
  const ensureAscii = readBoolean(configuration, "ensure_ascii", field, true);
  for (const key of ["skipkeys", "check_circular", "allow_nan", "sort_keys", "strict"])
    readBoolean(configuration, key, field, DEFAULTS[key] as boolean);
  const indent = Object.hasOwn(configuration, "indent") ? configuration.indent : null;
  const separators =
    Object.hasOwn(configuration, "separators") && configuration.separators !== null
      ? configuration.separators
      : indent === null
        ? [",", ":"]
        : [", ", ": "];
  if (!Array.isArray(separators) || separators.length !== 2 || !separators.every((s) => typeof s === "string")) {
    const path = `${field}.configuration.separators`;
    throw new InvalidMetadataError(`${path} must be two strings, got ${showValue(separators)}`, { field: path });
  }
  const itemSeparator = separators[0] as string;
  const stored: Configuration = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS)) if (Object.hasOwn(configuration, key)) stored[key] = configuration[key];
  return {
    kind: "array_to_bytes",
    name: "numcodecs.json2",
    encode(chunk, spec, codecCtx) {
      if (indent !== null) {
        throw new UnsupportedError(`${field}: numcodecs.json2 with an indent cannot be written; reading works`, {
          field: `${field}.configuration.indent`,
          key: codecCtx.key,
        });
      }
      if (spec.shape.length === 0) {
        throw new UnsupportedError(
          `${field}: numcodecs.json2 cannot store a 0-dimensional chunk (numcodecs cannot either)`,
          {
            field,
            key: codecCtx.key,
          },
        );
      }
      const items = chunk.data as string[];
      items.forEach((item, i) => {
        if (typeof item !== "string") {
          throw new InvalidSelectionError(
            `numcodecs.json2: item ${i} of the chunk for ${codecCtx.key} is not a string`,
            { key: codecCtx.key },
          );
        }
      });
      const shape = `[${spec.shape.join(itemSeparator)}]`;
      const body = nested(items, spec.shape, ensureAscii, itemSeparator).slice(0, -1);
      const separator = items.length && spec.shape[0] ? itemSeparator : "";
      const text = `${body}${separator}"|O"${itemSeparator}${shape}]`;
      return new TextEncoder().encode(text);
    },
    decode(bytes, spec, codecCtx) {
      const corrupt = (why: string, cause?: unknown) =>
        new CorruptDataError(`numcodecs.json2: cannot decode ${codecCtx.key}: ${why}`, { key: codecCtx.key, cause });
      let document: unknown;
      try {
        document = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
      } catch (cause) {
        throw corrupt("not a UTF-8 JSON document", cause);
      }
      if (!Array.isArray(document) || document.length < 2)
        throw corrupt("the document is not a list ending in dtype and shape");
      const shape = document[document.length - 1];
      const dtype = document[document.length - 2];
      if (typeof dtype !== "string" || !/^(\|O|[<>|=]?U\d+)$/.test(dtype)) {
        throw new UnsupportedError(
          `numcodecs.json2: ${codecCtx.key} holds dtype ${showValue(dtype)}; zarrkit reads object and unicode ` +
            `(string) arrays only`,
          {
            key: codecCtx.key,
          },
        );
      }
      const expected = elementCount(spec.shape);
      if (
        !Array.isArray(shape) ||
        shape.some((d) => !Number.isInteger(d)) ||
        elementCount(shape as number[]) !== expected
      ) {
        throw corrupt(`its shape ${showValue(shape)} does not hold the chunk's ${expected} elements`);
      }
      const items: string[] = [];
      const walk = (value: unknown, dim: number) => {
        if (dim === shape.length) {
          if (typeof value !== "string") {
            throw new UnsupportedError(
              `numcodecs.json2: ${codecCtx.key} holds a ${value === null ? "null" : typeof value} item; zarrkit's ` +
                `object arrays hold strings only`,
              {
                key: codecCtx.key,
              },
            );
          }
          items.push(value);
          return;
        }
        if (!Array.isArray(value) || value.length !== shape[dim])
          throw corrupt(`its items are not nested as the shape ${showValue(shape)} says`);
        for (const v of value) walk(v, dim + 1);
      };
      if (shape.length === 0) walk(document.length === 3 ? document[0] : undefined, 0);
      else walk(document.slice(0, -2), 0);
      return { data: items, shape: [...spec.shape] };
    },
    toJSON: () => ({ name: "numcodecs.json2", configuration: { ...stored } }),
  };
};
