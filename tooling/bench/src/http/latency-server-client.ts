import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import type { RequestStats } from "../request-stats.js";
import type { ServerReply, ServerRequest } from "./protocol.js";

/** The latency server, running in a child process so it does not share the client's event loop. */
export class LatencyServer {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly child: ChildProcess,
    /** Base URL, ending with "/". */
    readonly url: string,
  ) {}

  static async start(root: string, latencyMs: number): Promise<LatencyServer> {
    // From the TypeScript sources (this package's tests) the child loads them with the hooks the test process has.
    const fromSource = import.meta.url.endsWith(".ts");
    const script = fileURLToPath(new URL(fromSource ? "./latency-server.ts" : "./latency-server.js", import.meta.url));
    const execArgv = fromSource ? process.execArgv : [];
    const child = fork(script, [root, String(latencyMs)], { stdio: ["ignore", "inherit", "inherit", "ipc"], execArgv });
    const [reply] = (await once(child, "message")) as [ServerReply];
    if (!("port" in reply)) throw new Error("latency server did not report its port");
    return new LatencyServer(child, `http://127.0.0.1:${reply.port}/`);
  }

  /** Requests and body bytes served since the last reset. */
  stats(): Promise<RequestStats> {
    return this.ask("stats");
  }

  async reset(): Promise<void> {
    await this.ask("reset");
  }

  async stop(): Promise<void> {
    const exited = once(this.child, "exit");
    this.child.kill();
    await exited;
  }

  /** One question at a time, so that replies pair with questions. */
  private ask(request: ServerRequest): Promise<RequestStats> {
    const answer = this.queue.then(async () => {
      const replied = once(this.child, "message");
      this.child.send(request);
      const [reply] = (await replied) as [ServerReply];
      if (!("stats" in reply)) throw new Error("unexpected reply from the latency server");
      return reply.stats;
    });
    this.queue = answer.catch(() => undefined);
    return answer;
  }
}
