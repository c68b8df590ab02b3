/**
 * The one-node adapter's broadcasts against socket.io's stock in-memory adapter: the same sockets get
 * the same packets, and the WebSocket frame sent is byte for byte the one the stock adapter builds;
 * a prepared broadcast sends, when it is sent, what the stock adapter's broadcast sends then.
 */
import { Adapter } from 'socket.io-adapter';
import type { Packet } from 'socket.io-parser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JsonOnlyEncoder } from '../src/realtime/json-only-parser.ts';
import { LocalAdapter } from '../src/realtime/local-adapter.ts';

interface Written {
  readonly sid: string;
  readonly packets: string[];
  readonly frame: Buffer | null;
  readonly options: Record<string, unknown>;
}

/** An adapter over a namespace of fake sockets that record what is written to them. */
function adapterOf(kind: typeof Adapter) {
  const written: Written[] = [];
  const sockets = new Map<string, object>();
  const nsp = { name: '/', sockets, server: { encoder: new JsonOnlyEncoder() } };
  const adapter = new kind(nsp);
  const join = (sid: string, ...rooms: string[]) => {
    sockets.set(sid, {
      client: {
        writeToEngine: (packets: string[], options: Record<string, unknown>) => {
          const { wsPreEncodedFrame, ...rest } = options;
          written.push({
            sid,
            packets,
            frame: wsPreEncodedFrame ? Buffer.concat(wsPreEncodedFrame as Buffer[]) : null,
            options: rest,
          });
        },
      },
    });
    void adapter.addAll(sid, new Set([sid, ...rooms]));
  };
  return { adapter, written, join };
}

function both(setUp: (join: (sid: string, ...rooms: string[]) => void) => void) {
  const stock = adapterOf(Adapter);
  const local = adapterOf(LocalAdapter);
  setUp(stock.join);
  setUp(local.join);
  return {
    broadcast(packet: () => Packet, opts: () => Parameters<Adapter['broadcast']>[1]) {
      stock.adapter.broadcast(packet(), opts());
      local.adapter.broadcast(packet(), opts());
      return { stock: stock.written.splice(0), local: local.written.splice(0) };
    },
  };
}

const event = (name: string, payload: unknown): Packet => ({ type: 2, nsp: '/', data: [name, payload] });

describe('LocalAdapter', () => {
  const rooms = both((join) => {
    join('s1', 'game:a', 'user:1');
    join('s2', 'game:a', 'user:2');
    join('s3', 'game:b', 'user:2');
  });

  afterEach(() => vi.restoreAllMocks());

  it("sends a room's broadcast to its sockets, in the stock adapter's frame, without the stock broadcast", () => {
    const stockBroadcasts = vi.spyOn(Adapter.prototype, 'broadcast');
    // Text past 125 and 65,535 bytes takes the longer length fields; non-ASCII text is longer in bytes than in characters.
    for (const text of ['short', 'é'.repeat(100), '🃏'.repeat(20_000)]) {
      const { stock, local } = rooms.broadcast(
        () => event('cardPlayed', { text, n: 1 }),
        () => ({ rooms: new Set(['game:a']), except: new Set(), flags: {} }),
      );
      expect(local.map((w) => w.sid)).toEqual(['s1', 's2']);
      expect(local).toEqual(stock);
    }
    expect(stockBroadcasts).toHaveBeenCalledTimes(3); // the stock adapter's own, not the local one's
  });

  it('passes the flags on, and sends nothing to a room nobody is in', () => {
    const flagged = rooms.broadcast(
      () => event('handUpdated', { hand: [] }),
      () => ({ rooms: new Set(['user:2']), except: new Set(), flags: { volatile: true, compress: false } }),
    );
    expect(flagged.local.map((w) => w.sid)).toEqual(['s2', 's3']);
    expect(flagged.local).toEqual(flagged.stock);
    expect(flagged.local[0]?.options).toMatchObject({ volatile: true, compress: false });
    const empty = rooms.broadcast(
      () => event('x', {}),
      () => ({ rooms: new Set(['game:none']), except: new Set() }),
    );
    expect(empty).toEqual({ stock: [], local: [] });
  });

  it("leaves several rooms and exclusions to the stock adapter's broadcast", () => {
    const several = rooms.broadcast(
      () => event('x', { a: 1 }),
      () => ({ rooms: new Set(['game:a', 'user:2']), except: new Set(['s1']) }),
    );
    expect(several.local.map((w) => w.sid)).toEqual(['s2', 's3']);
    expect(several.local).toEqual(several.stock);
  });
});

describe('LocalAdapter.prepare', () => {
  it("sends the stock adapter's packet and frame to the room's sockets as they are when it is sent", () => {
    const stock = adapterOf(Adapter);
    const local = adapterOf(LocalAdapter);
    for (const { join } of [stock, local]) join('s1', 'game:a');
    for (const text of ['short', 'é'.repeat(100), '🃏'.repeat(20_000)]) {
      const payload = { text, seq: 7 };
      const send = (local.adapter as LocalAdapter).prepare('game:a', 'cardPlayed', [payload]);
      payload.seq = 8; // what changes after preparing is not sent
      for (const { join } of [stock, local]) join(`s-${text.length}`, 'game:a');
      expect(local.written).toEqual([]);
      send();
      stock.adapter.broadcast(event('cardPlayed', { text, seq: 7 }), {
        rooms: new Set(['game:a']),
        except: new Set(),
        flags: {},
      });
      const sent = local.written.splice(0);
      expect(sent.map((w) => w.sid)).toContain(`s-${text.length}`);
      expect(sent).toEqual(stock.written.splice(0));
    }
  });

  it('sends nothing to a room nobody is in', () => {
    const local = adapterOf(LocalAdapter);
    local.join('s1', 'game:a');
    (local.adapter as LocalAdapter).prepare('game:none', 'x', [{}])();
    expect(local.written).toEqual([]);
  });
});
