/**
 * kerchunk's JSON reference files. Version 1: `{"version": 1, "templates":
 * {...}, "gen": [...], "refs": {...}}`; version 0 (no "version"): the refs
 * object itself. A value is a string (raw text, or `base64:` bytes), a JSON
 * object (its text), `[url]` (a whole target) or `[url, offset, length]`.
 * Entries are checked when looked up, so one bad entry fails the reads of its
 * key (naming it and its field), not the whole file.
 */
import { InvalidMetadataError, type ListDirResult, showValue, UnsupportedError } from "@zarrkit/registry";
import { GenEntry } from "./gen.js";
import { ListLevel } from "./list-level.js";
import type { Reference, ReferenceTable } from "./reference.js";
import { isTemplated, renderText, type TemplateValue } from "./template.js";

const textEncoder = new TextEncoder();

/** A parsed kerchunk JSON reference file. */
export class KerchunkJsonTable implements ReferenceTable {
  readonly #refs: Record<string, unknown>;
  readonly #templates: Map<string, TemplateValue>;
  readonly #gen: GenEntry[];

  /**
   * `document`: the parsed JSON; `file`: its key, named by errors;
   * `templateOverrides`: template values that replace the file's (kerchunk's
   * `template_overrides`), e.g. to move the targets to another host.
   */
  constructor(
    document: unknown,
    private readonly file: string,
    templateOverrides: Readonly<Record<string, string>> = {},
  ) {
    if (!isObject(document)) this.#fail("", `is ${showValue(document, 80)}, not a JSON object`);
    const version = document.version;
    if (version === undefined) {
      this.#refs = document;
      this.#templates = new Map(Object.entries(templateOverrides));
      this.#gen = [];
      return;
    }
    if (version !== 1) {
      throw new UnsupportedError(
        `Reference file ${JSON.stringify(file)}: version ${showValue(version, 40)} is not supported (0 or 1)`,
        {
          key: file,
          field: "version",
        },
      );
    }
    const refs = document.refs ?? {};
    if (!isObject(refs)) this.#fail("refs", `is ${showValue(refs, 80)}, not an object`);
    this.#refs = refs;
    this.#templates = this.#parseTemplates(document.templates ?? {}, templateOverrides);
    const gen = document.gen ?? [];
    if (!Array.isArray(gen)) this.#fail("gen", `is ${showValue(gen, 80)}, not a list`);
    this.#gen = gen.map((entry, i) => new GenEntry(entry, i, file, this.#templates));
  }

  async lookup(key: string): Promise<Reference | undefined> {
    // As in fsspec, generated keys replace explicit ones.
    for (const entry of this.#gen) {
      const found = entry.lookup(key);
      if (found) return found;
    }
    if (!Object.hasOwn(this.#refs, key)) return undefined;
    return this.#reference(key, this.#refs[key]);
  }

  async *keys(prefix: string): AsyncGenerator<string> {
    const generated = new Set<string>();
    for (const entry of this.#gen) {
      for (const key of entry.keys(prefix)) {
        // Remembered only while few: duplicates across entries of a huge gen are listed again rather than held.
        if (generated.size < 100_000) {
          if (generated.has(key)) continue;
          generated.add(key);
        }
        yield key;
      }
    }
    for (const key of Object.keys(this.#refs)) {
      // A key a gen entry generates was listed with the entry (it shadows the explicit ref).
      if (key.startsWith(prefix) && !generated.has(key) && !this.#gen.some((entry) => entry.lookup(key))) yield key;
    }
  }

  /** One level of listing: a gen entry whose key template shows its folder adds it without generating a key. */
  async listDir(prefix: string): Promise<ListDirResult> {
    const level = new ListLevel(prefix);
    for (const entry of this.#gen) {
      const child = entry.childPrefix(prefix);
      if (child !== undefined) level.addPrefix(child);
      else for (const key of entry.keys(prefix)) level.addKey(key);
    }
    for (const key of Object.keys(this.#refs)) if (key.startsWith(prefix)) level.addKey(key);
    return level.result();
  }

  #reference(key: string, value: unknown): Reference {
    const field = `refs[${JSON.stringify(key)}]`;
    if (typeof value === "string") {
      if (value.startsWith("base64:")) return { kind: "inline", bytes: this.#base64(value.slice(7), key, field) };
      return { kind: "inline", bytes: textEncoder.encode(value) };
    }
    if (isObject(value)) return { kind: "inline", bytes: textEncoder.encode(JSON.stringify(value)) };
    if (!Array.isArray(value) || (value.length !== 1 && value.length !== 3)) {
      this.#fail(field, `is ${showValue(value, 80)}: a string, [url] or [url, offset, length]`, key);
    }
    const [url, offset, length] = value;
    if (typeof url !== "string" || url === "") this.#fail(`${field}[0]`, `is ${showValue(url, 80)}, not a URL`, key);
    const rendered = renderText(url, this.#templates, { key, field: `${field}[0]` });
    if (value.length === 1) return { kind: "target", url: rendered, field };
    for (const [i, n] of [offset, length].entries()) {
      if (!Number.isSafeInteger(n) || (n as number) < 0) {
        this.#fail(
          `${field}[${i + 1}]`,
          `is ${showValue(n, 80)}, not a non-negative integer ${i === 0 ? "offset" : "length"}`,
          key,
        );
      }
    }
    return { kind: "target", url: rendered, window: { offset: offset as number, length: length as number }, field };
  }

  #parseTemplates(templates: unknown, overrides: Readonly<Record<string, string>>): Map<string, TemplateValue> {
    if (!isObject(templates)) this.#fail("templates", `is ${showValue(templates, 80)}, not an object`);
    const merged = { ...templates, ...overrides };
    for (const [name, value] of Object.entries(merged)) {
      if (typeof value !== "string") this.#fail(`templates.${name}`, `is ${showValue(value, 80)}, not a string`);
      // A template holding placeholders is a Jinja macro called with arguments: not supported.
      if (isTemplated(value)) {
        throw new UnsupportedError(
          `Reference file ${JSON.stringify(this.file)}: templates.${name} is a parameterised template, ` +
            "which is not supported",
          {
            key: this.file,
            field: `templates.${name}`,
          },
        );
      }
    }
    return new Map(Object.entries(merged) as [string, string][]);
  }

  #base64(text: string, key: string, field: string): Uint8Array {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1)
      this.#fail(field, 'is not valid base64 after "base64:"', key);
    const binary = atob(text.length % 4 === 0 ? text : text + "=".repeat(4 - (text.length % 4)));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  #fail(field: string, problem: string, key?: string): never {
    const ofKey = key === undefined ? "" : `, key ${JSON.stringify(key)}`;
    const where = `Reference file ${JSON.stringify(this.file)}${ofKey}`;
    throw new InvalidMetadataError(`${where}: ${field || "the document"} ${problem}`, {
      key: key ?? this.file,
      field: field || undefined,
    });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
