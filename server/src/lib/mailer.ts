import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

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
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}

function headerSafe(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

async function writeToOutbox(outboxDir: string, from: string, mail: Mail): Promise<void> {
  await mkdir(outboxDir, { recursive: true, mode: 0o700 });
  const sentAt = new Date();
  // Plain 8-bit text keeps links intact for whoever opens the file; quoted-printable would break them across lines.
  const message = [
    `From: ${headerSafe(from)}`,
    `To: ${headerSafe(mail.to)}`,
    `Subject: ${headerSafe(mail.subject)}`,
    `Date: ${sentAt.toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    mail.text,
    '',
  ].join('\r\n');
  const file = `${sentAt.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
  await writeFile(path.join(outboxDir, file), message, { mode: 0o600 });
}

export function createMailer(options: MailerOptions): Mailer {
  const pending = new Set<Promise<void>>();
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;

  async function deliver(mail: Mail): Promise<void> {
    if (transport) {
      await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
    } else {
      await writeToOutbox(options.outboxDir, options.from, mail);
    }
  }

  return {
    send(mail) {
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
  };
}
