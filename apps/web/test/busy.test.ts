/**
 * Asking again while the server is busy (api/busy.ts): after each 503's Retry-After, the line told
 * when it begins and ends, and the refusal given back as before once the next wait would pass the cap.
 */
import { describe, expect, it } from 'vitest';
import { askWhileBusy, retryAfterMs } from '../src/api/busy.ts';

/** A refusal as ApiError carries it. */
const refusal = (status: number, retryAfter: number | null) =>
  Object.assign(new Error('Server busy, try again shortly'), { status, retryAfterMs: retryAfter });

/** A clock moved by the waits alone, the waits taken, and what the line was told. */
function setup(answers: (Error | string)[]) {
  let now = 1_000;
  const waits: number[] = [];
  const told: (number | null)[] = [];
  let calls = 0;
  const call = async () => {
    const answer = answers[calls++];
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const options = {
    now: () => now,
    sleep: async (ms: number) => {
      waits.push(ms);
      now += ms;
    },
    onLine: (since: number | null) => told.push(since),
    maxWaitMs: 10_000,
    random: () => 0,
  };
  return { call, options, waits, told, calls: () => calls };
}

describe('askWhileBusy', () => {
  it('asks again after each Retry-After until it is answered, saying when the line began and that it ended', async () => {
    const { call, options, waits, told } = setup([refusal(503, 1000), refusal(503, 3000), 'session']);
    await expect(askWhileBusy(call, options)).resolves.toBe('session');
    expect(waits).toEqual([1000, 3000]);
    expect(told).toEqual([1_000, null]);
  });

  it('waits up to a second more at random (or the wait itself, if shorter), so a crowd does not come back at once', async () => {
    const { call, options, waits } = setup([refusal(503, 2000), refusal(503, 400), 'session']);
    await expect(askWhileBusy(call, { ...options, random: () => 0.5 })).resolves.toBe('session');
    expect(waits).toEqual([2500, 600]);
  });

  it('gives the refusal back as before when the next wait would pass the cap', async () => {
    const last = refusal(503, 5000);
    const { call, options, waits, told } = setup([refusal(503, 4000), refusal(503, 4000), last]);
    await expect(askWhileBusy(call, options)).rejects.toBe(last);
    // 4 + 4 s waited; 5 s more would be 13 s past the first try.
    expect(waits).toEqual([4000, 4000]);
    expect(told).toEqual([1_000, null]);
  });

  it('never asks again a 503 without Retry-After, nor any other refusal, and says nothing of a line', async () => {
    for (const error of [refusal(503, null), refusal(429, 1000), refusal(500, 1000), new Error('offline')]) {
      const { call, options, waits, told, calls } = setup([error, 'never']);
      await expect(askWhileBusy(call, options)).rejects.toBe(error);
      expect({ waits, told, calls: calls() }).toEqual({ waits: [], told: [], calls: 1 });
    }
  });
});

describe('retryAfterMs', () => {
  it('reads whole seconds or an HTTP date; nothing else', () => {
    expect(retryAfterMs('1')).toBe(1000);
    expect(retryAfterMs(' 12 ')).toBe(12_000);
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs('-1')).toBeNull();
    expect(retryAfterMs('1.5')).toBeNull();
  });
});
