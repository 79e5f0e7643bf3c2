export interface RoundRobinProxy {
  /** Base URL clients talk to. */
  url: string;
  /** Requests forwarded to each target so far, in the order of `targets`. */
  counts: number[];
  close(): Promise<void>;
}

export function startRoundRobinProxy(
  targets: string[],
  options?: { port?: number; host?: string },
): Promise<RoundRobinProxy>;
