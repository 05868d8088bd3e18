import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { TensorstoreReply, TensorstoreRequest } from "./protocol.js";

/** Bytes of the child's stderr kept for error messages. */
const STDERR_TAIL = 4096;

/**
 * A tensorstore child process (child.py, or anything speaking its protocol),
 * kept alive across runs so that Python's start-up and imports are never timed.
 * Requests go one at a time; a reply with `error`, or the child's exit, rejects.
 */
export class TensorstoreChild {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (reply: TensorstoreReply) => void; reject: (error: Error) => void }
  >();
  private stderr = "";
  private exited: Error | undefined;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
    createInterface({ input: child.stdout }).on("line", (line) => this.receive(line));
    child.on("error", (error) => this.fail(new Error(`tensorstore child: ${error.message}`)));
    child.on("exit", (code, signal) =>
      this.fail(new Error(`tensorstore child exited (${signal ?? `code ${code}`}): ${this.stderr.trim()}`)),
    );
  }

  /** False once the child has exited or could not start. */
  get running(): boolean {
    return this.exited === undefined;
  }

  /** Starts `command` (the program, then its arguments). */
  static start(command: readonly string[]): TensorstoreChild {
    const [program, ...args] = command;
    if (!program) throw new Error("tensorstore child: empty command");
    return new TensorstoreChild(spawn(program, args, { stdio: ["pipe", "pipe", "pipe"] }));
  }

  /** Sends `request`; resolves with the reply, rejects with the child's error message. */
  request(request: TensorstoreRequest): Promise<TensorstoreReply> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ ...request, id })}\n`);
    });
  }

  /** Sends `request`, whose reply must carry the time the child measured; returns it, in ms. */
  async timed(request: TensorstoreRequest): Promise<number> {
    const { ms } = await this.request(request);
    if (typeof ms !== "number" || !(ms >= 0))
      throw new Error(`tensorstore child: no time in the reply to ${request.op}`);
    return ms;
  }

  /** Ends the child (closing its stdin ends its loop) and waits for it. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exit = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.stdin.end();
    await exit;
  }

  private receive(line: string): void {
    let reply: TensorstoreReply;
    try {
      reply = JSON.parse(line) as TensorstoreReply;
    } catch {
      this.fail(new Error(`tensorstore child: not a reply: ${line.slice(0, 200)}`));
      this.child.kill();
      return;
    }
    const waiter = this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id);
    if (reply.error !== undefined) waiter.reject(new Error(`tensorstore: ${reply.error}`));
    else waiter.resolve(reply);
  }

  private fail(error: Error): void {
    this.exited ??= error;
    for (const waiter of this.pending.values()) waiter.reject(this.exited);
    this.pending.clear();
  }
}
