import { codecWorkerModules, onCodecWorkerModule } from "@zarrkit/registry";
import { callerTurn, spawnWorker } from "#worker-platform";
import { warnFallback } from "./fallback-warning.js";
import type { PlatformWorker, TaskMessage, TaskReply } from "./protocol.js";
import { workerSettings } from "./settings.js";
import { fromWire } from "./wire-error.js";

/** One piece of codec work, which a worker or the calling thread may take. */
export interface PoolJob<R> {
  /** The message for a worker, built only when one takes the job (work done here copies nothing). */
  task(id: number): { message: TaskMessage; transfer: ArrayBuffer[] };
  /** The result from a worker's "done", "written", "unavailable" or "unreadable" reply. */
  settle(reply: TaskReply & { type: "done" | "written" | "unavailable" | "unreadable" }): Promise<R> | R;
  /** Do the work on this thread. */
  here(): Promise<R>;
}

/**
 * Where a job may go: the first `size` workers; `offloadAlone`: even when it
 * is the only job; `callerHelps` (default true): the calling thread (Node)
 * takes it when every worker is full. Jobs that write into a shared result
 * leave the calling thread free to plan and read.
 */
export interface PoolReach {
  size: number;
  offloadAlone: boolean;
  callerHelps?: boolean;
}

interface Pending {
  job: PoolJob<unknown>;
  size: number;
  callerHelps: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: PlatformWorker;
  ready: boolean;
  /** Settles when the worker is ready or could not start. */
  started: Promise<void>;
  inFlight: Map<number, Pending>;
}

/**
 * Jobs a worker holds at once, so that it keeps working while the calling
 * thread is busy copying results out (with 2 a worker sat idle a quarter of a
 * sharded whole read; 4 and 8 measured the same).
 */
const PER_WORKER = 4;

/** What the codec workers have done (`codecWorkerStats()`). */
export interface CodecWorkerStats {
  /** Workers running (started lazily, up to the largest size asked for). */
  workers: number;
  /** Jobs sent to workers so far. */
  dispatched: number;
  /** Jobs the calling thread took: every worker was busy, or the job was alone (a round trip would not pay). */
  ranHere: number;
  /**
   * Of the jobs sent, chunks a worker decoded straight into shared memory: a
   * result over a SharedArrayBuffer (`get(selection, { shared: true })`), or a
   * pooled buffer copied into an ordinary result; none came back as a buffer.
   */
  written: number;
  /** Why workers are not used, when they could not start (the work runs on the calling thread). */
  failure?: string;
  /**
   * Why a worker last could not rebuild a pipeline, which then runs on the calling thread (a codec no worker module
   * registers).
   */
  refused?: string;
}

/**
 * The codec workers of this thread, started lazily and shared by every
 * pipeline. Jobs queue in order; a worker takes the next one when it has
 * room and, in Node, the calling thread takes one whenever every worker is
 * full, so all cores keep busy and a slow worker start delays nothing.
 */
class CodecPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  /** The calling thread's share (Node only): a job it will take at its next turn, or is running. */
  private helper: "none" | "scheduled" | "running" = "none";
  private deciding = false;
  private failure: string | undefined;
  private refused: string | undefined;
  private dispatched = 0;
  private ranHere = 0;
  private written = 0;

  constructor() {
    onCodecWorkerModule((specifier) => {
      for (const slot of this.slots) slot.worker.post({ type: "modules", modules: [specifier] }, []);
    });
  }

  run<R>(job: PoolJob<R>, { size, offloadAlone, callerHelps = true }: PoolReach): Promise<R> {
    if (this.failure !== undefined) return job.here();
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ job, size, callerHelps, resolve: resolve as (value: unknown) => void, reject });
      if (this.deciding) return;
      if (callerTurn && !offloadAlone && this.queue.length === 1 && this.idle()) {
        // A lone job (one chunk read on its own) is done here unless others join it before the
        // caller's next turn: a worker's round trip only pays when there is work to share.
        this.deciding = true;
        callerTurn(() => {
          this.deciding = false;
          if (this.queue.length === 1 && this.idle()) {
            this.helper = "running";
            void this.helpOne(true);
          } else this.pump();
        });
      } else this.pump();
    });
  }

  private idle(): boolean {
    return this.helper === "none" && this.slots.every((slot) => slot.inFlight.size === 0);
  }

  stats(): CodecWorkerStats {
    const stats: CodecWorkerStats = {
      workers: this.slots.length,
      dispatched: this.dispatched,
      ranHere: this.ranHere,
      written: this.written,
    };
    if (this.failure !== undefined) stats.failure = this.failure;
    if (this.refused !== undefined) stats.refused = this.refused;
    return stats;
  }

  /** Start workers up to `size` now rather than at the first large chunk, and wait until they are ready. */
  async warm(size: number): Promise<void> {
    while (this.failure === undefined && this.slots.length < size) this.start();
    await Promise.all(this.slots.slice(0, size).map((slot) => slot.started));
    if (this.failure !== undefined) throw new Error(this.failure);
  }

  /** Stop every worker (jobs they hold fail) and forget a failure to start: queued and later jobs start new ones. */
  close(): void {
    for (const slot of this.slots.splice(0)) {
      const held = [...slot.inFlight.values()];
      // Its jobs fail once the worker has stopped: until then it may still write into what they lent it (a read
      // buffer, a file).
      void Promise.resolve(slot.worker.terminate()).then(() => {
        for (const pending of held) pending.reject(new Error("The codec workers were closed"));
      });
    }
    this.failure = undefined;
  }

  private pump(): void {
    // A job the calling thread will take at its next turn stays queued for it.
    while (this.queue.length > (this.helper === "scheduled" ? 1 : 0)) {
      const slot = this.slotFor(this.queue[0]!.size);
      if (!slot) break;
      // Once every worker has a job, the calling thread takes the next one before workers queue more:
      // otherwise it idles while a worker works through a backlog.
      if (slot.inFlight.size > 0 && this.helper === "none" && callerTurn && this.queue[0]!.callerHelps) {
        this.scheduleHelp();
        continue;
      }
      this.send(slot, this.queue.shift()!);
    }
    if (this.queue.some((pending) => pending.callerHelps) && this.helper === "none" && callerTurn) this.scheduleHelp();
  }

  private scheduleHelp(): void {
    this.helper = "scheduled";
    callerTurn!(() => {
      this.helper = "running";
      void this.helpOne();
    });
  }

  /** The least busy ready worker with room among the first `size`, starting another when all are busy. */
  private slotFor(size: number): Slot | undefined {
    let best: Slot | undefined;
    const reach = Math.min(size, this.slots.length);
    for (let i = 0; i < reach; i++) {
      const slot = this.slots[i]!;
      if (slot.ready && slot.inFlight.size < PER_WORKER && (!best || slot.inFlight.size < best.inFlight.size))
        best = slot;
    }
    const starting = this.slots.slice(0, reach).some((s) => !s.ready);
    if ((!best || best.inFlight.size > 0) && !starting && this.slots.length < size) this.start();
    return best;
  }

  private start(): void {
    let started!: () => void;
    const slot: Slot = {
      worker: spawnWorker(),
      ready: false,
      started: new Promise((resolve) => (started = resolve)),
      inFlight: new Map(),
    };
    this.slots.push(slot);
    const modules = codecWorkerModules();
    if (modules.length > 0) slot.worker.post({ type: "modules", modules: [...modules] }, []);
    slot.worker.onMessage((message) => {
      if (message.type === "ready") {
        slot.ready = true;
        slot.worker.hold(false);
        started();
        return this.pump();
      }
      const pending = slot.inFlight.get(message.id);
      if (!pending) return;
      slot.inFlight.delete(message.id);
      if (slot.inFlight.size === 0) slot.worker.hold(false);
      if (message.type === "failed") pending.reject(fromWire(message.error));
      else {
        if (message.type === "unavailable") {
          this.refused = message.reason;
          warnFallback(message.reason);
        }
        if (message.type === "written") this.written++;
        try {
          pending.resolve(pending.job.settle(message));
        } catch (error) {
          pending.reject(error);
        }
      }
      this.pump();
    });
    slot.worker.onFailure((error) => {
      this.lost(slot, error);
      started();
    });
  }

  private send(slot: Slot, pending: Pending): void {
    const id = this.nextId++;
    let task: ReturnType<PoolJob<unknown>["task"]>;
    try {
      task = pending.job.task(id);
      // A message structured clone refuses (a DataCloneError) fails its job alone, before the worker holds it.
      slot.worker.post(task.message, task.transfer);
    } catch (error) {
      pending.reject(error);
      return;
    }
    slot.inFlight.set(id, pending);
    if (slot.inFlight.size === 1) slot.worker.hold(true);
    this.dispatched++;
  }

  /**
   * The calling thread takes the next queued job it may help with (`lone`:
   * the only job, whatever its reach), then lets replies and I/O in before
   * taking another.
   */
  private async helpOne(lone = false): Promise<void> {
    const next = lone ? 0 : this.queue.findIndex((queued) => queued.callerHelps);
    const pending = next < 0 ? undefined : this.queue.splice(next, 1)[0];
    if (pending) {
      this.ranHere++;
      try {
        pending.resolve(await pending.job.here());
      } catch (error) {
        pending.reject(error);
      }
    }
    this.helper = "none";
    this.pump();
  }

  private lost(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    void slot.worker.terminate();
    if (!slot.ready) {
      // A worker that cannot start (no worker file in the bundle, a blocked URL) will not start next time either.
      this.failure = `The codec worker could not start: ${error.message}`;
      warnFallback(this.failure);
      for (const pending of this.queue.splice(0)) pending.resolve(pending.job.here());
      return;
    }
    for (const pending of slot.inFlight.values()) {
      pending.reject(new Error(`The codec worker stopped while working: ${error.message}`, { cause: error }));
    }
    this.pump();
  }
}

let pool: CodecPool | undefined;

export function codecPool(): CodecPool {
  pool ??= new CodecPool();
  return pool;
}

/** What the codec workers have done so far in this thread. */
export function codecWorkerStats(): CodecWorkerStats {
  return pool ? pool.stats() : { workers: 0, dispatched: 0, ranHere: 0, written: 0 };
}

/**
 * Start the codec workers now (the process's pool size, or `size`) and wait
 * until they are ready, so the first large chunks need not wait for them.
 * Rejects when workers cannot start here.
 */
export function startCodecWorkers(size = workerSettings().size): Promise<void> {
  return codecPool().warm(size);
}

/** Stop the codec workers (they never keep a process alive, so this is only needed to free them early). */
export function closeCodecWorkers(): void {
  pool?.close();
}
