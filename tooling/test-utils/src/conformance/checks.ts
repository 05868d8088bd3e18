import { getSetChecks } from "./get-set.js";
import { inPlaceChecks } from "./in-place.js";
import { keyChecks } from "./keys.js";
import { lendingChecks } from "./lending.js";
import { listingChecks } from "./listing.js";
import { rangeChecks } from "./ranges.js";
import type { ConformanceCheck } from "./types.js";
import { rangeVersionChecks, versionChecks } from "./versions.js";

/** Every check of the store conformance suite, in the order they are reported. */
export const conformanceChecks: readonly ConformanceCheck[] = [
  ...getSetChecks,
  ...rangeChecks,
  ...lendingChecks,
  ...listingChecks,
  ...inPlaceChecks,
  ...versionChecks,
  ...rangeVersionChecks,
  ...keyChecks,
];
