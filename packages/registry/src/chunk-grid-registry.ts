import { registryState } from "./global-state.js";
import type { ChunkGridParser } from "./chunk-grid.js";

/** Make a `chunk_grid` name known to metadata parsing (core registers "regular", "rectilinear" and "rectangular"). */
export function registerChunkGrid(name: string, parser: ChunkGridParser): void {
  registryState().chunkGrids.set(name, parser);
}

/** The parser registered for a chunk grid name, if any. */
export function chunkGridParser(name: string): ChunkGridParser | undefined {
  return registryState().chunkGrids.get(name);
}

/** The registered chunk grid names, sorted. */
export function registeredChunkGrids(): string[] {
  return [...registryState().chunkGrids.keys()].sort();
}
