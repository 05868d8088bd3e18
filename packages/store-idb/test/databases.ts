let counter = 0;

/** A database name no other test uses. */
export function freshDatabase(): string {
  return `zarrkit-test-${Date.now().toString(36)}-${counter++}`;
}
