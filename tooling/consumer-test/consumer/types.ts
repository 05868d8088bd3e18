// Type-checked under "bundler" and "nodenext" resolution against the installed packages.
import "zarrkit-example-xor-codec";
import { type BytesToBytesCodec, registerCodec } from "@zarrkit/registry";
import * as zk from "zarrkit";

export const store: zk.FileSystemStore = new zk.FileSystemStore("/tmp/x.zarr");
export const opened: Promise<zk.Store> = zk.openStore("memory://types");
registerCodec("example.none", () => () => ({}) as BytesToBytesCodec, { workerModule: import.meta.url });
