/**
 * kerchunk's `gen` entries: one key template, URL, offset and length over the
 * product of named dimensions, describing any number of keys. Nothing is
 * expanded up front: a key is matched against the key template and its
 * dimension values checked (constant time per entry), and listing walks the
 * product lazily, so a `gen` of 10^9 keys costs no more memory than one.
 */
import { InvalidMetadataError, showValue } from "@zarrkit/registry";
import type { Reference } from "./reference.js";
import { bareName, parseTemplate, renderTemplate, type TemplatePart, type TemplateValue } from "./template.js";

/** A dimension: a Python range (`{start, stop, step}`) or a list of values. */
type Dimension =
  | { kind: "range"; start: number; stop: number; step: number }
  | { kind: "list"; values: TemplateValue[] };

/** One parsed `gen` entry. */
export class GenEntry {
  readonly #names: string[];
  readonly #dimensions: Dimension[];
  readonly #key: TemplatePart[];
  readonly #keyPattern: RegExp;
  readonly #url: TemplatePart[];
  readonly #offset?: TemplatePart[];
  readonly #length?: TemplatePart[];
  /** The key template's text before its first placeholder: every key of the entry starts with it. */
  readonly literalHead: string;

  constructor(
    entry: unknown,
    private readonly index: number,
    private readonly file: string,
    private readonly templates: ReadonlyMap<string, TemplateValue>,
  ) {
    const field = `gen[${index}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry))
      this.#fail(field, `is ${showValue(entry, 80)}, not an object`);
    const record = entry as Record<string, unknown>;
    const text = (name: string, required: boolean): string | undefined => {
      const value = record[name];
      if (value === undefined && !required) return undefined;
      if (typeof value === "string") return value;
      if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
      return this.#fail(`${field}.${name}`, `is ${showValue(value, 80)}, not a string`);
    };
    const dimensions = record.dimensions;
    if (typeof dimensions !== "object" || dimensions === null || Array.isArray(dimensions)) {
      this.#fail(`${field}.dimensions`, `is ${showValue(dimensions, 80)}, not an object of dimensions`);
    }
    this.#names = Object.keys(dimensions as object);
    this.#dimensions = this.#names.map((name) => this.#dimension(name, (dimensions as Record<string, unknown>)[name]));
    const keyText = text("key", true)!;
    this.#key = parseTemplate(keyText, this.#source("key"));
    this.#keyPattern = this.#keyRegExp();
    const first = this.#key[0];
    this.literalHead = first && "text" in first ? first.text : "";
    this.#url = parseTemplate(text("url", true)!, this.#source("url"));
    const offset = text("offset", false);
    const length = text("length", false);
    if ((offset === undefined) !== (length === undefined)) {
      this.#fail(
        field,
        `has ${offset === undefined ? "length" : "offset"} without ${offset === undefined ? "offset" : "length"}`,
      );
    }
    if (offset !== undefined && length !== undefined) {
      this.#offset = parseTemplate(offset, this.#source("offset"));
      this.#length = parseTemplate(length, this.#source("length"));
    }
  }

  /** The reference of `key` when this entry generates it. */
  lookup(key: string): Reference | undefined {
    const match = this.#keyPattern.exec(key);
    if (!match) return undefined;
    const values = new Map<string, TemplateValue>();
    for (const [i, part] of this.#key.filter((p) => "expression" in p).entries()) {
      const name = bareName(part)!;
      const dimension = this.#dimensions[this.#names.indexOf(name)]!;
      const value = parseValue(match[i + 1]!, dimension);
      if (value === undefined || (values.has(name) && values.get(name) !== value)) return undefined;
      values.set(name, value);
    }
    // A dimension the key does not name generates the key again for each of its values: as in fsspec, the last wins.
    for (const [i, name] of this.#names.entries()) {
      if (values.has(name)) continue;
      const last = lastValue(this.#dimensions[i]!);
      if (last === undefined) return undefined;
      values.set(name, last);
    }
    // The key as the entry would render it: "007" does not match the value 7.
    const names = this.#scope(values);
    if (renderTemplate(this.#key, names, this.#source("key")) !== key) return undefined;
    return this.#reference(names);
  }

  /**
   * The one child prefix of `prefix` that holds every key of the entry, when
   * the key template's fixed head shows it ("data/{{i}}" below "": "data/"),
   * so listing needs no key generated; undefined when the keys must be walked.
   */
  childPrefix(prefix: string): string | undefined {
    if (!this.literalHead.startsWith(prefix)) return undefined;
    const slash = this.literalHead.indexOf("/", prefix.length);
    // An entry with an empty dimension generates no key, and so no prefix.
    if (slash < 0 || this.#dimensions.some((d) => lastValue(d) === undefined)) return undefined;
    return this.literalHead.slice(0, slash + 1);
  }

  /** Every key of the entry that starts with `prefix`, in the order of the dimensions' product. */
  *keys(prefix: string): Generator<string> {
    if (!(this.literalHead.startsWith(prefix) || prefix.startsWith(this.literalHead))) return;
    for (const values of this.#product(0, new Map())) {
      const key = renderTemplate(this.#key, this.#scope(values), this.#source("key"));
      if (key.startsWith(prefix)) yield key;
    }
  }

  *#product(depth: number, values: Map<string, TemplateValue>): Generator<Map<string, TemplateValue>> {
    if (depth === this.#dimensions.length) {
      yield values;
      return;
    }
    const dimension = this.#dimensions[depth]!;
    const name = this.#names[depth]!;
    if (dimension.kind === "list") {
      for (const value of dimension.values) yield* this.#product(depth + 1, values.set(name, value));
    } else {
      const { start, stop, step } = dimension;
      for (let value = start; step > 0 ? value < stop : value > stop; value += step) {
        yield* this.#product(depth + 1, values.set(name, value));
      }
    }
  }

  #reference(names: ReadonlyMap<string, TemplateValue>): Reference {
    const field = `gen[${this.index}]`;
    const url = renderTemplate(this.#url, names, this.#source("url"));
    if (!this.#offset || !this.#length) return { kind: "target", url, field };
    const offset = this.#count(renderTemplate(this.#offset, names, this.#source("offset")), "offset");
    const length = this.#count(renderTemplate(this.#length, names, this.#source("length")), "length");
    return { kind: "target", url, window: { offset, length }, field };
  }

  #count(text: string, name: string): number {
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value))
      this.#fail(`gen[${this.index}].${name}`, `renders as ${JSON.stringify(text)}, not a non-negative integer`);
    return value;
  }

  #scope(values: ReadonlyMap<string, TemplateValue>): Map<string, TemplateValue> {
    return new Map([...this.templates, ...values]);
  }

  #dimension(name: string, value: unknown): Dimension {
    const field = `gen[${this.index}].dimensions.${name}`;
    if (Array.isArray(value)) {
      if (!value.every((v) => typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v)))) {
        this.#fail(field, "holds values other than strings and integers");
      }
      return { kind: "list", values: value as TemplateValue[] };
    }
    if (typeof value !== "object" || value === null)
      this.#fail(field, `is ${showValue(value, 80)}: a list or {start, stop, step}`);
    const { start = 0, stop, step = 1 } = value as Record<string, unknown>;
    for (const [part, n] of Object.entries({ start, stop, step })) {
      if (!Number.isSafeInteger(n)) this.#fail(`${field}.${part}`, `is ${showValue(n, 80)}, not an integer`);
    }
    if (step === 0) this.#fail(`${field}.step`, "is 0");
    return { kind: "range", start: start as number, stop: stop as number, step: step as number };
  }

  /** A pattern that captures each placeholder of the key template; each must be a bare dimension name. */
  #keyRegExp(): RegExp {
    let pattern = "^";
    for (const part of this.#key) {
      if ("text" in part) {
        pattern += escapeRegExp(part.text);
        continue;
      }
      const name = bareName(part);
      const at = name === undefined ? -1 : this.#names.indexOf(name);
      if (at < 0) {
        this.#fail(
          `gen[${this.index}].key`,
          `{{${part.source}}} is not one of the dimensions (${this.#names.join(", ")}): ` +
            "key templates name dimensions only",
        );
      }
      const dimension = this.#dimensions[at]!;
      pattern +=
        dimension.kind === "range" ? "(-?\\d+)" : `(${dimension.values.map((v) => escapeRegExp(String(v))).join("|")})`;
    }
    return new RegExp(`${pattern}$`);
  }

  #source(name: string) {
    return { key: this.file, field: `gen[${this.index}].${name}` };
  }

  #fail(field: string, problem: string): never {
    throw new InvalidMetadataError(`Reference file ${JSON.stringify(this.file)}: ${field} ${problem}`, {
      key: this.file,
      field,
    });
  }
}

/** The dimension value a captured key segment stands for, or undefined when it is not one. */
function parseValue(text: string, dimension: Dimension): TemplateValue | undefined {
  if (dimension.kind === "list") return dimension.values.find((v) => String(v) === text);
  const value = Number(text);
  const { start, stop, step } = dimension;
  if (!Number.isSafeInteger(value)) return undefined;
  const inside = step > 0 ? value >= start && value < stop : value <= start && value > stop;
  return inside && (value - start) % step === 0 ? value : undefined;
}

/** The last value of a dimension, or undefined when it has none. */
function lastValue(dimension: Dimension): TemplateValue | undefined {
  if (dimension.kind === "list") return dimension.values.at(-1);
  const { start, stop, step } = dimension;
  const count = step > 0 ? Math.ceil((stop - start) / step) : Math.ceil((start - stop) / -step);
  return count > 0 ? start + (count - 1) * step : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
