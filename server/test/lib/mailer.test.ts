import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { createMailer, singleLine, type MailerOptions } from '../../src/lib/mailer.js';

const directories: string[] = [];
after(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

async function outboxDir(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'time-wallet-mailer-'));
  directories.push(directory);
  return path.join(directory, 'outbox');
}

/** A logger that keeps its error lines, so a test can count them. */
function recordingLog(): { log: FastifyBaseLogger; errors: string[] } {
  const errors: string[] = [];
  const ignore = () => undefined;
  const log = {
    level: 'error',
    error: (_object: unknown, message?: string) => void errors.push(message ?? ''),
    warn: ignore,
    info: ignore,
    debug: ignore,
    trace: ignore,
    fatal: ignore,
    silent: ignore,
    child: () => log,
  } as unknown as FastifyBaseLogger;
  return { log, errors };
}

const START = Date.parse('2026-03-11T15:00:00.000Z');

function mailerWith(options: Partial<MailerOptions> & { outboxDir: string }) {
  const { log, errors } = recordingLog();
  const mailer = createMailer({ smtpUrl: undefined, from: 'Time Wallet <no-reply@x.test>', log, ...options });
  return { mailer, errors };
}

const mail = (to: string, index = 0) => ({ to, subject: `Mail ${index}`, text: `Body ${index}` });

describe('mailer', () => {
  test('singleLine collapses line breaks, control characters and bidi overrides', () => {
    assert.equal(singleLine('Jo\r\nBcc: x@y.z\n\n'), 'Jo Bcc: x@y.z');
    assert.equal(singleLine('a\u0085b\u2028c\u2029d\u202ee\u0000f\tg\u001bh'), 'a b c d e f g h');
    assert.equal(singleLine('Zoë Ångström 🙂'), 'Zoë Ångström 🙂');
  });

  test('the outbox keeps only the newest files, and none older than the age limit', async () => {
    const dir = await outboxDir();
    let now = START;
    const { mailer, errors } = mailerWith({
      outboxDir: dir,
      outboxMaxFiles: 3,
      outboxMaxAgeMs: 7 * 24 * 3600_000,
      now: () => (now += 1000),
    });
    await mkdir(dir, { recursive: true });
    // Eight days old, in the outbox's own naming; and a file the outbox did not write, which it leaves alone.
    const stale = '2026-03-03T15-00-00-000Z-0123456789abcdef-01234567.eml';
    const staleUntagged = '2026-03-03T16-00-00-000Z-89abcdef.eml';
    await writeFile(path.join(dir, stale), 'old');
    await writeFile(path.join(dir, staleUntagged), 'old, named before recipient tags');
    await writeFile(path.join(dir, 'notes.txt'), 'kept');

    mailer.send(mail('first@example.com', 1));
    await mailer.flush();
    const afterFirst = await readdir(dir);
    assert.equal(afterFirst.includes(stale), false, 'an 8-day-old mail is pruned');
    assert.equal(afterFirst.includes(staleUntagged), false, 'an 8-day-old mail without a tag is pruned');
    for (let index = 2; index <= 6; index += 1) {
      mailer.send(mail(`user${index}@example.com`, index));
      await mailer.flush();
    }
    const files = (await readdir(dir)).sort();
    assert.equal(files.length, 4, files.join(', '));
    assert.ok(files.includes('notes.txt'));
    const subjects = await Promise.all(
      files
        .filter((file) => file.endsWith('.eml'))
        .map(async (file) => /^Subject: (.*)$/m.exec(await readFile(path.join(dir, file), 'utf8'))?.[1]),
    );
    assert.deepEqual(subjects, ['Mail 4', 'Mail 5', 'Mail 6']);
    assert.deepEqual(errors, []);
  });

  test('deleteMailsTo removes the mails to one address, whatever its case, and no other', async () => {
    const dir = await outboxDir();
    const { mailer } = mailerWith({ outboxDir: dir });
    mailer.send(mail('Leaving@Example.com', 1));
    mailer.send(mail('staying@example.com', 2));
    mailer.send(mail('leaving@example.com', 3));
    // Not yet flushed: deletion waits for the mails on their way.
    assert.equal(await mailer.deleteMailsTo('LEAVING@example.com'), 2);
    const left = await readdir(dir);
    assert.equal(left.length, 1);
    assert.match(await readFile(path.join(dir, left[0]!), 'utf8'), /^To: staying@example\.com$/m);
  });

  test('a full delivery queue drops mails instead of growing', async () => {
    // An SMTP server that accepts connections and never greets: deliveries stay pending.
    const sockets = new Set<Socket>();
    let closing = false;
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      if (closing) socket.destroy();
      else sockets.add(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // Ending the connections fails the pending deliveries, so the queue drains even when an assertion failed.
    const stopServer = async () => {
      while (sockets.size < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      closing = true;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    };
    const { port } = server.address() as { port: number };
    const { mailer, errors } = mailerWith({
      outboxDir: await outboxDir(),
      smtpUrl: `smtp://127.0.0.1:${port}`,
      maxPendingMails: 2,
    });
    try {
      for (let index = 0; index < 5; index += 1) mailer.send(mail(`user${index}@example.com`, index));
      assert.deepEqual(errors, Array(3).fill('mail dropped: delivery queue full'));
    } finally {
      await stopServer();
    }
    await mailer.flush();
    assert.equal(errors.filter((message) => message === 'mail delivery failed').length, 2);
  });
});
