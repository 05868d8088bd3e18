import { registryState } from "./global-state.js";

/**
 * A module codec workers import before any codec work: one whose import
 * registers codecs. Give a URL (`import.meta.url` of the module that calls
 * `registerCodec`) or a specifier the worker can resolve. Codec workers
 * (`@zarrkit/core`) rebuild pipelines in another thread, with that thread's
 * registry: a codec no worker module registers runs on the calling thread.
 */
export function registerCodecWorkerModule(specifier: string): void {
  const { workerModules, workerModuleListeners } = registryState();
  if (workerModules.includes(specifier)) return;
  workerModules.push(specifier);
  for (const listener of workerModuleListeners) listener(specifier);
}

/** The worker modules registered so far, in order. */
export function codecWorkerModules(): readonly string[] {
  return registryState().workerModules;
}

/** Tell `listener` about worker modules registered from now on (the worker pool forwards them to running workers). */
export function onCodecWorkerModule(listener: (added: string) => void): void {
  registryState().workerModuleListeners.add(listener);
}
