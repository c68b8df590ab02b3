/**
 * Outgoing mail through nodemailer: to the SMTP server at SMTP_URL, or, without one, to the dev
 * outbox — stored in the database and printed to the log as one line with its link ("Mail to …: subject
 * → link"), so a developer can click it.
 */
import { RESET_PASSWORD_TOKEN_TTL_MS, VERIFY_EMAIL_TOKEN_TTL_MS } from '@memeslam/protocol';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { outbox } from '../db/schema.ts';

export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The one link the mail is about (verification or reset). */
  readonly link: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function createMailer(options: {
  smtpUrl: string | null;
  from: string;
  db: Db;
  log: FastifyBaseLogger;
}): Mailer {
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({
          from: options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
      },
      close: () => transport.close(),
    };
  }
  return {
    async send(mail) {
      await options.db.insert(outbox).values(mail);
      options.log.info(`Mail to ${mail.to}: ${mail.subject} → ${mail.link}`);
    },
    close: () => {},
  };
}

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function linkMail(to: string, subject: string, lines: readonly string[], action: string, link: string): Mail {
  const text = `${lines.join('\n\n')}\n\n${action}: ${link}\n`;
  const html =
    lines.map((line) => `<p>${escape(line)}</p>`).join('') + `<p><a href="${escape(link)}">${escape(action)}</a></p>`;
  return { to, subject, text, html, link };
}

/** How long a link works, as the mail says it: "24 hours", "1 hour". */
function hoursText(ms: number): string {
  const hours = ms / 3_600_000;
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

export function verificationMail(to: string, username: string, link: string): Mail {
  return linkMail(
    to,
    'Verify your MemeSlam e-mail address',
    [
      `Hi ${username},`,
      `Confirm your e-mail address to finish setting up your MemeSlam account. The link works once and expires in ${hoursText(VERIFY_EMAIL_TOKEN_TTL_MS)}.`,
    ],
    'Verify e-mail',
    link,
  );
}

export function passwordResetMail(to: string, username: string, link: string): Mail {
  return linkMail(
    to,
    'Reset your MemeSlam password',
    [
      `Hi ${username},`,
      `Someone asked to reset the password of your MemeSlam account. If it was you, choose a new password with the link below; it works once and expires in ${hoursText(RESET_PASSWORD_TOKEN_TTL_MS)}. If not, ignore this mail.`,
    ],
    'Reset password',
    link,
  );
}
