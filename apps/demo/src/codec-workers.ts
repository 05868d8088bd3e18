// Codec work (zstd, gzip, checksums of inner chunks) on Web Workers, so the page
// stays responsive while a view decodes. The worker bundle of this module is
// emitted by Vite and imported by each of zarrkit's codec workers.
import { configureCodecWorkers, registerCodecWorkerModule } from "zarrkit";
import codecModuleUrl from "./codec-worker-module.ts?worker&url";

export function startCodecWorkers(): void {
  registerCodecWorkerModule(new URL(codecModuleUrl, location.href).href);
  configureCodecWorkers({ enabled: true });
}
