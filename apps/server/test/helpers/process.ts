/** The server and the admin CLI as child processes, with their output kept for the test to read. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const mainScript = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export function run(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

/** Resolves with the address once the server logs that it listens. */
export function listening(child: ChildProcess, out: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = /MemeSlam is served on (http:\/\/127\.0\.0\.1:\d+)/.exec(out());
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out()}`)));
  });
}
