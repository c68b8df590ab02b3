/**
 * socket.io's stock encoder walks every outgoing payload looking for binary attachments before it
 * writes the packet as text: 1–2% of the server's main thread under bench:server's load (issue 24).
 * Nothing this server sends is binary (every payload is JSON, by the protocol's schemas), so this
 * encoder writes the text form at once: the same string the stock encoder writes for it.
 */
import { Decoder, Encoder, type Packet } from 'socket.io-parser';

export class JsonOnlyEncoder extends Encoder {
  override encode(packet: Packet): string[] {
    let text = String(packet.type);
    if (packet.nsp && packet.nsp !== '/') text += `${packet.nsp},`;
    if (packet.id !== undefined && packet.id !== null) text += String(packet.id);
    if (packet.data !== undefined && packet.data !== null) text += JSON.stringify(packet.data);
    return [text];
  }
}

/** The `parser` option of socket.io's Server: this encoder, the stock decoder. */
export const jsonOnlyParser = { Encoder: JsonOnlyEncoder, Decoder };
