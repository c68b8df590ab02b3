/**
 * socket.io's stock encoder walks every outgoing payload looking for binary attachments before it
 * writes the packet as text: 1–2% of the server's main thread under bench:server's load.
 * Nothing this server sends is binary (every payload is JSON, by the protocol's schemas), so this
 * encoder writes the text form at once: the same string the stock encoder writes for it.
 */
import { Decoder, Encoder, type Packet } from 'socket.io-parser';

export class JsonOnlyEncoder extends Encoder {
  override encode(packet: Packet): string[] {
    const [head, json] = this.encodeParts(packet);
    return [head + json];
  }

  /**
   * The packet's text in two parts: its head (type, namespace, ack id: ASCII) and its payload's JSON.
   * Joined, they are `encode`'s text; apart, a frame can take each as it is (local-adapter.ts), where
   * the joined string would first be copied whole into a flat one.
   */
  encodeParts(packet: Packet): [head: string, json: string] {
    let head = String(packet.type);
    if (packet.nsp && packet.nsp !== '/') head += `${packet.nsp},`;
    if (packet.id !== undefined && packet.id !== null) head += String(packet.id);
    return [head, packet.data !== undefined && packet.data !== null ? JSON.stringify(packet.data) : ''];
  }
}

/** The `parser` option of socket.io's Server: this encoder, the stock decoder. */
export const jsonOnlyParser = { Encoder: JsonOnlyEncoder, Decoder };
