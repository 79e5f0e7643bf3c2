import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { mailTransports } from './packages-loaded-on-use.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Queues a mail without making the caller wait, so response timing does not reveal whether it was sent. */
  send(mail: Mail): void;
  /** Resolves once every queued mail has been delivered or has failed. */
  flush(): Promise<void>;
  /** Removes the outbox mails addressed to this address (a deleted account's); answers how many. */
  deleteMailsTo(address: string): Promise<number>;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
  /** Outbox files older than this are deleted (default 7 days). */
  outboxMaxAgeMs?: number;
  /** Only the newest this many outbox files are kept (default 1,000). */
  outboxMaxFiles?: number;
  /** Mails waiting for delivery at once; beyond it a mail is dropped and logged (default 1,000). */
  maxPendingMails?: number;
  now?: () => number;
}

export const OUTBOX_MAX_AGE_MS = 7 * 24 * 3600_000;
export const OUTBOX_MAX_FILES = 1_000;
export const MAX_PENDING_MAILS = 1_000;

// Control characters (CR, LF, NEL included), line and paragraph separators and bidirectional overrides: anything that
// could start a new line or make a mail's text read differently from what was written.
const NOT_SINGLE_LINE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]+/gu;

/** User data placed in a mail or a header: one line, so it cannot forge headers or add paragraphs of its own. */
export function singleLine(value: string): string {
  return value.replace(NOT_SINGLE_LINE, ' ').trim();
}

/**
 * Names start with the sending time, so they sort oldest first, then carry a tag of the recipient (files written
 * before the tag existed have none: they are pruned like the others but cannot be found by address).
 */
const OUTBOX_FILE = /^(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d)-(\d{3})Z-(?:([0-9a-f]{16})-)?[0-9a-f]{8}\.eml$/;

const recipientTag = (address: string) =>
  createHash('sha256').update(address.trim().toLowerCase()).digest('hex').slice(0, 16);

function sentAtOf(file: string): number {
  const match = OUTBOX_FILE.exec(file);
  return match ? Date.parse(`${match[1]}:${match[2]}:${match[3]}.${match[4]}Z`) : Number.NaN;
}

async function writeToOutbox(outboxDir: string, from: string, mail: Mail, sentAt: Date): Promise<void> {
  await mkdir(outboxDir, { recursive: true, mode: 0o700 });
  // Plain 8-bit text keeps links intact for whoever opens the file; quoted-printable would break them across lines.
  const message = [
    `From: ${singleLine(from)}`,
    `To: ${singleLine(mail.to)}`,
    `Subject: ${singleLine(mail.subject)}`,
    `Date: ${sentAt.toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    mail.text,
    '',
  ].join('\r\n');
  const stamp = sentAt.toISOString().replace(/[:.]/g, '-');
  const file = `${stamp}-${recipientTag(mail.to)}-${randomBytes(4).toString('hex')}.eml`;
  await writeFile(path.join(outboxDir, file), message, { mode: 0o600 });
}

async function outboxFiles(outboxDir: string): Promise<string[]> {
  try {
    return (await readdir(outboxDir)).filter((file) => OUTBOX_FILE.test(file)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export function createMailer(options: MailerOptions): Mailer {
  const pending = new Set<Promise<void>>();
  const transport = options.smtpUrl ? mailTransports().createTransport(options.smtpUrl) : null;
  const now = options.now ?? Date.now;
  const maxAgeMs = options.outboxMaxAgeMs ?? OUTBOX_MAX_AGE_MS;
  const maxFiles = options.outboxMaxFiles ?? OUTBOX_MAX_FILES;
  const maxPending = options.maxPendingMails ?? MAX_PENDING_MAILS;

  /** Deletes outbox files past the age limit and all but the newest `maxFiles`. */
  async function pruneOutbox(): Promise<void> {
    const files = await outboxFiles(options.outboxDir);
    const oldestKept = now() - maxAgeMs;
    const excess = files.length - maxFiles;
    const stale = files.filter((file, index) => index < excess || sentAtOf(file) < oldestKept);
    await Promise.all(stale.map((file) => rm(path.join(options.outboxDir, file), { force: true })));
  }

  // One prune at a time: mails written while one runs ask for one more pass instead of a readdir each.
  let pruning: Promise<void> | null = null;
  let pruneAgain = false;
  function pruneSoon(): Promise<void> {
    if (pruning) {
      pruneAgain = true;
      return pruning;
    }
    pruning = (async () => {
      try {
        do {
          pruneAgain = false;
          await pruneOutbox();
        } while (pruneAgain);
      } finally {
        pruning = null;
      }
    })();
    return pruning;
  }

  async function deliver(mail: Mail): Promise<void> {
    if (transport) {
      await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
      return;
    }
    await writeToOutbox(options.outboxDir, options.from, mail, new Date(now()));
    await pruneSoon().catch((error: unknown) =>
      options.log.error({ err: error }, 'mail outbox pruning failed'),
    );
  }

  return {
    send(mail) {
      if (pending.size >= maxPending) {
        options.log.error(
          { subject: mail.subject, pending: pending.size },
          'mail dropped: delivery queue full',
        );
        return;
      }
      const delivery = deliver(mail)
        .catch((error: unknown) =>
          options.log.error({ err: error, subject: mail.subject }, 'mail delivery failed'),
        )
        .finally(() => pending.delete(delivery));
      pending.add(delivery);
    },
    async flush() {
      await Promise.all([...pending]);
    },
    async deleteMailsTo(address) {
      // Mails handed to an SMTP server are out of reach; only the outbox holds copies.
      if (transport) return 0;
      await Promise.all([...pending]);
      const tag = recipientTag(address);
      const addressed = (await outboxFiles(options.outboxDir)).filter(
        (file) => OUTBOX_FILE.exec(file)?.[5] === tag,
      );
      await Promise.all(addressed.map((file) => rm(path.join(options.outboxDir, file), { force: true })));
      return addressed.length;
    },
  };
}
