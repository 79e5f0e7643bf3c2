// A bare HTTP/1.1 client over one TCP connection. fetch() pools and retries connections behind the caller's back;
// the shutdown checks need to know exactly which connection a request travels on and when it was written.
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class RawConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly waiting: { resolve: (response: RawResponse) => void; reject: (error: Error) => void }[] =
    [];
  /** Resolves when the server (or the client) ends the connection. */
  readonly closed: Promise<void>;
  isClosed = false;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.isClosed = true;
        for (const waiter of this.waiting.splice(0))
          waiter.reject(new Error('connection closed before the answer'));
        resolve();
      }),
    );
    socket.on('error', () => undefined);
  }

  /** Connects, or rejects with the socket error (ECONNREFUSED when nothing listens). */
  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
    });
  }

  /** Writes one request; answers come back in order (HTTP/1.1 pipelining). */
  send(
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: string | Buffer } = {},
  ): Promise<RawResponse> {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const headers: Record<string, string> = {
      host: '127.0.0.1',
      connection: 'keep-alive',
      ...options.headers,
      ...(body ? { 'content-length': String(body.length) } : {}),
    };
    const head = [
      `${method} ${path} HTTP/1.1`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      '',
      '',
    ];
    const answer = new Promise<RawResponse>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.socket.write(body ? Buffer.concat([Buffer.from(head.join('\r\n')), body]) : head.join('\r\n'));
    return answer;
  }

  close(): void {
    this.socket.destroy();
  }

  private drain(): void {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine = '', ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(statusLine.split(' ')[1]);
      let body: Buffer;
      let rest: Buffer;
      if (headers['transfer-encoding'] === 'chunked') {
        const chunks: Buffer[] = [];
        let at = end + 4;
        for (;;) {
          const lineEnd = this.buffer.indexOf('\r\n', at);
          if (lineEnd < 0) return;
          const size = parseInt(this.buffer.subarray(at, lineEnd).toString('latin1'), 16);
          if (this.buffer.length < lineEnd + 2 + size + 2) return;
          chunks.push(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
          at = lineEnd + 2 + size + 2;
          if (size === 0) break;
        }
        body = Buffer.concat(chunks);
        rest = this.buffer.subarray(at);
      } else {
        const length = Number(headers['content-length'] ?? 0);
        if (this.buffer.length < end + 4 + length) return;
        body = this.buffer.subarray(end + 4, end + 4 + length);
        rest = this.buffer.subarray(end + 4 + length);
      }
      this.buffer = rest;
      this.waiting.shift()?.resolve({ status, headers, body: body.toString('utf8') });
    }
  }
}
