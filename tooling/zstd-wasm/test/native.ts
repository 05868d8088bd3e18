// What the tests that hold the shipped WebAssembly against the same C built for this
// machine share: that build, and the shipped module's exports.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

/**
 * Builds `driver` (a test/*.c that includes one of src/*.c) and `sources` of `lib` (vendored
 * libzstd) into `out` with the pinned clang-14 (which brings glibc's headers), with the wasm
 * build's defines and `defines`.
 */
export function buildNative(lib: string, driver: string, sources: string[], defines: string[], out: string): void {
  const build = spawnSync(
    "/usr/bin/clang-14",
    [
      "-O1",
      "-DNDEBUG",
      "-DZSTD_DISABLE_ASM=1", // the C the wasm runs, not x86 assembly
      "-DZSTD_LEGACY_SUPPORT=0",
      "-DXXH_NAMESPACE=ZSTD_",
      "-DZSTD_TRACE=0",
      ...defines,
      "-Wno-unknown-attributes", // export_name: a wasm attribute
      "-I",
      lib,
      "-I",
      join(lib, "common"),
      driver,
      ...sources.map((source) => join(lib, source)),
      "-o",
      out,
    ],
    { encoding: "utf8" },
  );
  expect(build.stderr).toBe("");
  expect(build.status).toBe(0);
}

/** The exports every module of src/ has, and the WebAssembly memory they work in. */
export interface ModuleExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(pointer: number): void;
}

/** The shipped module at `path`, initialized (its WASI imports answer "bad file"). */
export async function instantiate<T extends ModuleExports>(path: string): Promise<T> {
  const { instance } = await WebAssembly.instantiate(readFileSync(path), {
    wasi_snapshot_preview1: {
      proc_exit: () => {},
      fd_write: () => 0,
      fd_close: () => 0,
      fd_seek: () => 0,
      environ_get: () => 0,
      environ_sizes_get: () => 0,
    },
  });
  const exports = instance.exports as unknown as T & { _initialize?: () => void };
  exports._initialize?.();
  return exports;
}
