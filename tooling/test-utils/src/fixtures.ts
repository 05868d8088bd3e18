import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The shared fixtures folder written by other implementations. Tests read it
 * in place (never copied into the repository): `ZARRKIT_FIXTURES`, or
 * `../shared/fixtures` beside the repository checkout.
 */
export function fixturesDir(): string {
  const fromEnv = process.env.ZARRKIT_FIXTURES;
  if (fromEnv) return resolve(fromEnv);
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
  return resolve(repoRoot, "../shared/fixtures");
}

/** The path of a fixture, or undefined (after printing why) when it is absent, so tests can skip. */
export function fixturePath(relative: string): string | undefined {
  const path = resolve(fixturesDir(), relative);
  if (existsSync(path)) return path;
  console.warn(`[zarrkit] skipping: fixture ${path} is absent (set ZARRKIT_FIXTURES to the shared fixtures folder)`);
  return undefined;
}
