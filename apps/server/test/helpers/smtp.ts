/** A real SMTP server in the test process: nodemailer delivers to it, the test reads what arrived. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface TestSmtp {
  readonly url: string;
  readonly mails: ReceivedMail[];
  /** Resolves with the next mail to `to` (or one already received and not yet taken). */
  next(to: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];
  const deliver = (mail: ReceivedMail) => {
    mails.push(mail);
    const waiter = waiters.find((w) => w.to === mail.to);
    if (waiter) {
      waiters.splice(waiters.indexOf(waiter), 1);
      taken.add(mail);
      waiter.resolve(mail);
    }
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          for (const rcpt of session.envelope.rcptTo) {
            deliver({
              to: rcpt.address,
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
            });
          }
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    next(to) {
      const ready = mails.find((m) => m.to === to && !taken.has(m));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiters.push({ to, resolve }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The token of the link in a mail, for the page the link points at. */
export function linkToken(mail: ReceivedMail, page: 'verify-email' | 'reset-password'): string {
  const match = new RegExp(`/${page}\\?token=([A-Za-z0-9_%-]+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no ${page} link in: ${mail.text}`);
  return decodeURIComponent(match[1]);
}
