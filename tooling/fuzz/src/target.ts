import type fc from "fast-check";
import type { Outcome } from "./contract.js";

export interface CaseResult {
  outcome: Outcome;
}

/** The stored files of a case, for FINDINGS and regression tests (key -> bytes). */
export type StoreDump = Map<string, Uint8Array>;

export interface FuzzTarget<T = unknown> {
  name: string;
  description: string;
  arbitrary: fc.Arbitrary<T>;
  /** Once per worker, before any case (not counted in any case's memory growth). */
  setup?(): Promise<void>;
  /**
   * Builds the store, mutates it, reads it back; throws ContractViolation on a broken contract. `dump` receives the
   * mutated store.
   */
  run(value: T, dump?: (files: StoreDump) => void): Promise<CaseResult>;
}
