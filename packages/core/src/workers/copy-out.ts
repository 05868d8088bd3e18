import type { NumericArray } from "@zarrkit/registry";
import { codecPool } from "./pool.js";
import { type CodecWorkerSetting, workerSettings } from "./settings.js";

/**
 * Results at least this large are copied out of shared memory by a codec
 * worker, which moves the copy to this thread: the copy of a 32 MiB result
 * took a sixth of a whole read's time on a page's thread (Chromium).
 */
const WORKER_COPY_BYTES = 4 * 2 ** 20;

/**
 * `view` (a result over shared memory the workers wrote) as an ordinary
 * array: copied by a codec worker, where workers are on and the result is
 * large, else here.
 */
export function copiedOut(view: NumericArray, setting: CodecWorkerSetting | undefined): Promise<NumericArray> {
  const here = async () => view.slice() as NumericArray;
  const settings = workerSettings(setting);
  if (!settings.enabled || view.byteLength < WORKER_COPY_BYTES) return here();
  return codecPool().run<NumericArray>(
    {
      task: (id) => ({ message: { type: "copyOut", id, input: view }, transfer: [] }),
      settle: (reply) => (reply.type === "done" ? (reply.output as NumericArray) : here()),
      here,
    },
    { size: settings.size, offloadAlone: true, callerHelps: false },
  );
}
