import { existsSync } from "node:fs";

/**
 * Why tests that build wasm cannot run here, or undefined when they can: the
 * pinned clang-14, lld-14 and wasi-libc are missing. In CI their absence is
 * not a reason (the tests then fail), elsewhere the reason is printed.
 */
export function toolchainMissing(what: string): string | undefined {
  const missing = ["/usr/bin/clang-14", "/usr/bin/wasm-ld-14", "/usr/lib/wasm32-wasi/libc.a"].filter(
    (path) => !existsSync(path),
  );
  const reason =
    missing.length && !process.env.CI
      ? `missing ${missing.join(", ")} (run tooling/ci/install-system-deps.sh)`
      : undefined;
  if (reason) console.log(`${what} skipped: ${reason}`);
  return reason;
}
