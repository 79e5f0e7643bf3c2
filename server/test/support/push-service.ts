import { createECDH, createDecipheriv, createHmac, randomBytes, randomUUID, type ECDH } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after } from 'node:test';
import { decodeProtectedHeader, importJWK, jwtVerify, type JWTPayload } from 'jose';
import { PUSH_SERVICE_HOSTS } from './push-certificate.mjs';

/**
 * A fake push service for tests: an https server on a loopback address (127.0.0.2 by default) with the tests' own
 * certificate (push-certificate.mjs), which this process trusts through NODE_EXTRA_CA_CERTS. It records each request
 * and answers what the test asks (201 by default). With browserSubscription() a test makes a browser's keys and the
 * subscription JSON to post, and reads what arrived with decryptPush() and verifyVapid().
 */
export interface ReceivedPush {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The port the request came from: which connection carried it (a test's pass-through tells them apart). */
  remotePort: number;
  /** When it arrived (Date.now()). */
  at: number;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Milliseconds before the answer is sent. */
  delayMs?: number;
}

export interface FakePushService {
  /** https://127.0.0.x:port */
  origin: string;
  received: ReceivedPush[];
  /** The next answers, in order: a status, or a status with headers, a body and a delay; 201 once they are used up. */
  answer(...answers: Array<number | FakeAnswer>): void;
  /** Resolves once `count` requests have arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  /** A new endpoint of this service, as a browser gets one. */
  endpoint(): string;
}

/** The CA, server certificate and key, from the folder NODE_EXTRA_CA_CERTS names (made by the test runner). */
function certificateFiles(): { cert: Buffer; key: Buffer } {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  if (!ca || path.basename(ca) !== 'ca.pem') {
    throw new Error(
      'The fake push service needs its CA trusted at process start: run the test through `node test/run.mjs push`, ' +
        'or with NODE_EXTRA_CA_CERTS=$(node test/support/push-certificate.mjs)',
    );
  }
  const dir = path.dirname(ca);
  return {
    cert: readFileSync(path.join(dir, 'server.pem')),
    key: readFileSync(path.join(dir, 'server-key.pem')),
  };
}

export async function startPushService(host = '127.0.0.2'): Promise<FakePushService> {
  if (!PUSH_SERVICE_HOSTS.includes(host)) throw new Error(`The push certificate does not name ${host}`);
  const received: ReceivedPush[] = [];
  const answers: FakeAnswer[] = [];
  const waiters = new Set<() => void>();
  const server = https.createServer(certificateFiles(), (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        method: request.method ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
        remotePort: request.socket.remotePort ?? 0,
        at: Date.now(),
      });
      const { status, headers = {}, body, delayMs = 0 } = answers.shift() ?? { status: 201 };
      for (const wake of waiters) wake();
      const timer = setTimeout(() => {
        if (response.destroyed) return;
        response
          .writeHead(status, { 'content-type': 'text/plain', ...headers })
          .end(body ?? (status >= 400 ? `status ${status}` : ''));
      }, delayMs);
      response.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const origin = `https://${host}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    answer: (...given) =>
      answers.push(...given.map((entry) => (typeof entry === 'number' ? { status: entry } : entry))),
    endpoint: () => `${origin}/push/${randomUUID()}`,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(received.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`the push service received ${received.length} of ${count} pushes in ${timeoutMs} ms`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

/** A browser's side of a subscription: its P-256 key pair and auth secret, and the JSON it would post. */
export interface BrowserSubscription {
  ecdh: ECDH;
  authSecret: Buffer;
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

export function browserSubscription(endpoint: string): BrowserSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    ecdh,
    authSecret,
    json: {
      endpoint,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
    },
  };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();
/** HKDF-Expand for one block (RFC 5869): every length here is at most 32 bytes. */
const expand = (prk: Buffer, info: Buffer, length: number) =>
  hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, length);

/**
 * Decrypts a push body as the browser does: the aes128gcm content coding (RFC 8188) keyed per Web Push (RFC 8291)
 * from the browser's private key, the sender's key in the header, and the auth secret. Fails on any tampering.
 */
export function decryptPush(body: Buffer, browser: BrowserSubscription): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const senderKey = body.subarray(21, 21 + idLength);
  const records = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`the key id is ${idLength} bytes, not a P-256 public key`);
  if (records.length > recordSize) throw new Error('the push holds more than one record');
  const browserKey = browser.ecdh.getPublicKey();
  const shared = browser.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browserKey, senderKey]);
  const ikm = expand(hmac(browser.authSecret, shared), keyInfo, 32);
  const prk = hmac(salt, ikm);
  const key = expand(prk, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = expand(prk, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', key, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('the record does not end with the last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/**
 * Checks a push's VAPID Authorization header (RFC 8292): `vapid t=<JWT>, k=<public key>`, the key the server
 * publishes, and a JWT signed by it (ES256) for this push service's origin. Answers the JWT's claims.
 */
export async function verifyVapid(
  headers: IncomingHttpHeaders,
  publicKey: string,
  audience: string,
): Promise<JWTPayload> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(headers.authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${headers.authorization}`);
  const [, token, key] = match;
  if (key !== publicKey) throw new Error('the push names another public key');
  if (decodeProtectedHeader(token).alg !== 'ES256') throw new Error('the JWT is not ES256');
  const raw = Buffer.from(publicKey, 'base64url');
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: raw.subarray(1, 33).toString('base64url'),
    y: raw.subarray(33, 65).toString('base64url'),
  };
  const { payload } = await jwtVerify(token, await importJWK(jwk, 'ES256'), { audience });
  return payload;
}
