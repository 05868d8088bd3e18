import type { Profile } from "../profile.js";
import { TensorstoreChild } from "./child-process.js";
import type { TensorstorePeer } from "./contenders.js";
import { setUpTensorstore } from "./install.js";

/**
 * tensorstore for this run: installed if need be, its child started and asked
 * for its version; or, when the run does not compare with it or it cannot be
 * had, why not (logged; its rows are then skipped and the run goes on).
 */
export async function startTensorstore(
  profile: Profile,
  wanted: boolean,
  log: (line: string) => void,
): Promise<TensorstorePeer> {
  const skip = (reason: string): TensorstorePeer => {
    log(`tensorstore skipped: ${reason}`);
    return { skip: reason };
  };
  if (!wanted) return { skip: "no case of this run compares with tensorstore" };
  if (profile.tensorstoreSkip) return skip(profile.tensorstoreSkip);
  const setup = setUpTensorstore(log);
  if ("skip" in setup) return skip(setup.skip);
  const child = TensorstoreChild.start(setup.command);
  try {
    const { version } = await child.request({ op: "version" });
    log(`tensorstore ${version} in a Python child (${setup.command[0]})`);
    return { child, version: version ?? setup.version };
  } catch (error) {
    await child.close();
    return skip(error instanceof Error ? error.message : String(error));
  }
}

/** Ends the child, if one runs. */
export async function stopTensorstore(peer: TensorstorePeer): Promise<void> {
  if ("child" in peer) await peer.child.close();
}
