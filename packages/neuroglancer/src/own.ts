/** An own property of a plain object, never one inherited from Object.prototype ("constructor", "toString"). */
export function own(obj: object, name: string): unknown {
  return Object.hasOwn(obj, name) ? (obj as Record<string, unknown>)[name] : undefined;
}
