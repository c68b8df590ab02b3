/**
 * The server's log: pino at `LOG_LEVEL`. At `info` a start says where the app is served and, in
 * dev-outbox mode, each mail's link; one line per HTTP request only at `debug`. In production
 * (`NODE_ENV=production`) every line is pino's JSON, for log collectors; otherwise each is one
 * readable line: time, level (but for info), message, then the fields as `key=value`, and an error's
 * stack on the lines below.
 */
import { type FastifyServerOptions, LogController } from 'fastify';
import type { Config } from './config.ts';

/** Fastify's own per-request lines (incoming, completed, 4xx, 404s) at debug; failures stay at error. */
export class RequestLogsAtDebug extends LogController {
  override incomingRequest(request: Parameters<LogController['incomingRequest']>[0]): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(...[error, request, reply]: Parameters<LogController['requestCompleted']>): void {
    if (error) {
      reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else {
      request.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }

  override defaultErrorLog(...[error, request, reply]: Parameters<LogController['defaultErrorLog']>): void {
    if (reply.statusCode >= 500) reply.log.error({ req: request, res: reply, err: error }, error?.message);
    else reply.log.debug({ res: reply, err: error }, error?.message);
  }

  override routeNotFound(request: Parameters<LogController['routeNotFound']>[0]): void {
    request.log.debug(`Route ${request.raw.method}:${request.raw.url} not found`);
  }

  override streamError(...[error, request, reply]: Parameters<LogController['streamError']>): void {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') {
      request.log.debug({ res: reply }, 'stream closed prematurely');
    } else {
      reply.log.warn({ err: error }, 'response terminated with an error with headers already sent');
    }
  }
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** pino's own fields, written in the line's head rather than as `key=value`. */
const HEAD_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function scalar(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return typeof value === 'string' && (value === '' || /[\s"=]/.test(value)) ? JSON.stringify(value) : text;
}

/** `key=value` pairs; a nested object (Fastify's `req`, `res`) becomes dotted keys. */
function fields(record: Record<string, unknown>, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out.push(...fields(value as Record<string, unknown>, `${prefix}${key}.`));
    } else {
      out.push(`${prefix}${key}=${scalar(value)}`);
    }
  }
  return out;
}

/** One pino record (its JSON, parsed) as the readable line(s) it is printed as, with the newline. */
export function readableLine(record: Record<string, unknown>): string {
  const time = new Date(typeof record.time === 'number' ? record.time : Date.now());
  const clock = `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}`;
  const level = LEVELS[record.level as number] ?? String(record.level);
  const rest: Record<string, unknown> = {};
  let stack = '';
  for (const [key, value] of Object.entries(record)) {
    if (HEAD_FIELDS.has(key)) continue;
    if (key === 'err' && value !== null && typeof value === 'object') {
      const { stack: errStack, message, type: _type, ...more } = value as Record<string, unknown>;
      if (typeof errStack === 'string') stack = `\n    ${errStack.split('\n').join('\n    ')}`;
      else rest.error = message;
      if (Object.keys(more).length > 0) rest.err = more;
      continue;
    }
    rest[key] = value;
  }
  const head = level === 'INFO' ? clock : `${clock} ${level}`;
  const message = typeof record.msg === 'string' && record.msg !== '' ? ` ${record.msg}` : '';
  const tail = fields(rest);
  return `${head}${message}${tail.length > 0 ? `  ${tail.join(' ')}` : ''}${stack}\n`;
}

/** A pino destination that writes each record as readable lines to `out` (stdout by default). */
export function readableStream(out: { write(text: string): unknown } = process.stdout): { write(line: string): void } {
  return {
    write(line) {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out.write(line);
        return;
      }
      out.write(readableLine(record));
    },
  };
}

/**
 * Fastify announces each address it listens on (every interface, for 0.0.0.0) at info; main.ts says
 * where the app is served in one line of its own, so those lines are debug.
 */
const FASTIFY_LISTENING = 'Server listening at ';

/** Fastify's logger options for this configuration. */
export function loggerOptions(
  config: Pick<Config, 'env' | 'logLevel'>,
  /** Where pino's JSON lines go instead (tests read them); default: stdout, readable but in production. */
  stream?: { write(line: string): void },
): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  return {
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization'],
      hooks: {
        logMethod(args, method, level) {
          if (level === 30 && typeof args[0] === 'string' && args[0].startsWith(FASTIFY_LISTENING)) {
            this.debug(...args);
            return;
          }
          method.apply(this, args);
        },
      },
      ...(stream ? { stream } : config.env === 'production' ? {} : { stream: readableStream() }),
    },
    logController: new RequestLogsAtDebug(),
  };
}

/** The address to open in a browser: localhost when listening on every interface. */
export function servedUrl(host: string, port: number): string {
  const name = ['0.0.0.0', '::', '0:0:0:0:0:0:0:0'].includes(host) ? 'localhost' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/** The one line a start prints at info: where the app is served, and PUBLIC_URL when it differs. */
export function servedLine(served: string, publicUrl: string): string {
  const differs = new URL(publicUrl).origin !== new URL(served).origin;
  return `MemeSlam is served on ${served}${differs ? ` (links in mails use PUBLIC_URL ${publicUrl})` : ''}`;
}
