// Imported by every codec worker (see codec-workers.ts): registers zarrkit's
// codecs in the worker, as it does on the page.
import "zarrkit";
