/**
 * A short, never-throwing rendering of a value read from a file, for error
 * messages: JSON.stringify throws on bigint (integers above 2^53 parsed by a
 * bigint-aware JSON parser) and on cycles, and can be arbitrarily long.
 */
export function show(value: unknown, max = 80): string {
  let text: string;
  if (typeof value === "bigint") {
    text = `${value}n`;
  } else {
    try {
      text = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** An own property of a plain object, never one inherited from Object.prototype ("constructor", "toString"). */
export function own(obj: object, name: string): unknown {
  return Object.hasOwn(obj, name) ? (obj as Record<string, unknown>)[name] : undefined;
}
