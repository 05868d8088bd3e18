// The example store through the conformance suite, from the installed packages.
import { describeStoreConformance, unsafeKeys } from "@zarrkit/test-utils";
import { MapStore } from "zarrkit-example-map-store";

describeStoreConformance("example MapStore " +
"(installed)", async () => ({ store: new MapStore() }), { invalidKeys: unsafeKeys });
