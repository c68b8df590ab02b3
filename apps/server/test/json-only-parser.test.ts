import { Decoder, Encoder, type Packet, PacketType } from 'socket.io-parser';
import { describe, expect, it } from 'vitest';
import { JsonOnlyEncoder } from '../src/realtime/json-only-parser.ts';

const gameState = {
  status: 'active',
  discardPiles: [[{ id: 'c1', number: 7, color: 'red', logo: 'doge' }], []],
  players: [{ userId: 'u1', username: 'Zoë ✓', isBot: false, botDifficulty: null, handCount: 5 }],
  deadlock: { active: false, resolveAt: null, consecutive: 0 },
};

const packets: Packet[] = [
  { type: PacketType.EVENT, nsp: '/', data: ['cardPlayed', { playerId: 'u1', gameState, seq: 12 }] },
  { type: PacketType.EVENT, nsp: '/', data: ['gameEnded', { at: new Date(Date.UTC(2026, 10, 28)), results: [] }] },
  { type: PacketType.ACK, nsp: '/', id: 42, data: [{ success: true, data: { cardsLeft: 3 } }] },
  { type: PacketType.ACK, nsp: '/', id: 0, data: [{ success: false, error: 'Not your card', code: 'NOT_IN_HAND' }] },
  { type: PacketType.EVENT, nsp: '/admin', id: 7, data: ['ping'] },
  { type: PacketType.CONNECT, nsp: '/', data: { sid: 'abc' } },
  { type: PacketType.CONNECT_ERROR, nsp: '/', data: { message: 'Authentication failed' } },
  { type: PacketType.DISCONNECT, nsp: '/' },
];

describe('the JSON-only socket.io encoder', () => {
  it('writes every packet the server sends exactly as the stock encoder does', () => {
    const stock = new Encoder();
    const ours = new JsonOnlyEncoder();
    for (const packet of packets) expect(ours.encode({ ...packet })).toEqual(stock.encode({ ...packet }));
  });

  it("writes what the stock decoder (the browser's) reads back", () => {
    const ours = new JsonOnlyEncoder();
    const decoded: Packet[] = [];
    const decoder = new Decoder();
    decoder.on('decoded', (packet: Packet) => decoded.push(packet));
    const event = packets[0] as Packet;
    for (const text of ours.encode(event)) decoder.add(text);
    expect(decoded).toEqual([{ type: PacketType.EVENT, nsp: '/', data: event.data }]);
  });
});
