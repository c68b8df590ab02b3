/**
 * The hashing queue's rule (auth/passwords.ts, docs/limits.md) on a hand-moved clock with work that
 * ends when the test says: the wait a newcomer is refused for, its Retry-After, sign-ins first, and
 * no hash left waiting for ever behind them. abuse-cpu.test.ts holds the real queue to it over HTTP.
 */
import { SERVER_TEXTS } from '@memeslam/protocol';
import { describe, expect, it } from 'vitest';
import { type HashLane, HashQueue } from '../src/auth/passwords.ts';
import { AppError } from '../src/http/errors.ts';

/** A queue of 2 slots and a 1 s bound (a first guess of 100 ms a hash) whose hashes end when the test says. */
function harness() {
  let now = 0;
  const queue = new HashQueue({ slots: 2, maxWaitMs: 1000, firstEstimateMs: 100, now: () => now });
  const running: { name: string; end: () => void }[] = [];
  const order: string[] = [];
  const submit = (lane: HashLane, name: string) =>
    queue.run(
      lane,
      () =>
        new Promise<string>((resolve) => {
          order.push(name);
          running.push({ name, end: () => resolve(name) });
        }),
    );
  /**
   * Moves the clock by `ms` and ends the running hash named (else the one that started first);
   * resolves once the slot has been handed on.
   */
  const finish = async (ms: number, name?: string) => {
    now += ms;
    const index = name === undefined ? 0 : running.findIndex((hash) => hash.name === name);
    const [hash] = running.splice(index, 1);
    if (!hash) throw new Error(`${name ?? 'nothing'} is not running`);
    hash.end();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { queue, submit, finish, order };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe('the hashing queue', () => {
  it('lets newcomers in while their estimated wait is within the bound, then answers 503 with Retry-After', async () => {
    const { queue, submit } = harness();
    void submit('other', 'a');
    void submit('other', 'b');
    expect(queue.estimateWaitMs('other')).toBe(50); // one hash (100 ms) of two slots
    // 19 waiting: the 20th would wait (19 + 1) × 100 / 2 = 1000 ms, the bound itself.
    for (let i = 0; i < 19; i += 1) void submit('other', `w${i}`);
    expect(queue.estimateWaitMs('other')).toBe(1000);
    void submit('other', 'last in');
    expect(queue.state.othersWaiting).toBe(20);
    expect(queue.estimateWaitMs('other')).toBe(1050);
    const refused = await refusal(submit('other', 'refused'));
    expect(refused.status).toBe(503);
    expect(refused.message).toBe(SERVER_TEXTS.serverBusy);
    // Whole seconds until the line is back within the bound, at least one.
    expect(refused.headers).toEqual({ 'retry-after': '1' });
    expect(queue.state.othersWaiting).toBe(20);
  });

  it('estimates from the measured hashes: a moving average, the first measure replacing the guess', async () => {
    const { queue, submit, finish } = harness();
    for (let i = 0; i < 3; i += 1) void submit('other', `h${i}`);
    await finish(40); // h0: 40 ms
    expect(queue.state.averageMs).toBe(40);
    await finish(100); // h1 began with h0: 140 ms
    expect(queue.state.averageMs).toBeCloseTo(60);
    // h2 runs alone; h3 takes the other slot, then 33 wait: (32 + 1) × 60 / 2 = 990 ms for the last.
    void submit('other', 'h3');
    for (let i = 0; i < 33; i += 1) void submit('other', `x${i}`);
    expect(queue.estimateWaitMs('other')).toBeCloseTo(1020);
    expect((await refusal(submit('other', 'refused'))).headers).toEqual({ 'retry-after': '1' });
    // A slow hash (h2, 3,100 ms) lifts the average to 668 ms: 32 waiting are now 11 s of work, and a
    // newcomer is told to come back once 10 of them are through.
    await finish(3000);
    expect(queue.state.averageMs).toBeCloseTo(668);
    expect(queue.estimateWaitMs('other')).toBeCloseTo(11_022);
    expect((await refusal(submit('other', 'refused'))).headers).toEqual({ 'retry-after': '11' });
  });

  it('runs a sign-in ahead of every registration waiting; a full line of registrations does not refuse it', async () => {
    const { queue, submit, finish, order } = harness();
    for (let i = 0; i < 22; i += 1) void submit('other', `r${i}`);
    expect(queue.state.othersWaiting).toBe(20);
    await refusal(submit('other', 'one too many'));
    // The sign-ins' line is empty: a sign-in waits for one hash to end.
    expect(queue.estimateWaitMs('login')).toBe(50);
    const login = submit('login', 'login');
    await finish(100);
    expect(order).toEqual(['r0', 'r1', 'login']);
    await finish(100, 'login');
    await expect(login).resolves.toBe('login');
    expect(queue.state.othersWaiting).toBe(19);
  });

  it('a hash that has waited twice the bound goes ahead of the sign-ins: nothing waits without end', async () => {
    const { queue, submit, finish, order } = harness();
    void submit('other', 'r0');
    void submit('other', 'r1');
    const patient = submit('other', 'patient');
    // Sign-ins keep coming, one per hash that ends, and go first while the registration has waited
    // up to 2 × 1000 ms of the clock.
    let ended = 0;
    while (order.at(-1) !== 'patient') {
      void submit('login', `login${ended}`);
      await finish(100);
      ended += 1;
      expect(ended).toBeLessThanOrEqual(21);
    }
    // It started when the 21st hash ended, at 2,100 ms: the first moment it had waited past 2,000.
    expect(ended).toBe(21);
    await finish(100, 'patient');
    await expect(patient).resolves.toBe('patient');
    expect(queue.state).toMatchObject({ loginsWaiting: 0, othersWaiting: 0 });
  });
});
