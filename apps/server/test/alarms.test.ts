/**
 * The alarm heap under one timer: every alarm rings once, at or after its time and at the first fire
 * after it; a moved or cancelled one rings at its new time or not at all; the host's timer is armed
 * again only when the earliest alarm moves earlier. Driven by a hand-moved clock; the last test uses
 * the system clock's real timer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AlarmQueue } from '../src/alarms.ts';
import { systemClock } from '../src/clock.ts';

/** A queue on a hand-moved clock: `advance` fires it whenever its armed timer falls due on the way. */
function harness() {
  let now = 0;
  let armedFor: number | null = null;
  const arms: number[] = [];
  const queue = new AlarmQueue(
    () => now,
    (delay) => {
      armedFor = now + delay;
      arms.push(armedFor);
    },
  );
  return {
    queue,
    arms,
    get now() {
      return now;
    },
    advance(to: number) {
      while (armedFor !== null && armedFor <= to) {
        now = Math.max(now, armedFor);
        armedFor = null;
        queue.fire();
      }
      now = to;
    },
  };
}

describe('alarms', () => {
  it('ring once each, at the first fire at or after their time, in time order; moved and cancelled ones as last set', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), alarm: fc.nat(7), at: fc.nat(500) }),
      fc.record({ kind: fc.constant('cancel' as const), alarm: fc.nat(7) }),
      fc.record({ kind: fc.constant('advance' as const), by: fc.nat(120) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const h = harness();
        const rung: { alarm: number; at: number }[] = [];
        const alarms = Array.from({ length: 8 }, (_, alarm) => h.queue.alarm(() => rung.push({ alarm, at: h.now })));
        // The model: each alarm's pending time (absolute), or none.
        const pending = new Map<number, number>();
        for (const o of ops) {
          if (o.kind === 'set') {
            const at = h.now + o.at;
            alarms[o.alarm]?.set(at);
            pending.set(o.alarm, at);
          } else if (o.kind === 'cancel') {
            alarms[o.alarm]?.cancel();
            pending.delete(o.alarm);
          } else {
            const to = h.now + o.by;
            const due = [...pending].filter(([, at]) => at <= to).sort((a, b) => a[1] - b[1]);
            rung.length = 0;
            h.advance(to);
            // Exactly the due alarms rang, each at its own time (the timer is armed for the earliest).
            expect(rung.map((r) => r.alarm).sort()).toEqual(due.map(([alarm]) => alarm).sort());
            for (const r of rung) expect(r.at).toBe(pending.get(r.alarm));
            expect(rung.map((r) => r.at)).toEqual([...rung.map((r) => r.at)].sort((a, b) => a - b));
            for (const [alarm] of due) pending.delete(alarm);
          }
          expect(h.queue.size).toBe(pending.size);
        }
      }),
      { seed: 24, numRuns: 300 },
    );
  });

  it('arms the host timer again only when the earliest alarm moves earlier', () => {
    const h = harness();
    const a = h.queue.alarm(() => {});
    const b = h.queue.alarm(() => {});
    a.set(100);
    b.set(300);
    a.set(200); // later than the armed timer: it fires early, finds nothing due and arms again then
    b.set(150);
    expect(h.arms).toEqual([100]);
    a.set(50);
    expect(h.arms).toEqual([100, 50]);
    h.advance(60);
    expect(h.arms).toEqual([100, 50, 150]);
  });

  it('rings an alarm set for a time already passed at the next fire, not within the running one', () => {
    const h = harness();
    const order: string[] = [];
    const again = h.queue.alarm(() => order.push('again'));
    const first = h.queue.alarm(() => {
      order.push('first');
      again.set(0);
    });
    first.set(10);
    h.advance(10);
    expect(order).toEqual(['first', 'again']);
    expect(h.arms).toEqual([10, 10]); // the second fire was asked for, at once
  });

  it('keeps the alarms due with one that throws, and rings them at the next fire', () => {
    const h = harness();
    const rung: string[] = [];
    const failing = h.queue.alarm(() => {
      throw new Error('ring failed');
    });
    const other = h.queue.alarm(() => rung.push('other'));
    failing.set(5);
    other.set(5);
    // Which of the two rings first is not set: the other either rang or rings at the next fire.
    expect(() => h.advance(5)).toThrow('ring failed');
    h.advance(6);
    expect(rung).toEqual(['other']);
    expect(h.queue.size).toBe(0);
  });

  it('rings on the system clock, in time order, without a cancelled one', async () => {
    const rung: string[] = [];
    const now = Date.now();
    const done = new Promise<void>((resolve) => {
      const last = systemClock.alarm(() => {
        rung.push('last');
        resolve();
      });
      last.set(now + 30);
      systemClock.alarm(() => rung.push('cancelled')).cancel();
      const cancelled = systemClock.alarm(() => rung.push('cancelled'));
      cancelled.set(now + 5);
      cancelled.cancel();
      systemClock.alarm(() => rung.push('second')).set(now + 10);
      const moved = systemClock.alarm(() => rung.push('first'));
      moved.set(now + 20);
      moved.set(now + 1);
    });
    await done;
    expect(rung).toEqual(['first', 'second', 'last']);
    expect(Date.now()).toBeGreaterThanOrEqual(now + 30);
  });
});
