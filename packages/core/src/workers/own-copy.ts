import type { NumericArray } from "@zarrkit/registry";

/** A copy of `view` in an ArrayBuffer of its own, free to transfer (Node's Buffer#slice would share memory instead). */
export function ownCopy<T extends NumericArray>(view: T): T {
  return (view instanceof Uint8Array ? new Uint8Array(view) : view.slice()) as T;
}
