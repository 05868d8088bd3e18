/** Join a store directory prefix ("", "mesh" or "mesh/") and a relative name. */
export function joinKey(prefix: string, name: string): string {
  if (prefix === "") return name;
  return prefix.endsWith("/") ? prefix + name : `${prefix}/${name}`;
}
